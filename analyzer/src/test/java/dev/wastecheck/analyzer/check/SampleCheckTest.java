package dev.wastecheck.analyzer.check;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server-side check of a sampled analysis, against an in-process DuckDB standing in for the
 * server (the integer range checks are plain SQL; the e2e LiveSourceTest runs the same on a real
 * PostgreSQL and MariaDB): a suggestion some row contradicts is withdrawn, and so is every
 * suggestion of the columns that take one type with it.
 */
class SampleCheckTest {
    @Test
    void aContradictedSuggestionIsWithdrawnWithItsWholeGroup() throws Exception {
        DdlCatalog catalog = DdlCatalog.parse(
                "CREATE TABLE a (x integer NOT NULL, z integer NOT NULL);\n"
                        + "CREATE TABLE b (y integer NOT NULL, w integer);",
                Dialect.POSTGRESQL);
        TableDef a = catalog.table("a"), b = catalog.table("b");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE a (x integer NOT NULL, z integer NOT NULL)");
            st.execute("CREATE TABLE b (y integer NOT NULL, w integer)");
            st.execute("INSERT INTO a SELECT i % 100, i % 7 FROM range(1000) t(i)");
            // one row of b does not fit a smallint; one holds w
            st.execute("INSERT INTO b SELECT CASE WHEN i = 500 THEN 100000 ELSE i % 100 END,"
                    + " CASE WHEN i = 7 THEN 1 END FROM range(1000) t(i)");
            // what a 10% sample saw: 100 rows each, x and y (one domain) fit a smallint, z too,
            // w was all NULL
            AnalysisReport sampled = new AnalysisReport(
                    List.of("jdbc:postgresql://h/db"),
                    "postgresql",
                    List.of(
                            table("a", column("x", true), column("z", true)),
                            table("b", column("y", true), allNull("w"))),
                    800,
                    400,
                    List.of(),
                    0,
                    Map.of(),
                    null,
                    List.of(),
                    List.of(List.of("a.x", "b.y")));
            AnalysisReport checked = SampleCheck.apply(
                    sampled, Map.of("a", a, "b", b), Map.of(a.key(), "a", b.key(), "b"), c, Dialect.POSTGRESQL, 10, 1);
            ColumnReport x = checked.table("a").column("x"),
                    y = checked.table("b").column("y"),
                    z = checked.table("a").column("z"),
                    w = checked.table("b").column("w");
            assertThat(y.suggestedType()).isEqualTo("integer");
            assertThat(y.findings().get(0).detail()).contains("1 of the 1000 rows on the server do not fit it");
            // x fits everywhere, but a reference or domain member must not end up narrower than its group
            assertThat(x.suggestedType()).isEqualTo("integer");
            assertThat(x.findings().get(0).detail()).contains("takes one type with b.y");
            assertThat(z.suggestedType()).isEqualTo("smallint");
            assertThat(w.has(FindingKind.ALL_NULL)).isFalse();
            // NULLs and integer ranges are the server's, exact, not the sample's
            assertThat(w.nulls()).isEqualTo(999);
            assertThat(y.max()).isEqualTo("100000");
            assertThat(z.min()).isEqualTo("0");
            assertThat(z.max()).isEqualTo("6");
            assertThat(checked.table("a").rows()).isEqualTo(1000);
            assertThat(z.declaredBytes()).isEqualTo(4000); // 400 sampled bytes scaled to 1,000 rows
            assertThat(checked.sample().withdrawn()).isEqualTo(3);
            assertThat(checked.sample().rowsProfiled()).containsEntry("a", 100L);
        }
    }

    private static TableReport table(String name, ColumnReport... columns) {
        long declared = 0, tight = 0;
        for (ColumnReport c : columns) {
            declared += c.declaredBytes();
            tight += c.tightBytes();
        }
        return new TableReport(name, 100, declared, tight, List.of(columns), 0, 0, List.of(), null);
    }

    private static ColumnReport column(String name, boolean narrow) {
        return new ColumnReport(
                name,
                "integer",
                narrow ? "smallint" : "integer",
                400,
                narrow ? 200 : 400,
                0,
                50,
                "0",
                "99",
                narrow
                        ? List.of(new Finding(FindingKind.NARROW_INTEGER, "values 0..99 fit smallint", 200))
                        : List.of());
    }

    private static ColumnReport allNull(String name) {
        return new ColumnReport(
                name,
                "integer",
                "integer",
                0,
                0,
                100,
                0,
                null,
                null,
                List.of(new Finding(FindingKind.ALL_NULL, "all 100 rows are NULL in this snapshot", 0)));
    }
}
