package dev.wastecheck.tune;

import static dev.wastecheck.analyzer.check.LiveDataGuard.mysqlName;

import dev.wastecheck.analyzer.check.Conversion;
import dev.wastecheck.analyzer.check.LiveDataGuard;
import dev.wastecheck.analyzer.check.MysqlClauses;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.sources.sql.IsoTimestamps;
import dev.wastecheck.tune.SqlScript.Role;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.BiFunction;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * A MySQL/MariaDB migration, and its rollback. MySQL commits each ALTER TABLE as it runs, so
 * the script cannot take back half a migration: everything that could stop it is checked before
 * the first change, and the rollback script puts the declared types back.
 *
 * <ol>
 *   <li>The session is set as the script needs it, whatever the client's: {@code sql_mode}
 *       strict (a value that does not fit is an error, not a warning and a cut value), backslash
 *       escapes on (the dump's literals), NO_AUTO_VALUE_ON_ZERO (a table copy keeps an id of 0),
 *       utf8mb4; foreign key checks off (re-created keys are not re-validated row by row).</li>
 *   <li>The guard: every changed table scanned once for live values the new type would not hold
 *       as they are, each auto-increment counter against the new range, and the foreign keys
 *       over changed columns against the dump's (one missing, or one the dump does not declare,
 *       would stop the script halfway). Whatever it finds, one statement fails with all of it
 *       and the script stops with nothing changed.</li>
 *   <li>The foreign keys over changed columns, on either side, are dropped: MariaDB refuses to
 *       change a column a key uses (ERROR 1833) even with foreign key checks off. Both sides
 *       of each key change together (tune sized them together), and the keys are re-created
 *       as the dump declared them.</li>
 * </ol>
 */
final class MysqlMigration {
    /** The session a migration runs in: strict, and reading literals as mysqldump wrote them. */
    static final String SQL_MODE =
            "STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_AUTO_VALUE_ON_ZERO,NO_ENGINE_SUBSTITUTION";

    private MysqlMigration() {}

    /** A foreign key as the live database names it. */
    record Key(DdlCatalog.ForeignKey fk, String name) {
        /**
         * The key as declared, less any {@code ON ... RESTRICT}: RESTRICT is InnoDB's default, and
         * MariaDB 11.4 records an explicit one as NO ACTION when the key is added with foreign key
         * checks off (seen on the server: the same words give RESTRICT in CREATE TABLE).
         */
        String definition() {
            String actions = fk.actions()
                    .replaceAll("ON (DELETE|UPDATE) RESTRICT\\s*", "")
                    .strip();
            return "CONSTRAINT " + mysqlName(name) + " FOREIGN KEY (" + names(fk.columns()) + ") REFERENCES "
                    + mysqlName(fk.refTable()) + " (" + names(fk.refColumns()) + ")"
                    + (actions.isEmpty() ? "" : " " + actions);
        }
    }

    private static String names(List<String> cols) {
        return cols.stream().map(LiveDataGuard::mysqlName).collect(Collectors.joining(", "));
    }

    private static String key(String table, String column) {
        return (table + "." + column).toLowerCase(Locale.ROOT);
    }

    /** The changed columns, as lower-case {@code table.column}. */
    private static Set<String> changed(Tuner.Result r) {
        Set<String> out = new LinkedHashSet<>();
        for (Tuner.TableResult t : r.tables()) {
            t.applied()
                    .forEach(c -> out.add(key(t.name(), c.conversion().column().name())));
        }
        return out;
    }

    /**
     * The declared foreign keys with a changed column on either side, named as MySQL and MariaDB
     * name them: the dump's name, or {@code table_ibfk_N} for the table's N-th unnamed key.
     */
    static List<Key> keysOverChanges(Tuner.Result r) {
        Set<String> changed = changed(r);
        Map<String, Integer> unnamed = new HashMap<>();
        List<Key> out = new ArrayList<>();
        for (DdlCatalog.ForeignKey fk : r.foreignKeys()) {
            String name = fk.name() != null
                    ? fk.name()
                    : fk.table() + "_ibfk_" + unnamed.merge(fk.table().toLowerCase(Locale.ROOT), 1, Integer::sum);
            boolean touches = fk.columns().stream().anyMatch(c -> changed.contains(key(fk.table(), c)))
                    || fk.refColumns().stream().anyMatch(c -> changed.contains(key(fk.refTable(), c)));
            if (touches && !fk.refColumns().isEmpty()) {
                out.add(new Key(fk, name));
            }
        }
        return out;
    }

    private static void setup(SqlScript s) {
        s.statement(
                Role.SETUP,
                "SET @wastecheck_sql_mode = @@SESSION.sql_mode, @wastecheck_fk = @@SESSION.foreign_key_checks,"
                        + " @wastecheck_cs_client = @@SESSION.character_set_client, @wastecheck_cs_results = @@SESSION.character_set_results,"
                        + " @wastecheck_collation = @@SESSION.collation_connection;");
        s.statement(Role.SETUP, "SET NAMES utf8mb4;");
        s.statement(Role.SETUP, "SET SESSION sql_mode = '" + SQL_MODE + "';");
        s.statement(Role.SETUP, "SET SESSION foreign_key_checks = 0;");
    }

    private static void restore(SqlScript s) {
        s.statement(
                Role.RESTORE,
                "SET SESSION foreign_key_checks = @wastecheck_fk, SESSION sql_mode = @wastecheck_sql_mode,"
                        + " character_set_client = @wastecheck_cs_client, character_set_results = @wastecheck_cs_results,"
                        + " collation_connection = @wastecheck_collation;");
    }

    /** The statement that fails, with what the guard found, when it found anything; the client stops there. */
    private static void stopIfFound(SqlScript s) {
        // Said plainly first: the client prints this row before the error below, which is only the
        // means of stopping (ERROR 1366 ... for column wastecheck_guard.nothing_was_changed).
        s.statement(
                Role.GUARD,
                "SELECT CONCAT('wastecheck: the live database no longer fits this migration, so it stops here and"
                        + " nothing was changed (the ERROR 1366 that follows is how it stops): ', @wastecheck_stop)"
                        + " AS wastecheck_guard FROM DUAL WHERE @wastecheck_stop IS NOT NULL;");
        // MySQL has no SIGNAL outside stored programs: a strict-mode INSERT of the finding's text into
        // an integer column fails, and its error message carries the text.
        s.statement(Role.GUARD, "CREATE TEMPORARY TABLE wastecheck_guard (nothing_was_changed INT NOT NULL);");
        s.statement(
                Role.GUARD,
                "INSERT INTO wastecheck_guard SELECT CONCAT('wastecheck: the live database no longer fits this migration: ',"
                        + " @wastecheck_stop) FROM DUAL WHERE @wastecheck_stop IS NOT NULL;");
        s.statement(Role.GUARD, "DROP TEMPORARY TABLE wastecheck_guard;");
    }

    /** {@code -- ...} lines: how to run it, what it does first. */
    private static void preface(SqlScript s, boolean rollback) {
        s.comment("Run it as `mysql DATABASE < " + (rollback ? "migration.rollback.sql" : "migration.sql")
                + "` (the client stops at the first error) or `wastecheck tune --apply JDBC_URL`.");
        s.comment(
                "It sets its own session (strict sql_mode, utf8mb4, foreign key checks off) and puts the client's back at the end.");
        s.comment(
                "MODIFY COLUMN restates NULL, DEFAULT, AUTO_INCREMENT, ON UPDATE, CHARACTER SET, COLLATE and COMMENT as the dump");
        s.comment("declared them; check them against your live schema.");
        if (!rollback) {
            s.comment(
                    "MySQL commits each ALTER TABLE as it runs: everything that could stop the script halfway is checked first,");
            s.comment("and migration.rollback.sql (written beside it with -o) puts the declared types back.");
        }
    }

    static void forward(Tuner.Result r, SqlScript s) {
        preface(s, false);
        setup(s);
        List<Key> keys = keysOverChanges(r);
        lock(r, keys, s);
        s.blank();
        s.comment(
                "Guard: tune checked the dump's rows, but the database has taken rows since. A live value the new type would");
        s.comment(
                "not hold as it is (beyond its range, a fraction under its scale, text it does not read back, no member of the");
        s.comment(
                "new ENUM, longer than the new length), a counter beyond the new range, or foreign keys other than the dump's");
        s.comment("on changed columns stop the script here, before any change.");
        s.statement(Role.GUARD, "SET @wastecheck_stop = NULL;");
        scan(r, s, (table, v) -> {
            String col = mysqlName(v.column().name());
            String bad = LiveDataGuard.mysql(v, col);
            return bad == null
                    ? null
                    : "IF(SUM(" + bad + ") > 0, CONCAT("
                            + LiveDataGuard.mysqlLiteral(
                                    table + "." + v.column().name() + ": ")
                            + ", SUM(" + bad + "), ' rows do not fit "
                            + LiveDataGuard.typeName(v).replace("\\", "\\\\").replace("'", "''")
                            + ", first ', LEFT(MIN(IF(" + bad + ", CAST(" + col + " AS CHAR), NULL)), 40)), NULL)";
        });
        counters(r, s);
        foreignKeyGuard(r, keys, s);
        stopIfFound(s);
        dropKeys(keys, s);
        for (Tuner.TableResult t : r.tables()) {
            List<Tuner.Checked> changes = t.applied();
            if (changes.isEmpty()) {
                continue;
            }
            s.blank();
            s.comment(Migration.tableLine(r, t));
            for (Tuner.Checked c : changes) {
                String iso = isoTimestamp(c.conversion());
                if (iso != null) {
                    // MariaDB reads no offset in a DATETIME literal: cut it (the same on every value, checked
                    // above), and the T, so that MODIFY reads the rest
                    String col = mysqlName(c.conversion().column().name());
                    int keep =
                            IsoTimestamps.width(iso) - IsoTimestamps.offset(iso).length();
                    s.statement(
                            Role.CHANGE,
                            "UPDATE " + mysqlName(t.name()) + " SET " + col + " = REPLACE(LEFT(" + col + ", " + keep
                                    + "), 'T', ' ') WHERE " + col + " IS NOT NULL;");
                }
            }
            modify(
                    s,
                    t.name(),
                    changes,
                    c -> c.conversion().target() + " "
                            + MysqlClauses.restated(c.conversion().column(), c.conversion(), c.defaultValue()),
                    Migration::note);
        }
        addKeys(keys, s);
        s.blank();
        s.statement(Role.RESTORE, "UNLOCK TABLES;");
        restore(s);
    }

    /**
     * The changed tables and the tables their foreign keys join, locked for writing from before
     * the guard until the last change: no row can be written between the check and the ALTER
     * that relies on it. (ALTER TABLE and ADD FOREIGN KEY run under LOCK TABLES on the tables
     * they name; a key's referenced table must be locked too.)
     */
    private static void lock(Tuner.Result r, List<Key> keys, SqlScript s) {
        Set<String> tables = new LinkedHashSet<>();
        for (Tuner.TableResult t : r.tables()) {
            if (!t.applied().isEmpty()) {
                tables.add(t.name());
            }
        }
        for (Key k : keys) {
            tables.add(k.fk().table());
            tables.add(k.fk().refTable());
        }
        if (tables.isEmpty()) {
            return;
        }
        s.blank();
        s.comment(
                "Writes to these tables wait from the guard to the last change, so the guard's check still holds when each ALTER runs.");
        s.statement(
                Role.SETUP,
                "LOCK TABLES "
                        + tables.stream().map(t -> mysqlName(t) + " WRITE").collect(Collectors.joining(", ")) + ";");
    }

    /**
     * One SELECT per changed table, a single scan, adding what its rows show to
     * {@code @wastecheck_stop}; {@code finding} gives a changed column's {@code IF(...)} message
     * expression, or null when the column needs no check.
     */
    private static void scan(Tuner.Result r, SqlScript s, BiFunction<String, Conversion, String> finding) {
        for (Tuner.TableResult t : r.tables()) {
            List<String> found = new ArrayList<>();
            for (Tuner.Checked c : t.applied()) {
                String f = finding.apply(t.name(), c.conversion());
                if (f != null) {
                    found.add(f);
                }
            }
            if (!found.isEmpty()) {
                s.statement(
                        Role.GUARD,
                        "SELECT NULLIF(CONCAT_WS('; ', @wastecheck_stop,\n    " + String.join(",\n    ", found)
                                + "), '')\n  INTO @wastecheck_stop FROM " + mysqlName(t.name()) + ";");
            }
        }
    }

    /** Each changed auto-increment column's counter must lie inside the new type: the next insert takes it. */
    private static void counters(Tuner.Result r, SqlScript s) {
        for (Tuner.TableResult t : r.tables()) {
            for (Tuner.Checked c : t.applied()) {
                Conversion v = c.conversion();
                BigInteger[] range = LiveDataGuard.integerRange(v, Dialect.MYSQL);
                if (range == null || !v.column().autoIncrement()) {
                    continue;
                }
                s.statement(
                        Role.GUARD,
                        "SELECT NULLIF(CONCAT_WS('; ', @wastecheck_stop, IF(MAX(AUTO_INCREMENT) > " + range[1]
                                + ", CONCAT("
                                + LiveDataGuard.mysqlLiteral(
                                        t.name() + "." + v.column().name() + ": its AUTO_INCREMENT counter is at ")
                                + ", MAX(AUTO_INCREMENT), ', beyond " + range[1]
                                + "'), NULL)), '')\n  INTO @wastecheck_stop FROM information_schema.TABLES"
                                + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = "
                                + LiveDataGuard.mysqlLiteral(t.name()) + ";");
            }
        }
    }

    /**
     * The live foreign keys on changed columns must be the dump's: the script drops those by name
     * (a missing one would stop it after some were dropped), and any other would make the first
     * MODIFY of its column fail after other tables had changed.
     */
    private static void foreignKeyGuard(Tuner.Result r, List<Key> keys, SqlScript s) {
        Set<String> changed = changed(r);
        if (changed.isEmpty()) {
            return;
        }
        String columns = changedPairs(r);
        String dropped = keys.stream()
                .map(k -> "(" + LiveDataGuard.mysqlLiteral(k.fk().table()) + ", " + LiveDataGuard.mysqlLiteral(k.name())
                        + ")")
                .collect(Collectors.joining(", "));
        if (!keys.isEmpty()) {
            s.statement(
                    Role.GUARD,
                    "SELECT NULLIF(CONCAT_WS('; ', @wastecheck_stop, IF(COUNT(*) < " + keys.size() + ", CONCAT('of the "
                            + keys.size()
                            + " foreign keys this script drops and re-creates, the database has ', COUNT(*),"
                            + " ' ("
                            + keys.stream()
                                    .map(Key::name)
                                    .collect(Collectors.joining(", "))
                                    .replace("'", "''") + ")'), NULL)), '')\n"
                            + "  INTO @wastecheck_stop FROM information_schema.REFERENTIAL_CONSTRAINTS\n"
                            + "  WHERE CONSTRAINT_SCHEMA = DATABASE() AND (TABLE_NAME, CONSTRAINT_NAME) IN (" + dropped
                            + ");");
        }
        s.statement(
                Role.GUARD,
                "SELECT NULLIF(CONCAT_WS('; ', @wastecheck_stop, IF(COUNT(*) > 0, CONCAT('foreign keys on changed columns that the"
                        + " dump does not declare: ', GROUP_CONCAT(DISTINCT CONCAT(TABLE_NAME, '.', CONSTRAINT_NAME))), NULL)), '')\n"
                        + "  INTO @wastecheck_stop FROM information_schema.KEY_COLUMN_USAGE\n"
                        + "  WHERE TABLE_SCHEMA = DATABASE() AND REFERENCED_TABLE_NAME IS NOT NULL\n"
                        + "    AND ((TABLE_NAME, COLUMN_NAME) IN (" + columns
                        + ") OR (REFERENCED_TABLE_NAME, REFERENCED_COLUMN_NAME) IN (" + columns + "))"
                        + (keys.isEmpty() ? "" : "\n    AND (TABLE_NAME, CONSTRAINT_NAME) NOT IN (" + dropped + ")")
                        + ";");
    }

    private static String changedPairs(Tuner.Result r) {
        List<String> out = new ArrayList<>();
        for (Tuner.TableResult t : r.tables()) {
            for (Tuner.Checked c : t.applied()) {
                out.add("(" + LiveDataGuard.mysqlLiteral(t.name()) + ", "
                        + LiveDataGuard.mysqlLiteral(c.conversion().column().name()) + ")");
            }
        }
        return String.join(", ", out);
    }

    private static Map<String, List<Key>> byTable(List<Key> keys) {
        Map<String, List<Key>> out = new LinkedHashMap<>();
        keys.forEach(
                k -> out.computeIfAbsent(k.fk().table(), x -> new ArrayList<>()).add(k));
        return out;
    }

    private static void dropKeys(List<Key> keys, SqlScript s) {
        if (keys.isEmpty()) {
            return;
        }
        s.blank();
        s.comment(
                "The foreign keys over changed columns, dropped while their columns change (MariaDB will not change a column");
        s.comment("a key uses, ERROR 1833) and re-created after, as the dump declared them.");
        byTable(keys)
                .forEach((table, ks) -> s.statement(
                        Role.CHANGE,
                        "ALTER TABLE " + mysqlName(table) + " "
                                + ks.stream()
                                        .map(k -> "DROP FOREIGN KEY " + mysqlName(k.name()))
                                        .collect(Collectors.joining(", "))
                                + ";"));
    }

    private static void addKeys(List<Key> keys, SqlScript s) {
        if (keys.isEmpty()) {
            return;
        }
        s.blank();
        s.comment(
                "The foreign keys, re-created as the dump declared them (with foreign key checks off: the rows were not changed).");
        byTable(keys)
                .forEach((table, ks) -> s.statement(
                        Role.CHANGE,
                        "ALTER TABLE " + mysqlName(table) + "\n  "
                                + ks.stream().map(k -> "ADD " + k.definition()).collect(Collectors.joining(",\n  "))
                                + ";"));
    }

    /**
     * The rollback: the declared types back, the same keys dropped around it. Widening loses no
     * value, but a number or date going back into a short string column can be too long for it:
     * the guard checks that first.
     */
    static SqlScript rollback(Tuner.Result r) {
        SqlScript s = new SqlScript();
        s.comment("wastecheck tune: the rollback of the migration for "
                + r.dialect().label() + ", from " + String.join(", ", r.sources()));
        s.comment("It puts back the types the dump declared, for the columns the migration changed.");
        preface(s, true);
        setup(s);
        List<Key> keys = keysOverChanges(r);
        lock(r, keys, s);
        s.blank();
        s.comment(
                "Guard: a value written since the migration that the declared type would not hold stops the script here.");
        s.statement(Role.GUARD, "SET @wastecheck_stop = NULL;");
        scan(r, s, (table, v) -> {
            ColumnDef col = v.column();
            int length = col.type().length();
            boolean toShortString = col.type().family().isString()
                    && length > 0
                    && col.type().family() != TypeFamily.TEXT
                    && v.kind() != FindingKind.STRING_HOLDS_TIMESTAMP;
            String bad = "CHAR_LENGTH(CAST(" + mysqlName(col.name()) + " AS CHAR)) > " + length;
            return !toShortString
                    ? null
                    : "IF(SUM(" + bad + ") > 0, CONCAT(" + LiveDataGuard.mysqlLiteral(table + "." + col.name() + ": ")
                            + ", SUM(" + bad + "), ' values longer than " + length + " characters'), NULL)";
        });
        stopIfFound(s);
        dropKeys(keys, s);
        for (Tuner.TableResult t : r.tables()) {
            List<Tuner.Checked> changes = t.applied();
            if (changes.isEmpty()) {
                continue;
            }
            s.blank();
            s.comment(t.name());
            for (Tuner.Checked c : changes) {
                Conversion v = c.conversion();
                String iso = isoTimestamp(v);
                if (iso != null) {
                    // A DATETIME prints as 'YYYY-MM-DD HH:MM:SS[.ffffff]'; the ISO text comes back through DATE_FORMAT.
                    String col = mysqlName(v.column().name());
                    s.statement(
                            Role.CHANGE,
                            "ALTER TABLE " + mysqlName(t.name()) + " MODIFY COLUMN " + col + " VARCHAR("
                                    + Math.max(26, IsoTimestamps.width(iso)) + ") "
                                    + (v.column().nullable() ? "NULL" : "NOT NULL") + ";");
                    s.statement(
                            Role.CHANGE,
                            "UPDATE " + mysqlName(t.name()) + " SET " + col + " = DATE_FORMAT(" + col + ", '"
                                    + IsoTimestamps.mysqlFormat(iso) + "') WHERE " + col + " IS NOT NULL;");
                }
                if (compactTimestamp(v)) {
                    // A DATETIME prints as 'YYYY-MM-DD HH:MM:SS'; the dump's 14-digit text comes back through
                    // DATE_FORMAT.
                    String col = mysqlName(v.column().name());
                    s.statement(
                            Role.CHANGE,
                            "ALTER TABLE " + mysqlName(t.name()) + " MODIFY COLUMN " + col + " VARCHAR(19) "
                                    + (v.column().nullable() ? "NULL" : "NOT NULL") + ";");
                    s.statement(
                            Role.CHANGE,
                            "UPDATE " + mysqlName(t.name()) + " SET " + col + " = DATE_FORMAT(" + col
                                    + ", '%Y%m%d%H%i%s') WHERE " + col + " IS NOT NULL;");
                }
            }
            modify(
                    s,
                    t.name(),
                    changes,
                    c -> c.conversion().column().type().declared() + " "
                            + MysqlClauses.restatedAsDeclared(c.conversion().column()),
                    c -> " -- from " + c.conversion().target());
        }
        addKeys(keys, s);
        s.blank();
        s.statement(Role.RESTORE, "UNLOCK TABLES;");
        restore(s);
        return s;
    }

    /**
     * One ALTER TABLE for a table's changes (InnoDB rebuilds a table once per ALTER): a MODIFY
     * COLUMN per change with the column's new definition, each with its comment.
     */
    private static void modify(
            SqlScript s,
            String table,
            List<Tuner.Checked> changes,
            Function<Tuner.Checked, String> definition,
            Function<Tuner.Checked, String> note) {
        StringBuilder sql = new StringBuilder("ALTER TABLE " + mysqlName(table));
        for (int i = 0; i < changes.size(); i++) {
            Tuner.Checked c = changes.get(i);
            sql.append("\n  MODIFY COLUMN ")
                    .append(mysqlName(c.conversion().column().name()))
                    .append(' ')
                    .append(definition.apply(c));
            if (i + 1 < changes.size()) {
                sql.append(",").append(note.apply(c));
            }
        }
        s.columnChange(sql.toString(), note.apply(changes.get(changes.size() - 1)), changes.size());
    }

    /** The DuckDB format of an ISO-8601 text turned into a DATETIME, or null. */
    private static String isoTimestamp(Conversion v) {
        if (v.kind() != FindingKind.STRING_HOLDS_TIMESTAMP) {
            return null;
        }
        String key = v.tunedKey();
        int at = key.indexOf("strftime(");
        if (at < 0) {
            return null;
        }
        int q = key.indexOf('\'', at);
        String format = key.substring(q + 1, key.indexOf('\'', q + 1));
        return format.equals("%Y-%m-%d %H:%M:%S") || format.equals("%Y%m%d%H%M%S") ? null : format;
    }

    /** A string of 14 digits (YYYYMMDDHHMMSS) turned into a DATETIME. */
    private static boolean compactTimestamp(Conversion v) {
        return v.kind() == FindingKind.STRING_HOLDS_TIMESTAMP && v.tunedKey().contains("%Y%m%d%H%M%S");
    }
}
