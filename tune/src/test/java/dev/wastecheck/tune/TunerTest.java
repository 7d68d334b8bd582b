package dev.wastecheck.tune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.Progress;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The check on the tuned copy is what keeps a migration lossless, whatever the suggestion: here
 * it is handed suggestions that would each lose something, and must catch every one on its rows.
 */
class TunerTest {

    static final String DUMP = """
            CREATE TABLE `t` (
              `id` int NOT NULL,
              `n` int NOT NULL,
              `at` datetime NOT NULL,
              `code` varchar(10) NOT NULL,
              `stamp` binary(14) NOT NULL,
              `price` decimal(8,2) NOT NULL,
              PRIMARY KEY (`id`)
            );
            INSERT INTO `t` VALUES (1,5,'2020-01-01 00:00:00','17','20200101000000',1.50),
            (2,300,'2020-01-02 10:30:00','007','20200102103000',2.25),(3,-4,'2020-01-03 00:00:00','42','20200103000000',3.00);
            """;

    @Test
    void everyLossySuggestionIsCaughtOnTheRowsItWouldChange(@TempDir Path dir) throws Exception {
        Path dump = dir.resolve("t.sql");
        Files.writeString(dump, DUMP);
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        try (LoadedSource session = analyzer.open(List.of(dump), false, Progress.NONE)) {
            AnalysisReport report = analyzer.report(session, List.of(), Progress.NONE);
            // What a careless inference might say: each loses at least one row's value.
            AnalysisReport wrong = suggest(
                    report,
                    Map.of(
                            "n", new String[] {"TINYINT", "narrow_integer"}, // 300 does not fit
                            "at", new String[] {"DATE", "timestamp_holds_date"}, // 10:30 would be lost
                            "code", new String[] {"TINYINT", "string_holds_integer"}, // '007' would print as 7
                            "price", new String[] {"DECIMAL(3,1)", "narrow_decimal"}, // 2.25 would round
                            "stamp", new String[] {"DATETIME", "string_holds_timestamp"} // this one is right
                            ));
            // every change of representation asked for, so that each reaches the check on the rows
            Tuner.Result r = Tuner.tune(
                    session, wrong, InferenceOptions.DEFAULT_ID_HEADROOM, Set.of("all"), List.of(), Progress.NONE);
            Tuner.TableResult t = r.tables().get(0);
            assertThat(mismatches(t, "n")).isEqualTo(1);
            assertThat(mismatches(t, "at")).isEqualTo(1);
            assertThat(mismatches(t, "code")).isEqualTo(1);
            assertThat(mismatches(t, "price")).isEqualTo(1);
            assertThat(mismatches(t, "stamp")).isZero();
            assertThat(checked(t, "code").example()).isEqualTo("007");
            assertThat(t.applied())
                    .extracting(c -> c.conversion().column().name())
                    .containsExactly("stamp");
            // Only the lossless change counts: 3 rows x (14 - 5) bytes of DATETIME.
            assertThat(t.bytesBefore() - t.bytesAfter()).isEqualTo(3 * (14 - 5));
        }
    }

    @Test
    void aViewVetoesAChangeOnlyWhereItComputesWithTheColumnAndQuotesThePlace() {
        // pg_dump's spelling of a view that only selects the column: nothing to veto
        assertThat(Tuner.usedInExpression(
                        "CREATE VIEW public.order_status AS\n SELECT orders.id,\n    orders.status\n   FROM public.orders;",
                        "status"))
                .isNull();
        assertThat(Tuner.usedInExpression("CREATE VIEW v AS SELECT id, status AS s FROM orders", "status"))
                .isNull();
        // a comparison with a text literal, a function of it: re-creating the view would fail
        assertThat(Tuner.usedInExpression(
                        "CREATE VIEW v AS SELECT orders.id FROM orders WHERE (orders.status = 'new'::text);", "status"))
                .contains("orders.status = 'new'::text");
        assertThat(Tuner.usedInExpression("CREATE VIEW v AS SELECT lower(status) AS s FROM orders", "status"))
                .contains("lower(status)");
        assertThat(Tuner.usedInExpression("CREATE VIEW v AS SELECT id, f + 1 AS g FROM flags", "f"))
                .contains("f + 1");
    }

    private static Tuner.Checked checked(Tuner.TableResult t, String column) {
        return t.changes().stream()
                .filter(c -> c.conversion().column().name().equals(column))
                .findFirst()
                .orElseThrow();
    }

    private static long mismatches(Tuner.TableResult t, String column) {
        return checked(t, column).mismatches();
    }

    /** The report with the given columns' suggestions replaced. */
    static AnalysisReport suggest(AnalysisReport r, Map<String, String[]> suggestions) {
        List<TableReport> tables = new ArrayList<>();
        for (TableReport t : r.tables()) {
            List<ColumnReport> cols = new ArrayList<>();
            for (ColumnReport c : t.columns()) {
                String[] s = suggestions.get(c.name());
                if (s == null) {
                    cols.add(new ColumnReport(
                            c.name(),
                            c.declaredType(),
                            c.declaredType(),
                            c.declaredBytes(),
                            c.declaredBytes(),
                            c.nulls(),
                            c.distinct(),
                            c.min(),
                            c.max(),
                            List.of()));
                } else {
                    String detail = s[1].equals("string_holds_timestamp")
                            ? "all values are 14-character YYYYMMDDHHMMSS timestamps"
                            : "test";
                    cols.add(new ColumnReport(
                            c.name(),
                            c.declaredType(),
                            s[0],
                            c.declaredBytes(),
                            c.tightBytes(),
                            c.nulls(),
                            c.distinct(),
                            c.min(),
                            c.max(),
                            List.of(new Finding(FindingKind.of(s[1]), detail, 0))));
                }
            }
            tables.add(new TableReport(
                    t.name(),
                    t.rows(),
                    t.declaredBytes(),
                    t.tightBytes(),
                    cols,
                    t.badRows(),
                    t.badValues(),
                    t.problems(),
                    t.partitionOf()));
        }
        return new AnalysisReport(
                r.sources(),
                r.dialect(),
                tables,
                r.declaredBytes(),
                r.tightBytes(),
                r.warnings(),
                r.elapsedMillis(),
                r.timingsMillis(),
                r.workload());
    }
}
