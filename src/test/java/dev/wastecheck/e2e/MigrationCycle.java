package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A migration's whole life on a real server, as a DBA would live it: the dump loaded, {@code tune}
 * run on the dump, its migration applied to the server, every value read back and compared with
 * what was there ({@link ServerValues}), the server's own size measured after it rebuilt the
 * tables (OPTIMIZE TABLE, VACUUM FULL) and held against tune's prediction, and on MySQL the
 * rollback applied and the schema compared with the dump's.
 */
final class MigrationCycle {
    /** Predicted and measured bytes of the tables the prediction covers, before and after. */
    record Sizes(long predictedBefore, long measuredBefore, long predictedAfter, long measuredAfter, String table) {
        double ratioBefore() {
            return (double) predictedBefore / measuredBefore;
        }

        double ratioAfter() {
            return (double) predictedAfter / measuredAfter;
        }
    }

    /** What a cycle found. */
    record Outcome(String migration, List<String> changed, Sizes sizes) {}

    private MigrationCycle() {}

    private static String[] with(String[] options, String... more) {
        List<String> a = new ArrayList<>(List.of(options));
        a.addAll(List.of(more));
        return a.toArray(new String[0]);
    }

    /** {@code tune -q OPTIONS... SOURCES...}. */
    static String[] tune(List<Path> sources, String... options) {
        List<String> a = new ArrayList<>(List.of("tune", "-q"));
        a.addAll(List.of(options));
        sources.forEach(s -> a.add(s.toString()));
        return a.toArray(new String[0]);
    }

    /**
     * MariaDB: the database {@code db} already holds the dump {@code sources} describe.
     *
     * @param tolerance how far the predicted size may be from the measured one, per dataset (0.10: 10%)
     */
    static Outcome mariadb(MariaDbServer server, String db, Path dir, List<Path> sources, double tolerance)
            throws Exception {
        return mariadb(server, db, dir, sources, tolerance, new String[0]);
    }

    /** As above, with {@code tuneOptions} given to both tune runs (e.g. {@code --representation all}). */
    static Outcome mariadb(
            MariaDbServer server, String db, Path dir, List<Path> sources, double tolerance, String... tuneOptions)
            throws Exception {
        Map<String, Long> sizeBefore;
        Map<String, ServerValues.Table> before;
        Map<String, String> schemaBefore;
        List<String> foreignKeysBefore;
        try (Connection c = server.connect(db)) {
            sizeBefore = ServerValues.innodbSizes(c);
            before = ServerValues.read(c, ServerValues.Engine.MARIADB);
            schemaBefore = ServerValues.mariaDbSchema(c);
            foreignKeysBefore = foreignKeys(c);
        }
        Cli.Result json = Cli.run(tune(sources, with(tuneOptions, "--format", "json")));
        assertThat(json.exitCode()).as(json.err()).isZero();
        Path migration = dir.resolve(db + "-migration.sql");
        Cli.Result sql = Cli.run(tune(sources, with(tuneOptions, "-o", migration.toString())));
        assertThat(sql.exitCode()).as(sql.err()).isZero();
        String script = Files.readString(migration);
        MariaDbServer.ClientRun run = server.source(db, null, migration);
        assertThat(run.exitCode())
                .as(db + ": mariadb < migration.sql\n" + run.err())
                .isZero();
        Map<String, ServerValues.Table> after;
        Map<String, Long> sizeAfter;
        try (Connection c = server.connect(db)) {
            after = ServerValues.read(c, ServerValues.Engine.MARIADB);
            sizeAfter = ServerValues.innodbSizes(c);
        }
        ServerValues.assertSameValues(before, after, db + " after the migration");
        try (Connection c = server.connect(db)) {
            assertThat(foreignKeys(c))
                    .as(db + ": the foreign keys, re-created as they were")
                    .isEqualTo(foreignKeysBefore);
        }
        List<String> changed = ServerValues.changedColumns(before, after);
        Sizes sizes = compare(
                db,
                "InnoDB data_length + index_length after OPTIMIZE TABLE",
                json.json().get("innodb"),
                sizeBefore,
                sizeAfter,
                tolerance);
        Path rollback = dir.resolve(db + "-migration.rollback.sql");
        if (!changed.isEmpty()) {
            assertThat(rollback).as("the rollback beside the migration").exists();
            MariaDbServer.ClientRun back = server.source(db, null, rollback);
            assertThat(back.exitCode())
                    .as(db + ": mariadb < migration.rollback.sql\n" + back.err())
                    .isZero();
            try (Connection c = server.connect(db)) {
                ServerValues.assertSameValues(
                        before, ServerValues.read(c, ServerValues.Engine.MARIADB), db + " after the rollback");
                Map<String, String> schemaBack = ServerValues.mariaDbSchema(c);
                for (Map.Entry<String, String> e : schemaBefore.entrySet()) {
                    assertThat(withoutCounter(schemaBack.get(e.getKey())))
                            .as(db + ": " + e.getKey() + " after the rollback")
                            .isEqualTo(withoutCounter(e.getValue()));
                }
            }
        }
        return new Outcome(script, changed, sizes);
    }

    /** MariaDB: each foreign key, its columns and its rules, as the server holds them. */
    static List<String> foreignKeys(Connection c) throws java.sql.SQLException {
        List<String> out = new ArrayList<>();
        try (java.sql.Statement st = c.createStatement();
                java.sql.ResultSet rs = st.executeQuery(
                        "SELECT k.TABLE_NAME, k.CONSTRAINT_NAME, GROUP_CONCAT(k.COLUMN_NAME ORDER BY k.ORDINAL_POSITION), k.REFERENCED_TABLE_NAME, "
                                + "GROUP_CONCAT(k.REFERENCED_COLUMN_NAME ORDER BY k.ORDINAL_POSITION), r.UPDATE_RULE, r.DELETE_RULE "
                                + "FROM information_schema.KEY_COLUMN_USAGE k JOIN information_schema.REFERENTIAL_CONSTRAINTS r "
                                + "ON r.CONSTRAINT_SCHEMA = k.TABLE_SCHEMA AND r.TABLE_NAME = k.TABLE_NAME AND r.CONSTRAINT_NAME = k.CONSTRAINT_NAME "
                                + "WHERE k.TABLE_SCHEMA = DATABASE() GROUP BY 1, 2, 4, 6, 7 ORDER BY 1, 2")) {
            while (rs.next()) {
                StringBuilder sb = new StringBuilder();
                for (int i = 1; i <= 7; i++) {
                    sb.append(i == 1 ? "" : " ").append(rs.getString(i));
                }
                out.add(sb.toString());
            }
        }
        return out;
    }

    /** SHOW CREATE TABLE without its AUTO_INCREMENT=N, which OPTIMIZE TABLE may recompute from the rows. */
    static String withoutCounter(String createTable) {
        return createTable == null ? null : createTable.replaceAll(" AUTO_INCREMENT=\\d+", "");
    }

    /**
     * The prediction against the server, over the tables both know: each table printed (the
     * calibration table of docs/analyze.md), the dataset's total asserted within {@code tolerance}.
     */
    static Sizes compare(
            String label,
            String measure,
            JsonNode predicted,
            Map<String, Long> before,
            Map<String, Long> after,
            double tolerance) {
        assertThat(predicted).as(label + ": tune's JSON has the estimate").isNotNull();
        long pb = 0;
        long mb = 0;
        long pa = 0;
        long ma = 0;
        Map<String, long[]> rows = new LinkedHashMap<>();
        for (JsonNode t : predicted.get("tables")) {
            String name = t.get("name").asText();
            Long b = lookup(before, name);
            Long a = lookup(after, name);
            if (b == null || a == null) {
                continue;
            }
            rows.put(name, new long[] {
                t.get("bytes_before").asLong(), b, t.get("bytes_after").asLong(), a
            });
            pb += t.get("bytes_before").asLong();
            mb += b;
            pa += t.get("bytes_after").asLong();
            ma += a;
        }
        StringBuilder table = new StringBuilder(String.format(
                Locale.ROOT,
                "%s: %s%n" + "| table | predicted before | measured before | predicted after | measured after |%n",
                label,
                measure));
        rows.forEach((n, v) -> table.append(
                String.format(Locale.ROOT, "| %s | %,d | %,d | %,d | %,d |%n", n, v[0], v[1], v[2], v[3])));
        table.append(String.format(
                Locale.ROOT,
                "| total | %,d | %,d | %,d | %,d |  predicted/measured %.3f before, %.3f after%n",
                pb,
                mb,
                pa,
                ma,
                (double) pb / mb,
                (double) pa / ma));
        System.out.print(table);
        assertThat(rows).as(label + ": tables with a prediction and a measure").isNotEmpty();
        assertThat((double) pb / mb)
                .as(label + ": predicted / measured before\n" + table)
                .isBetween(1 - tolerance, 1 + tolerance);
        assertThat((double) pa / ma)
                .as(label + ": predicted / measured after\n" + table)
                .isBetween(1 - tolerance, 1 + tolerance);
        return new Sizes(pb, mb, pa, ma, table.toString());
    }

    private static Long lookup(Map<String, Long> sizes, String name) {
        for (Map.Entry<String, Long> e : sizes.entrySet()) {
            if (e.getKey().equalsIgnoreCase(name)) {
                return e.getValue();
            }
        }
        return null;
    }
}
