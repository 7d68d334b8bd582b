package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code wastecheck tune}: MySQL and DuckDB migrations, its JSON, the changes it refuses and why. */
class TuneTest {

    /**
     * {@code tune -q --representation all ARGS...}: these tests prove the check and the migration's
     * mechanics on every kind of change, so they ask for the changes of what the application reads
     * too (left out by default: docs/tune.md).
     */
    private static Cli.Result tune(String... args) {
        List<String> all = new ArrayList<>(List.of("--representation", "all"));
        all.addAll(List.of(args));
        return tuneAsIs(all.toArray(new String[0]));
    }

    /** {@code tune -q ARGS...}, with tune's defaults. */
    private static Cli.Result tuneAsIs(String... args) {
        List<String> all = new ArrayList<>(List.of("tune", "-q"));
        all.addAll(List.of(args));
        return Cli.run(all.toArray(new String[0]));
    }

    @Test
    void mysqlMigrationSetsItsSessionGuardsFirstAndRestatesEachColumn() throws Exception {
        Path dump = Path.of("").toAbsolutePath();
        while (!Files.exists(dump.resolve("mvnw"))) {
            dump = dump.getParent();
        }
        Cli.Result r = tuneAsIs(dump.resolve("examples/wiki/dump.sql").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String sql = r.out();
        assertThat(sql)
                .startsWith("-- wastecheck tune: a migration for MySQL (InnoDB)")
                .contains("-- Evidence: the advice rests on the snapshot only")
                // its own session: strict, so a value that does not fit is an error, not a cut value; put back at the
                // end
                .contains(
                        "SET SESSION sql_mode = 'STRICT_ALL_TABLES,",
                        "SET SESSION foreign_key_checks = 0;",
                        "SET SESSION foreign_key_checks = @wastecheck_fk, SESSION sql_mode = @wastecheck_sql_mode")
                // the guard reads the live rows before the first ALTER
                .contains("SUM(`comment_id` NOT BETWEEN 0 AND 4294967295)", "INSERT INTO wastecheck_guard")
                // one ALTER per table, each column restated whole: NOT NULL, AUTO_INCREMENT and DEFAULT survive MODIFY
                // a 14-digit timestamp read as DATETIME changes what the application reads: not by default
                .doesNotContain("MODIFY COLUMN `rev_timestamp`")
                // 1,000 comments: a BIGINT key becomes INT, and its reference with it, never narrower
                .contains("MODIFY COLUMN `comment_id` INT UNSIGNED NOT NULL AUTO_INCREMENT")
                .contains("MODIFY COLUMN `rev_comment_id` INT UNSIGNED NOT NULL")
                // 12 pages are too little evidence to touch page_id, rev_page or page_latest
                .doesNotContain(
                        "MODIFY COLUMN `page_id`",
                        "MODIFY COLUMN `rev_page`",
                        "MODIFY COLUMN `page_latest`",
                        "TINYINT");
        assertThat(sql.split("ALTER TABLE `revision`", -1)).hasSize(2);
        assertThat(sql.indexOf("INSERT INTO wastecheck_guard")).isLessThan(sql.indexOf("\nALTER TABLE"));
        assertThat(r.err()).contains("checked on every row");
        assertThat(FixedPointTest.flat(r.out()))
                .contains("revision.rev_timestamp binary(14) -> DATETIME: tune leaves it out by default: the"
                        + " application would read a timestamp where it read a string");

        // With the evidence threshold and the key floor lowered, more changes: DEFAULT is restated too.
        Cli.Result low = tuneAsIs(
                dump.resolve("examples/wiki/dump.sql").toString(),
                "--min-rows",
                "0",
                "--key-floor",
                "2",
                "--representation",
                "revision.rev_timestamp");
        assertThat(low.exitCode()).as(low.err()).isZero();
        assertThat(low.out())
                .contains("MODIFY COLUMN `rev_timestamp` DATETIME NOT NULL")
                .contains("MODIFY COLUMN `rev_id` SMALLINT UNSIGNED NOT NULL AUTO_INCREMENT")
                .contains("MODIFY COLUMN `wl_namespace` SMALLINT NOT NULL DEFAULT '0'")
                .contains("MODIFY COLUMN `page_namespace` SMALLINT NOT NULL,");
    }

    @Test
    void aSuggestionThatWouldChangeARowIsLeftOutWithTheFirstValueItWouldChange(@TempDir Path dir) throws Exception {
        // 2,000 amounts written as text, four of them '': analyze reads '' as a null marker and
        // suggests an integer, but the migration would turn those four into NULL, so tune leaves it
        // out. The CHAR label loses its padding and keeps its limit.
        StringBuilder sql = new StringBuilder(
                "CREATE TABLE `ledger` (`id` int NOT NULL AUTO_INCREMENT, `amount` varchar(10) NOT NULL,"
                        + " `label` char(12) NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;\nINSERT INTO `ledger` VALUES ");
        for (int i = 1; i <= 2000; i++) {
            sql.append(i > 1 ? "," : "")
                    .append('(')
                    .append(i)
                    .append(",'")
                    .append(i % 500 == 0 ? "" : String.valueOf(i * 7))
                    .append("','l")
                    .append(i)
                    .append("')");
        }
        Path dump = dir.resolve("ledger.sql");
        Files.writeString(dump, sql.append(";\n"));
        Cli.Result r = tune(dump.toString(), "--format", "json");
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode change = change(r.json(), "ledger", "amount");
        assertThat(change.get("applied").asBoolean()).isFalse();
        assertThat(change.get("mismatches").asLong()).isEqualTo(4);
        assertThat(change.get("rows_checked").asLong()).isEqualTo(2000);
        assertThat(change.get("first_mismatch").asText()).isEmpty();
        JsonNode applied = change(r.json(), "ledger", "label");
        assertThat(applied.get("applied").asBoolean()).isTrue();
        assertThat(applied.get("new_type").asText())
                .as("the padding goes, the limit stays")
                .isEqualTo("VARCHAR(12)");
        assertThat(applied.get("mismatches").asLong()).isZero();
        JsonNode totals = r.json().get("totals");
        assertThat(totals.get("bytes_after").asLong())
                .isLessThan(totals.get("bytes_before").asLong());
    }

    @Test
    @Tag("real-data")
    void defaultsAChangeCannotCarryKeepTheColumnAsDeclared() {
        // MediaWiki 1.2x declared its timestamps binary(14) DEFAULT '\0...\0': no DATETIME gives that back.
        Cli.Result r = tune(Cli.data("mediawiki-smw-2017-dump").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("--   page.page_touched binary(14) -> DATETIME: its DEFAULT")
                .doesNotContain("MODIFY COLUMN `page_touched`");
    }

    @Test
    void duckdbMigrationRunsOnACopyOfTheFileAndEveryValueReadsBackTheSame(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("shop.duckdb");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement st = c.createStatement()) {
            st.execute(
                    "CREATE TABLE orders (id BIGINT PRIMARY KEY, quantity BIGINT NOT NULL DEFAULT 1, price DOUBLE, placed VARCHAR, "
                            + "day VARCHAR, code VARCHAR, status VARCHAR, note VARCHAR)");
            st.execute(
                    "INSERT INTO orders SELECT i, 1 + i % 10, (i % 100) * 1.0, "
                            + "strftime(TIMESTAMP '2020-01-01' + INTERVAL (i) MINUTE, '%Y-%m-%d %H:%M:%S'), "
                            + "strftime(DATE '2020-01-01' + (i % 300)::INT, '%Y-%m-%d'), CAST(1000 + i AS VARCHAR), "
                            + "CASE i % 3 WHEN 0 THEN 'new' WHEN 1 THEN 'paid' ELSE 'sent' END, 'x' || i FROM range(1, 5001) t(i)");
            st.execute("CREATE TABLE lines (order_id BIGINT, qty BIGINT)");
            st.execute("INSERT INTO lines SELECT i, i % 7 FROM range(1, 2001) t(i)");
            st.execute("CREATE INDEX lines_order ON lines(order_id)");
        }
        Cli.Result r = tune(file.toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        String sql = r.out();
        assertThat(sql)
                .contains("ALTER TABLE \"orders\" ALTER COLUMN \"placed\" SET DATA TYPE TIMESTAMP")
                .contains("ALTER TABLE \"orders\" ALTER COLUMN \"status\" SET DATA TYPE ENUM('new','paid','sent')")
                .contains("--   orders.id BIGINT -> ", "under a PRIMARY KEY")
                .contains("--   lines.qty BIGINT -> ", "drop index lines_order first");

        Path copy = dir.resolve("copy.duckdb");
        Files.copy(file, copy);
        List<String> before = rows(copy, "orders");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + copy)) {
            for (String statement : sql.split(";\\s*(--[^\\n]*)?\\n")) {
                String s = statement.replaceAll("(?m)^--.*$", "").strip();
                if (!s.isEmpty()) {
                    try (Statement st = c.createStatement()) {
                        st.execute(s);
                    }
                }
            }
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery(
                            "SELECT data_type FROM information_schema.columns WHERE table_name = 'orders' AND column_name = 'placed'")) {
                rs.next();
                assertThat(rs.getString(1)).isEqualTo("TIMESTAMP");
            }
        }
        assertThat(rows(copy, "orders")).isEqualTo(before);
    }

    /** Every row, each value printed in the column's original type, in key order. */
    private static List<String> rows(Path file, String table) throws SQLException {
        String[] cols = {
            "CAST(id AS BIGINT)",
            "CAST(quantity AS BIGINT)",
            "CAST(price AS DOUBLE)",
            "strftime(CAST(placed AS TIMESTAMP), '%Y-%m-%d %H:%M:%S')",
            "CAST(day AS VARCHAR)",
            "CAST(code AS VARCHAR)",
            "CAST(status AS VARCHAR)",
            "note"
        };
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + file);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT concat_ws('|', " + String.join(", ", cols) + ") FROM " + table + " ORDER BY id")) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    /**
     * What a value check cannot see, on MySQL: a key whose other side stays, a counter past the
     * largest id, ON UPDATE on a date, a signed column, ENUM members a collation merges, FLOAT's
     * printing.
     */
    @Test
    void mysqlChangesThatWouldBreakTheSchemaOrItsArithmeticAreLeftOut(@TempDir Path dir) throws Exception {
        StringBuilder sql = new StringBuilder("""
                CREATE TABLE `genre` (`id` int NOT NULL AUTO_INCREMENT, `name` varchar(20) NOT NULL, PRIMARY KEY (`id`))
                  ENGINE=InnoDB AUTO_INCREMENT=5000 DEFAULT CHARSET=utf8mb4;
                CREATE TABLE `parent` (`pid` int NOT NULL, PRIMARY KEY (`pid`)) ENGINE=InnoDB;
                CREATE TABLE `child` (`cid` int NOT NULL, `parent_ref` int NOT NULL, PRIMARY KEY (`cid`),
                  CONSTRAINT `child_fk` FOREIGN KEY (`parent_ref`) REFERENCES `parent` (`pid`)) ENGINE=InnoDB;
                CREATE TABLE `item` (`id` int NOT NULL, `score` int NOT NULL,
                  `touched` datetime NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP,
                  `word` varchar(10) NOT NULL, `ratio` double NOT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB;
                """);
        for (int i = 1; i <= 30; i++) {
            sql.append(String.format("INSERT INTO `genre` VALUES (%d,'g%d');%n", i, i));
            sql.append(String.format("INSERT INTO `parent` VALUES (%d);%n", i));
            sql.append(String.format(
                    "INSERT INTO `item` VALUES (%d,%d,'2020-01-%02d 00:00:00','%s',%s);%n",
                    i, i * 3, 1 + i % 28, i % 2 == 0 ? "resume" : "r\u00e9sum\u00e9", i % 2 == 0 ? "0.5" : "0.25"));
        }
        Path dump = dir.resolve("shop.sql");
        Files.writeString(dump, sql);
        // 30 rows: the evidence threshold and the key floor lowered, so there are changes to refuse.
        Cli.Result r = tune(dump.toString(), "--min-rows", "0", "--key-floor", "2");
        assertThat(r.exitCode()).as(r.err()).isZero();
        // the left-out list is a comment re-flowed to the width: its lines are read joined
        assertThat(r.out().replaceAll("\n--   ", " "))
                // the counter hands out 5000 next, not 31: x10 room needs a MEDIUMINT, not a SMALLINT
                .contains("MODIFY COLUMN `id` MEDIUMINT NOT NULL AUTO_INCREMENT")
                // a key and the column referring to it change together, even where that table has no rows
                .contains("MODIFY COLUMN `pid` SMALLINT NOT NULL", "MODIFY COLUMN `parent_ref` SMALLINT NOT NULL")
                .contains("item.touched datetime -> DATE: its ON UPDATE clause needs a DATETIME or TIMESTAMP")
                .contains("item.word varchar(10) -> ENUM(", "differ only in accents or case")
                .contains("item.ratio double -> FLOAT: MySQL prints a FLOAT rounded to 6 significant digits")
                // 3..90 with room to grow fits TINYINT UNSIGNED, but a signed column stays signed
                .contains("MODIFY COLUMN `score` SMALLINT NOT NULL")
                .doesNotContain("MODIFY COLUMN `touched`", "UNSIGNED");
    }

    @Test
    void sqliteSourcesAndAnotherDialectAreRefusedWithAReason(@TempDir Path dir) throws Exception {
        SyntheticDump.writeSqliteFile(dir.resolve("shop.sqlite"), 100, 1);
        SyntheticDump.writePgDump(dir.resolve("shop-pg.sql"), 100, 1);
        Cli.Result sqlite = tune(dir.resolve("shop.sqlite").toString());
        assertThat(sqlite.exitCode()).isEqualTo(2);
        assertThat(sqlite.err()).contains("SQLite has no ALTER COLUMN").doesNotContain("\tat ");

        Cli.Result other = tune(dir.resolve("shop-pg.sql").toString(), "--dialect", "mysql");
        assertThat(other.exitCode()).isEqualTo(2);
        assertThat(other.err()).contains("reads as PostgreSQL").contains("--dialect postgresql");

        Cli.Result bogus = tune(dir.resolve("shop-pg.sql").toString(), "--dialect", "oracle");
        assertThat(bogus.exitCode()).isEqualTo(2);
        assertThat(bogus.err()).contains("expected mysql, postgresql or duckdb");

        Cli.Result missing = tune(dir.resolve("nothing.sql").toString());
        assertThat(missing.exitCode()).isEqualTo(2);
    }

    static JsonNode change(JsonNode report, String table, String column) {
        JsonNode t = StreamSupport.stream(report.get("tables").spliterator(), false)
                .filter(n -> n.get("name").asText().equalsIgnoreCase(table))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no table " + table + " in " + report));
        return StreamSupport.stream(t.get("changes").spliterator(), false)
                .filter(n -> n.get("column").asText().equalsIgnoreCase(column))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no change for " + table + "." + column));
    }
}
