package dev.wastecheck.tune;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.LiveSource;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code tune --apply JDBC_URL}: runs the migration's own statements, the very ones it prints,
 * one by one on the live database, and stops at the first that fails, as {@code mysql} and
 * {@code psql -v ON_ERROR_STOP=1} would. The guards run first, so a database that no longer
 * fits stops the migration with nothing changed.
 */
public final class MigrationRunner {
    private MigrationRunner() {}

    /**
     * What running the script did.
     *
     * @param executed statements that ran
     * @param kept     the {@link SqlScript.Role#CHANGE} statements that ran and stay applied: on MySQL
     *                 every one (it commits each ALTER TABLE and UPDATE as it runs); inside a
     *                 {@code BEGIN ... COMMIT} only once the COMMIT ran, so none of a PostgreSQL
     *                 migration that stopped halfway
     * @param failed   the statement that failed, or null when all ran
     * @param error    the database's message for it
     * @param notRun   the statements after the failed one, which did not run
     */
    public record Outcome(
            int executed,
            List<SqlScript.Statement> kept,
            SqlScript.Statement failed,
            String error,
            List<SqlScript.Statement> notRun) {
        public boolean succeeded() {
            return failed == null;
        }

        /** A guard stopped it, before any change. */
        public boolean stoppedByGuard() {
            return failed != null && failed.role() == SqlScript.Role.GUARD;
        }

        /** The column changes of the kept statements: the summary's count when all ran. */
        public int changesApplied() {
            return kept.stream().mapToInt(SqlScript.Statement::columns).sum();
        }
    }

    /** The dialect a JDBC URL's database speaks, or a bad-input error for one tune cannot apply to. */
    public static Dialect dialectOf(String url) {
        String lower = url.toLowerCase(Locale.ROOT);
        if (lower.startsWith("jdbc:mariadb:") || lower.startsWith("jdbc:mysql:")) {
            return Dialect.MYSQL;
        }
        if (lower.startsWith("jdbc:postgresql:")) {
            return Dialect.POSTGRESQL;
        }
        throw new BadInputException(
                "--apply " + url + ": expected a jdbc:mariadb:, jdbc:mysql: or jdbc:postgresql: URL "
                        + "(user and password as its parameters, e.g. jdbc:mariadb://host/db?user=u&password=p)");
    }

    /**
     * Runs {@code script} on the database at {@code url}.
     *
     * @throws BadInputException when the URL names another engine than the migration's, or the connection fails
     */
    public static Outcome apply(SqlScript script, Dialect dialect, String url) {
        Dialect target = dialectOf(url);
        if (target != dialect) {
            throw new BadInputException("--apply " + redacted(url) + ": the migration is for " + dialect.label()
                    + ", the URL names " + target.label());
        }
        // MariaDB's driver takes jdbc:mysql: only when told to; the protocol is the same.
        String jdbc = url.toLowerCase(Locale.ROOT).startsWith("jdbc:mysql:")
                ? "jdbc:mariadb:" + url.substring("jdbc:mysql:".length())
                : url;
        Connection c;
        try {
            c = DriverManager.getConnection(jdbc);
        } catch (SQLException e) {
            throw new BadInputException("--apply " + redacted(url) + ": cannot connect: " + e.getMessage());
        }
        List<SqlScript.Statement> statements = script.statements();
        List<SqlScript.Statement> kept = new ArrayList<>();
        List<SqlScript.Statement> uncommitted = new ArrayList<>();
        boolean inTransaction = false;
        int executed = 0;
        try (c) {
            c.setAutoCommit(true); // the script holds its own BEGIN and COMMIT where the engine has transactional DDL
            for (SqlScript.Statement s : statements) {
                try (Statement st = c.createStatement()) {
                    st.execute(s.sql());
                } catch (SQLException e) {
                    if (inTransaction) {
                        rollbackQuietly(c);
                    }
                    return new Outcome(
                            executed, kept, s, e.getMessage(), statements.subList(executed + 1, statements.size()));
                }
                executed++;
                String word = s.sql().strip().toUpperCase(Locale.ROOT);
                if (s.role() == SqlScript.Role.SETUP
                        && (word.equals("BEGIN") || word.startsWith("BEGIN TRANSACTION"))) {
                    inTransaction = true;
                } else if (s.role() == SqlScript.Role.RESTORE && word.equals("COMMIT")) {
                    inTransaction = false;
                    kept.addAll(uncommitted);
                    uncommitted.clear();
                } else if (s.role() == SqlScript.Role.CHANGE) {
                    (inTransaction ? uncommitted : kept).add(s);
                }
            }
        } catch (SQLException e) {
            throw new BadInputException("--apply " + redacted(url) + ": " + e.getMessage());
        }
        return new Outcome(executed, kept, null, null, List.of());
    }

    /**
     * The live type of each column, as the server spells it ({@code format_type} on PostgreSQL,
     * {@code COLUMN_TYPE} on MySQL), keyed by lower-case {@code table.column}; a column the
     * database does not have is absent.
     *
     * @param columns each {table, schema or null, column}
     */
    public static Map<String, String> liveTypes(String url, Dialect dialect, List<String[]> columns) {
        String jdbc = url.toLowerCase(Locale.ROOT).startsWith("jdbc:mysql:")
                ? "jdbc:mariadb:" + url.substring("jdbc:mysql:".length())
                : url;
        Map<String, String> out = new HashMap<>();
        String sql = dialect == Dialect.POSTGRESQL
                ? "SELECT format_type(a.atttypid, a.atttypmod) FROM pg_attribute a"
                        + " WHERE a.attrelid = to_regclass(?) AND a.attname = ? AND NOT a.attisdropped"
                : "SELECT COLUMN_TYPE FROM information_schema.COLUMNS"
                        + " WHERE TABLE_SCHEMA = DATABASE() AND TABLE_NAME = ? AND COLUMN_NAME = ?";
        try (Connection c = DriverManager.getConnection(jdbc);
                PreparedStatement ps = c.prepareStatement(sql)) {
            for (String[] col : columns) {
                ps.setString(1, dialect == Dialect.POSTGRESQL ? Migration.pgTable(col[0], col[1]) : col[0]);
                ps.setString(2, col[2]);
                try (ResultSet rs = ps.executeQuery()) {
                    if (rs.next() && rs.getString(1) != null) {
                        out.put((col[0] + "." + col[2]).toLowerCase(Locale.ROOT), rs.getString(1));
                    }
                }
            }
        } catch (SQLException e) {
            throw new BadInputException("--apply " + redacted(url) + ": cannot connect: " + e.getMessage());
        }
        return out;
    }

    private static void rollbackQuietly(Connection c) {
        try (Statement st = c.createStatement()) {
            st.execute("ROLLBACK");
        } catch (SQLException e) {
            // the connection closes next, which ends the transaction the same way
        }
    }

    /** The URL without its password, for messages. */
    static String redacted(String url) {
        return LiveSource.redacted(url);
    }
}
