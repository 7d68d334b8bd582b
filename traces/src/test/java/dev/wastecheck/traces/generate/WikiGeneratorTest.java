package dev.wastecheck.traces.generate;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.traces.access.AccessExtractor;
import dev.wastecheck.traces.heat.IndexUse;
import dev.wastecheck.traces.heat.PageHotDensity;
import dev.wastecheck.traces.heat.SkewShares;
import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.heat.WorkloadHeat;
import dev.wastecheck.traces.read.TraceFormat;
import dev.wastecheck.traces.read.TraceReader;
import java.io.BufferedReader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Generates a small wiki at default distributions (text sizes shrunk to keep the test's disk use
 * small: text size does not change who reads what) and checks the paper's observations on it.
 */
class WikiGeneratorTest {
    static final int PAGES = 1500;

    @TempDir
    static Path dir;

    static WikiGenerator generator;
    static WikiGenerator.Result result;
    static WorkloadHeat profile;
    static AccessExtractor extractor;
    static TraceFormat format;

    @BeforeAll
    static void generateAndProfile() throws IOException {
        generator = new WikiGenerator(WikiGenerator.Config.defaults(PAGES, 42).withTextMedianBytes(300));
        result = generator.generate(dir);
        DatabaseSchema schema = DdlCatalog.read(dir.resolve("dump.sql")).schema();
        extractor = new AccessExtractor(schema);
        profile = new WorkloadHeat(schema);
        try (TraceReader r = TraceReader.open(dir.resolve("trace.log"))) {
            format = r.format();
            while (r.hasNext()) {
                extractor.extract(r.next(), profile::add);
            }
            assertThat(r.badLines().count()).isZero();
        }
    }

    @Test
    void dumpIsAMysqldumpWithMediaWikisDeclaredSchema() throws IOException {
        String head;
        try (BufferedReader in = Files.newBufferedReader(dir.resolve("dump.sql"))) {
            char[] buf = new char[4000];
            head = new String(buf, 0, in.read(buf));
        }
        assertThat(head)
                .startsWith("-- MySQL dump 10.13")
                .contains("/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;")
                .contains("DROP TABLE IF EXISTS `actor`;")
                .contains("LOCK TABLES `actor` WRITE;");
        DatabaseSchema schema = DdlCatalog.read(dir.resolve("dump.sql")).schema();
        assertThat(schema.tables())
                .extracting(TableDef::name)
                .containsExactly(
                        "actor", "comment", "content", "page", "revision", "slots", "text", "user", "watchlist");
        TableDef page = schema.table("page").orElseThrow();
        assertThat(page.index("name_title"))
                .contains(new IndexDef("name_title", List.of("page_namespace", "page_title"), true));
        assertThat(page.column("page_title").orElseThrow().type().declared()).isEqualTo("varbinary(255)");
        assertThat(page.column("page_id").orElseThrow().type().declared()).isEqualTo("int unsigned");
        assertThat(schema.table("revision")
                        .orElseThrow()
                        .column("rev_timestamp")
                        .orElseThrow()
                        .type()
                        .declared())
                .isEqualTo("binary(14)");
    }

    @Test
    void rowCountsPrintedAreTheRowsInTheDump() throws IOException {
        Map<String, Long> counted = countRows(dir.resolve("dump.sql"));
        assertThat(counted).isEqualTo(result.rows());
        assertThat(result.rows().get("page")).isEqualTo(PAGES);
        assertThat(result.rows().get("revision")).isEqualTo(generator.revisions());
    }

    @Test
    void revisionsPerPageAreHeavyTailedWithMeanAboutTwelveAndMedianTwo() {
        int[] perPage = new int[PAGES];
        for (int p = 1; p <= PAGES; p++) {
            perPage[p - 1] = generator.revisionsOf(p);
        }
        Arrays.sort(perPage);
        double mean = (double) generator.revisions() / PAGES;
        assertThat(perPage[PAGES / 2]).isEqualTo(2);
        assertThat(mean).isBetween(8.0, 16.0);
        assertThat(perPage[PAGES - 1]).isGreaterThan(200);
    }

    @Test
    void everyTraceStatementResolvesWithCalcite() {
        assertThat(format).isEqualTo(TraceFormat.WASTECHECK);
        assertThat(extractor.report().unresolved()).isZero();
        assertThat(extractor.report().statements()).isEqualTo(result.traceStatements());
        assertThat(extractor.report().resolved()).isEqualTo(result.traceStatements());
        assertThat(extractor.report().shapes()).isLessThan(20);
    }

    @Test
    void revisionAccessesAreConcentrated() {
        TableHeat rev = profile.table("revision").orElseThrow();
        long tuples = result.rows().get("revision") + rev.operations().getOrDefault(Operation.INSERT, 0L);
        SkewShares s = rev.skew("PRIMARY", tuples);
        System.out.printf(
                "revision skew over %d tuples: top1%% %.3f top5%% %.3f top10%% %.3f%n",
                tuples, s.top1(), s.top5(), s.top10());
        assertThat(s.top5()).isGreaterThanOrEqualTo(0.90);
    }

    @Test
    void hotRevisionsLieScatteredInInsertionOrder() {
        TableHeat rev = profile.table("revision").orElseThrow();
        Set<List<String>> hot = rev.hotKeys("PRIMARY", 0.9);
        int rowBytes =
                (int) (result.tableBytes().get("revision") / result.rows().get("revision"));
        PageHotDensity density = new PageHotDensity(8192);
        for (long id = 1; id <= result.rows().get("revision"); id++) {
            density.row(hot.contains(List.of(Long.toString(id))), rowBytes);
        }
        System.out.printf(
                "revision hot set %d of %d rows, %d-byte rows; hot pages %d of %d; page hot-density %.4f%n",
                density.hotRows(),
                density.rows(),
                rowBytes,
                density.pagesWithHot(),
                density.pages(),
                density.density());
        assertThat(density.hotRows()).isGreaterThan(100);
        assertThat(density.density()).isLessThanOrEqualTo(0.10);
    }

    @Test
    void nameTitleLookupsProjectPageIdAndPageLatest() {
        IndexUse nameTitle = profile.table("page").orElseThrow().index("name_title");
        assertThat(nameTitle.queries()).isGreaterThan(result.traceRequests() / 2);
        assertThat(nameTitle.projectedColumns().keySet()).containsExactlyInAnyOrder("page_id", "page_latest");
        assertThat(nameTitle.answerableShare(Set.of("page_id", "page_latest"))).isEqualTo(1.0);
        assertThat(nameTitle.answerableShare(Set.of())).isEqualTo(0.0);
    }

    @Test
    void sameSeedWritesTheSameBytes(@TempDir Path a, @TempDir Path b) throws Exception {
        WikiGenerator.Config c = WikiGenerator.Config.defaults(40, 7).withTextMedianBytes(100);
        new WikiGenerator(c).generate(a);
        new WikiGenerator(c).generate(b);
        assertThat(sha(a.resolve("dump.sql"))).isEqualTo(sha(b.resolve("dump.sql")));
        assertThat(sha(a.resolve("trace.log"))).isEqualTo(sha(b.resolve("trace.log")));
        new WikiGenerator(WikiGenerator.Config.defaults(40, 8).withTextMedianBytes(100)).generate(b);
        assertThat(sha(a.resolve("dump.sql"))).isNotEqualTo(sha(b.resolve("dump.sql")));
    }

    @Test
    void extendedInsertsStayUnderTheStatementLimit(@TempDir Path d) throws IOException {
        new WikiGenerator(WikiGenerator.Config.defaults(60, 3)
                        .withTextMedianBytes(2000)
                        .withMaxInsertBytes(16_384))
                .generate(d);
        long inserts = 0;
        try (BufferedReader in = Files.newBufferedReader(d.resolve("dump.sql"), StandardCharsets.UTF_8)) {
            String l;
            while ((l = in.readLine()) != null) {
                if (l.startsWith("INSERT INTO")) {
                    inserts++;
                    int rows = countTuples(l);
                    // a statement holds one row whatever its size, more rows only while under the limit
                    assertThat(rows == 1 || l.getBytes(StandardCharsets.UTF_8).length + 1 <= 16_384)
                            .as("line of %d rows", rows)
                            .isTrue();
                }
            }
        }
        assertThat(inserts).isGreaterThan(9);
    }

    static String sha(Path f) throws Exception {
        return java.util.HexFormat.of()
                .formatHex(MessageDigest.getInstance("SHA-256").digest(Files.readAllBytes(f)));
    }

    /** Rows per table in a mysqldump, counted by a quote-aware scan of its extended INSERTs. */
    static Map<String, Long> countRows(Path dump) throws IOException {
        Map<String, Long> rows = new HashMap<>();
        Set<String> tables = new HashSet<>();
        try (BufferedReader in = Files.newBufferedReader(dump, StandardCharsets.UTF_8)) {
            String l;
            while ((l = in.readLine()) != null) {
                if (l.startsWith("CREATE TABLE `")) {
                    String t = l.substring(14, l.indexOf('`', 14));
                    tables.add(t);
                    rows.put(t, 0L);
                } else if (l.startsWith("INSERT INTO `")) {
                    String t = l.substring(13, l.indexOf('`', 13));
                    rows.merge(t, (long) countTuples(l), Long::sum);
                }
            }
        }
        return rows;
    }

    static int countTuples(String insert) {
        int depth = 0;
        int tuples = 0;
        boolean quoted = false;
        int start = insert.indexOf(" VALUES ") + 8;
        for (int i = start; i < insert.length(); i++) {
            char c = insert.charAt(i);
            if (quoted) {
                if (c == '\\') {
                    i++;
                } else if (c == '\'') {
                    quoted = false;
                }
            } else if (c == '\'') {
                quoted = true;
            } else if (c == '(') {
                if (depth++ == 0) {
                    tuples++;
                }
            } else if (c == ')') {
                depth--;
            }
        }
        return tuples;
    }
}
