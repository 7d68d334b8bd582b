package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.model.Bytes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Index findings from a dump and its trace, no server: the redundant indexes the DDL declares, an
 * index the trace only sorts by (ORDER BY ... LIMIT, which only an index serves) kept as used, an
 * index no statement compares reported unused, and a low-cardinality index by index-digest's rule.
 */
class IndexFindingsDumpTest {

    static Path dump(Path dir) throws Exception {
        StringBuilder sb = new StringBuilder();
        sb.append("CREATE TABLE `event` (\n  `id` int NOT NULL,\n  `kind` varchar(8) NOT NULL,\n")
                .append("  `at` int NOT NULL,\n  `body` varchar(40) NOT NULL,\n  `owner` int NOT NULL,\n")
                .append("  PRIMARY KEY (`id`),\n  UNIQUE KEY `id_at` (`id`, `at`),\n  KEY `by_kind` (`kind`),\n")
                .append("  KEY `by_at` (`at`),\n  KEY `by_body` (`body`),\n  KEY `by_owner` (`owner`),\n")
                .append("  KEY `by_owner_at` (`owner`, `at`)\n) ENGINE=InnoDB;\n");
        sb.append("INSERT INTO `event` VALUES ");
        String[] kinds = {"create", "update", "delete"};
        for (int i = 0; i < 1200; i++) {
            sb.append(i == 0 ? "" : ",")
                    .append(String.format("(%d,'%s',%d,'body %d',%d)", i, kinds[i % 3], 1000 + i * 7, i, i % 50));
        }
        sb.append(";\n");
        Path d = dir.resolve("dump.sql");
        Files.writeString(d, sb.toString(), StandardCharsets.UTF_8);
        return d;
    }

    @Test
    void redundantUnusedAndLowCardinalityIndexesOfADumpAndItsTrace(@TempDir Path dir) throws Exception {
        Path trace = dir.resolve("trace.sql");
        Files.writeString(
                trace,
                "SELECT body FROM event WHERE id = 7;\n"
                        + "SELECT id FROM event WHERE kind = 'create' AND owner = 3;\n"
                        // only an index led by `at` serves this without sorting the table
                        + "SELECT id, at FROM event ORDER BY at DESC LIMIT 10;\n",
                StandardCharsets.UTF_8);
        Cli.Result r = Cli.run("analyze", dump(dir).toString(), "--trace", trace.toString(), "--format", "json", "-q");
        assertThat(r.exitCode()).as(r.err()).isZero();
        Map<String, JsonNode> f = new TreeMap<>();
        r.json().get("index_findings").forEach(x -> f.put(x.get("index").asText(), x));
        assertThat(f.keySet()).containsExactly("by_body", "by_kind", "by_owner", "id_at");
        assertThat(f.get("id_at").get("kind").asText()).isEqualTo("redundant_index");
        assertThat(f.get("id_at").get("covered_by").asText()).isEqualTo("PRIMARY");
        assertThat(f.get("by_owner").get("kind").asText()).isEqualTo("redundant_index");
        assertThat(f.get("by_owner").get("covered_by").asText()).isEqualTo("by_owner_at");
        assertThat(f.get("by_body").get("kind").asText()).isEqualTo("unused_index");
        assertThat(f.get("by_body").get("detail").asText()).contains("over the 3 statements of trace.sql");
        assertThat(f.get("by_kind").get("kind").asText()).isEqualTo("low_cardinality_index");
        assertThat(f.get("by_kind").get("detail").asText())
                .startsWith("3 distinct keys over 1,200 rows, the rarest in 400 rows");
        // a dump's index bytes are the storage model's prediction (InnoDB pages of 16 KiB): nothing measures them
        assertThat(f.get("by_body").get("bytes_basis").asText()).isEqualTo("predicted");
        assertThat(f.get("by_body").get("bytes").asLong())
                .isPositive()
                .isEqualTo(f.get("by_body").get("predicted_bytes").asLong());
        assertThat(f.get("by_body").get("bytes").asLong() % 16384).isZero();
        assertThat(f.get("by_body").get("definition").asText())
                .isEqualTo("ALTER TABLE `event` ADD INDEX `by_body` (`body`)");
    }

    @Test
    void theMarkdownAndHtmlReportsListEveryIndexFindingWithItsBytesAndReason(@TempDir Path dir) throws Exception {
        Path dump = dump(dir);
        Path trace = dir.resolve("trace.sql");
        Files.writeString(
                trace,
                "SELECT body FROM event WHERE id = 7;\nSELECT id FROM event WHERE kind = 'create' AND owner = 3;\n",
                StandardCharsets.UTF_8);
        JsonNode json = Cli.analyzeJson(dump, "--trace", trace);
        Cli.Result md = Cli.run("analyze", "-q", "--format", "markdown", dump.toString(), "--trace", trace.toString());
        assertThat(md.exitCode()).as(md.err()).isZero();
        Path out = dir.resolve("report.html");
        Cli.Result html = Cli.run(
                "analyze",
                "-q",
                "--format",
                "html",
                "-o",
                out.toString(),
                dump.toString(),
                "--trace",
                trace.toString());
        assertThat(html.exitCode()).as(html.err()).isZero();
        String page = Files.readString(out);
        assertThat(md.out()).contains("## Indexes");
        assertThat(page).contains("<h2>Indexes</h2>");
        List<String> kinds = new ArrayList<>();
        json.get("index_findings").forEach(f -> kinds.add(f.get("kind").asText()));
        assertThat(kinds).contains("redundant_index", "unused_index", "low_cardinality_index");
        for (JsonNode f : json.get("index_findings")) {
            String name = f.get("table").asText() + "." + f.get("index").asText();
            String bytes = Bytes.human(f.get("bytes").asLong());
            String covered = f.hasNonNull("covered_by") ? f.get("covered_by").asText() : "";
            // one row per finding, its figures those of the JSON report
            assertThat(md.out())
                    .contains("| " + name + " | " + String.join(", ", columns(f)) + " | `"
                            + f.get("kind").asText() + "` | " + bytes + " | "
                            + f.get("bytes_basis").asText() + " | "
                            + Bytes.human(f.get("predicted_bytes").asLong()) + " | " + covered + " | "
                            + f.get("detail").asText().replace("|", "\\|") + " |");
            assertThat(page)
                    .contains("<tr><td><code>" + name + "</code></td><td><code>" + String.join(", ", columns(f))
                            + "</code></td><td><span class=k>" + f.get("kind").asText() + "</span></td><td class=n>"
                            + bytes + "</td><td>" + f.get("bytes_basis").asText() + "</td>");
        }
    }

    private static List<String> columns(JsonNode f) {
        List<String> c = new ArrayList<>();
        f.get("columns").forEach(x -> c.add(x.asText()));
        return c;
    }

    @Test
    void withoutATraceNoIndexIsCalledUnused(@TempDir Path dir) throws Exception {
        JsonNode report = Cli.analyzeJson(dump(dir));
        report.get("index_findings")
                .forEach(x -> assertThat(x.get("kind").asText()).isNotEqualTo("unused_index"));
        assertThat(report.get("index_findings")).hasSize(3); // id_at, by_owner, by_kind
    }

    @Test
    void anSqliteFilesRedundantIndexesWithTheBytesDbstatCounts(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("t.sqlite");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t (id INTEGER PRIMARY KEY, a TEXT NOT NULL, b INTEGER NOT NULL)");
            st.execute("CREATE INDEX t_a ON t (a)");
            st.execute("CREATE INDEX t_ab ON t (a, b)");
            st.execute("CREATE INDEX t_b1 ON t (b)");
            st.execute("CREATE INDEX t_b2 ON t (b)");
            c.setAutoCommit(false);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO t VALUES (?, ?, ?)")) {
                for (int i = 0; i < 20000; i++) {
                    ps.setInt(1, i);
                    ps.setString(2, String.format("value-%06d", i * 7919 % 100000));
                    ps.setInt(3, i * 31);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
        Map<String, JsonNode> f = new TreeMap<>();
        Cli.analyzeJson(file)
                .get("index_findings")
                .forEach(x -> f.put(x.get("index").asText(), x));
        assertThat(f.keySet()).containsExactly("t_a", "t_b2");
        assertThat(f.get("t_a").get("covered_by").asText()).isEqualTo("t_ab");
        assertThat(f.get("t_b2").get("covered_by").asText()).isEqualTo("t_b1");
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file)) {
            for (String ix : List.of("t_a", "t_b2")) {
                try (PreparedStatement ps = c.prepareStatement("SELECT sum(pgsize) FROM dbstat WHERE name = ?")) {
                    ps.setString(1, ix);
                    try (ResultSet rs = ps.executeQuery()) {
                        rs.next();
                        assertThat(f.get(ix).get("bytes").asLong()).isEqualTo(rs.getLong(1));
                        assertThat(f.get(ix).get("bytes_basis").asText()).isEqualTo("measured");
                    }
                }
            }
        }
    }

    /**
     * A pg_dump's CREATE INDEX statements are read whole: the access method, a partial index's
     * condition and INCLUDE columns decide redundancy, so a GIN index beside a B-tree on the same
     * column and a partial index beside a full one are not duplicates, while a plain duplicate and
     * an index whose INCLUDE-ing twin holds everything it holds are. The rollback of a drop is the
     * dump's own statement.
     */
    @Test
    void aPgDumpsIndexMethodsConditionsAndIncludesDecideRedundancy(@TempDir Path dir) throws Exception {
        StringBuilder sb = new StringBuilder("""
                --
                -- PostgreSQL database dump
                --
                SET statement_timeout = 0;
                CREATE TABLE public.doc (
                    id integer NOT NULL,
                    owner integer NOT NULL,
                    at integer NOT NULL,
                    body text NOT NULL,
                    status text NOT NULL
                );
                COPY public.doc (id, owner, at, body, status) FROM stdin;
                """);
        String[] status = {"new", "open", "done"};
        for (int i = 0; i < 1200; i++) {
            sb.append(String.format("%d\t%d\t%d\tbody %d\t%s%n", i, i % 50, 1000 + i * 7, i, status[i % 3]));
        }
        sb.append("""
                \\.

                ALTER TABLE ONLY public.doc
                    ADD CONSTRAINT doc_pkey PRIMARY KEY (id);
                CREATE INDEX doc_body ON public.doc USING btree (body);
                CREATE INDEX doc_body_gin ON public.doc USING gin (body gin_trgm_ops);
                CREATE INDEX doc_status ON public.doc USING btree (status);
                CREATE INDEX doc_status_new ON public.doc USING btree (status) WHERE (status = 'new'::text);
                CREATE INDEX doc_owner ON public.doc USING btree (owner);
                CREATE INDEX doc_owner_copy ON public.doc USING btree (owner);
                CREATE INDEX doc_at ON public.doc USING btree (at);
                CREATE INDEX doc_at_body ON public.doc USING btree (at) INCLUDE (body);
                CREATE INDEX doc_lower ON public.doc USING btree (lower(body), coalesce(status, 'x'::text));
                """);
        Path d = dir.resolve("doc.sql");
        Files.writeString(d, sb.toString(), StandardCharsets.UTF_8);
        Map<String, JsonNode> f = new TreeMap<>();
        Cli.analyzeJson(d)
                .get("index_findings")
                .forEach(x -> f.put(x.get("index").asText(), x));
        List<String> redundant = f.values().stream()
                .filter(x -> x.get("kind").asText().equals("redundant_index"))
                .map(x -> x.get("index").asText())
                .toList();
        assertThat(redundant).as(f.toString()).containsExactlyInAnyOrder("doc_at", "doc_owner_copy");
        assertThat(f.get("doc_owner_copy").get("covered_by").asText()).isEqualTo("doc_owner");
        assertThat(f.get("doc_at").get("covered_by").asText()).isEqualTo("doc_at_body");
        assertThat(f.get("doc_at").get("definition").asText())
                .isEqualTo("CREATE INDEX doc_at ON public.doc USING btree (at)");
    }
}
