package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Database files report the pages no table holds: SQLite's freelist, DuckDB's free blocks. */
class FileSpaceTest {

    private static List<String> kinds(JsonNode space) {
        List<String> out = new ArrayList<>();
        space.get("findings").forEach(f -> out.add(f.get("kind").asText()));
        return out;
    }

    @Test
    void sqliteFreelistAfterADroppedTableIsTheFilesFreeSpace(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("app.sqlite");
        long freelist;
        long pageSize;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + file);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE kept (id INTEGER PRIMARY KEY, name TEXT NOT NULL)");
            st.execute("CREATE INDEX kept_name ON kept (name)");
            st.execute("CREATE TABLE gone (id INTEGER PRIMARY KEY, body TEXT NOT NULL)");
            st.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)"
                    + " INSERT INTO kept SELECT i, 'name ' || i FROM n");
            st.execute("WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)"
                    + " INSERT INTO gone SELECT i, printf('%.200c', 'x') FROM n");
            st.execute("DROP TABLE gone");
            try (ResultSet rs = st.executeQuery("PRAGMA freelist_count")) {
                rs.next();
                freelist = rs.getLong(1);
            }
            try (ResultSet rs = st.executeQuery("PRAGMA page_size")) {
                rs.next();
                pageSize = rs.getLong(1);
            }
        }
        assertThat(freelist).isGreaterThan(50);
        JsonNode report = Cli.analyzeJson(file);
        JsonNode space = report.get("file_space");
        assertThat(space.get("free_bytes").asLong()).isEqualTo(freelist * pageSize);
        assertThat(kinds(space)).contains("free_space");
        JsonNode kept = Cli.table(report, "kept").get("space");
        assertThat(kept.get("indexes").get(0).get("name").asText()).isEqualTo("kept_name");
        assertThat(kept.get("indexes").get(0).get("measured_bytes").asLong()).isPositive();
    }

    @Test
    void duckdbFreeBlocksAfterADroppedTableAreTheFilesFreeSpace(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("app.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE kept AS SELECT range AS id FROM range(100000)");
            st.execute("CREATE TABLE gone AS SELECT range AS id, md5(range::VARCHAR) AS h FROM range(300000)");
            st.execute("CHECKPOINT");
            st.execute("DROP TABLE gone");
            st.execute("CHECKPOINT");
        }
        JsonNode report = Cli.analyzeJson(file);
        JsonNode space = report.get("file_space");
        assertThat(space.get("method").asText()).isEqualTo("database_size");
        assertThat(space.get("free_bytes").asLong()).isPositive();
        assertThat(Cli.table(report, "kept").get("space").get("data_bytes").asLong())
                .isPositive();
    }

    @Test
    void duckdbIndexesAreMeasuredByTheBlocksACopyFreesWhenEachIsDropped(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("app.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE t AS SELECT range AS id, md5(range::VARCHAR) AS h FROM range(300000)");
            st.execute("CREATE INDEX t_h ON t(h)");
            st.execute("CREATE INDEX t_id ON t(id)");
            st.execute("CHECKPOINT");
        }
        long size = Files.size(file);
        JsonNode report = Cli.analyzeJson(file);
        JsonNode indexes = Cli.table(report, "t").get("space").get("indexes");
        Map<String, Long> bytes = new HashMap<>();
        for (JsonNode i : indexes)
            bytes.put(i.get("name").asText(), i.get("measured_bytes").asLong());
        // 300,000 md5 strings of 32 bytes in an ART take megabytes; the integer index far fewer
        assertThat(bytes.get("t_h")).isGreaterThan(4L << 20);
        assertThat(bytes.get("t_id")).isPositive().isLessThan(bytes.get("t_h"));
        // the user's file is only read: the drops ran on a copy
        assertThat(Files.size(file)).isEqualTo(size);
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT count(*) FROM duckdb_indexes()")) {
            rs.next();
            assertThat(rs.getLong(1)).isEqualTo(2);
        }
    }
}
