package dev.wastecheck.sources.load;

import dev.wastecheck.model.Progress;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.DumpFormatException;
import dev.wastecheck.sources.LiveSource;
import dev.wastecheck.sources.sql.ProfileDialect;
import java.io.IOException;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A live PostgreSQL or MySQL/MariaDB database as a source: the schema from the server's own
 * catalog, the rows read over one read-only session.
 *
 * <p>The catalog is turned into the DDL the engine's own dump tool would write ({@code SHOW
 * CREATE TABLE} on MySQL and MariaDB; on PostgreSQL, what pg_dump writes: the table, its
 * constraints as {@code ALTER TABLE ... ADD CONSTRAINT}, other indexes, enum types, each serial or
 * identity column's sequence with its {@code setval}), read by the same {@link DdlCatalog} as a
 * dump, so keys, foreign keys and auto-increment counters mean what they mean for a dump of the
 * same database. The rows then stream into the profiling database table by table, in batches,
 * with the driver's cursor (never a whole table in memory).
 *
 * <p>The session is read-only (the server refuses any write), reads every table in one
 * repeatable-read transaction (one snapshot, so a key and its references agree), and each
 * statement has a time limit. Errors (a URL no server answers, a refused login, a table the user may not read) are
 * bad input naming the URL without its password.
 */
public final class LiveLoader {
    /**
     * Longest a single statement of ours may run on the user's server. PostgreSQL times each
     * fetch of a cursor apart, so it bounds every statement; MySQL and MariaDB time a query until
     * its last row is sent, so there it bounds the catalog queries and not the plain scans that
     * read a table's rows (a large table may take longer to send, and a scan cannot run away).
     */
    static final int STATEMENT_TIMEOUT_SECONDS = 3600;

    private static final int FETCH_ROWS = 10_000;

    private final ProfilingDatabase db;
    private final LoadStats stats;
    private final Map<String, LoadedTable> loaded;
    private double samplePercent = 100;
    private int sampleSeed;
    private boolean keepTransaction;
    /** Per table key: the relation its rows were read from, as the server names it. */
    private final Map<String, String> relations = new LinkedHashMap<>();

    public LiveLoader(ProfilingDatabase db, LoadStats stats, Map<String, LoadedTable> loaded) {
        this.db = db;
        this.stats = stats;
        this.loaded = loaded;
    }

    /**
     * Reads a {@code percent} random sample of each table's rows instead of all of them, drawn
     * row by row and reproducibly from {@code seed}: PostgreSQL's {@code TABLESAMPLE BERNOULLI}
     * with {@code REPEATABLE}, MySQL's and MariaDB's {@code RAND(seed)}. The server still reads
     * every page (a block sample would skew small tables); what is saved is the transfer and the
     * local load.
     */
    public LiveLoader sample(double percent, int seed) {
        if (!(percent > 0 && percent <= 100)) throw new IllegalArgumentException("sample percent " + percent);
        this.samplePercent = percent;
        this.sampleSeed = seed;
        return this;
    }

    /** Leaves the read-only transaction open after loading, so that later checks see the same snapshot. */
    public LiveLoader keepTransaction() {
        this.keepTransaction = true;
        return this;
    }

    /** The relation each table's rows came from (keyed by {@link TableDef#key()}), for queries on the server. */
    public Map<String, String> relations() {
        return Collections.unmodifiableMap(relations);
    }

    /** The statement that reads a table's rows, or its sample. */
    String rowQuery(Dialect dialect, String relation) {
        if (samplePercent >= 100) return "SELECT * FROM " + relation;
        String percent = BigDecimal.valueOf(samplePercent).stripTrailingZeros().toPlainString();
        return dialect == Dialect.POSTGRESQL
                ? "SELECT * FROM " + relation + " TABLESAMPLE BERNOULLI (" + percent + ") REPEATABLE (" + sampleSeed
                        + ")"
                : "SELECT * FROM " + relation + " WHERE RAND(" + sampleSeed + ") * 100 < " + percent;
    }

    /**
     * Opens a read-only session on the source.
     *
     * @throws DumpFormatException when no server answers, the login is refused or the session
     *     cannot be made read-only
     */
    public static Connection connect(LiveSource source, Map<String, String> env) {
        Connection c;
        try {
            DriverManager.setLoginTimeout(30);
            c = DriverManager.getConnection(source.driverUrl(), source.properties(env));
        } catch (SQLException e) {
            throw new DumpFormatException(source.display() + ": cannot connect: " + firstLine(e));
        }
        try {
            if (source.dialect() == Dialect.TRINO) {
                // a read-only transaction (the coordinator refuses any write in it) with a time limit
                try (Statement st = c.createStatement()) {
                    st.execute("SET SESSION query_max_execution_time = '" + STATEMENT_TIMEOUT_SECONDS + "s'");
                }
                c.setReadOnly(true);
                c.setAutoCommit(false);
                return c;
            }
            c.setAutoCommit(false); // PostgreSQL's driver streams with a cursor only inside a transaction
            c.setReadOnly(true);
            // every table read from one snapshot, as pg_dump and mysqldump --single-transaction read
            c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
            try (Statement st = c.createStatement()) {
                if (source.dialect() == Dialect.POSTGRESQL) {
                    st.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY");
                    st.execute("SET statement_timeout = '" + STATEMENT_TIMEOUT_SECONDS + "s'");
                    c.commit(); // the transaction the SETs opened was read-write; the next one is not
                } else {
                    st.execute("SET SESSION TRANSACTION READ ONLY");
                    timeoutMysql(st, STATEMENT_TIMEOUT_SECONDS);
                    c.commit();
                }
            }
            return c;
        } catch (SQLException e) {
            closeQuietly(c);
            throw new DumpFormatException(source.display() + ": cannot open a read-only session: " + firstLine(e));
        }
    }

    /** Sets the session's statement limit in seconds, 0 for none. */
    private static void timeoutMysql(Statement st, int seconds) throws SQLException {
        try {
            st.execute("SET SESSION max_statement_time = " + seconds); // MariaDB
        } catch (SQLException e) {
            st.execute("SET SESSION max_execution_time = " + seconds * 1000L); // MySQL
        }
    }

    /** Reads the catalog into {@code catalog} and every table's rows into the profiling database. */
    public void load(LiveSource source, Connection c, DdlCatalog catalog, Progress progress)
            throws SQLException, IOException {
        String where = source.display();
        List<String[]> tables = catalog(source, c, catalog);
        if (source.dialect() == Dialect.MYSQL) {
            try (Statement st = c.createStatement()) {
                timeoutMysql(st, 0);
            }
        }
        DatabaseFileLoader rows = new DatabaseFileLoader(db, stats, loaded);
        progress.begin("reading", tables.size());
        int done = 0;
        for (String[] t : tables) {
            TableDef def = catalog.table(t[0]);
            if (def == null) {
                continue; // the catalog warned that it could not read the table's definition
            }
            try (Statement st = c.createStatement()) {
                st.setFetchSize(FETCH_ROWS);
                relations.put(def.key(), t[1]);
                try (ResultSet rs = st.executeQuery(rowQuery(source.dialect(), t[1]))) {
                    ResultSetMetaData md = rs.getMetaData();
                    if (md.getColumnCount() != def.columns().size()) {
                        throw new DumpFormatException(where + ": table " + t[0] + " has " + md.getColumnCount()
                                + " columns but its definition " + def.columns().size());
                    }
                    boolean[] binary = new boolean[md.getColumnCount()];
                    for (int i = 0; i < binary.length; i++) {
                        binary[i] = DatabaseFileLoader.isBinary(md.getColumnType(i + 1));
                    }
                    rows.loadRows(rs, def, where, binary, "the server stopped sending rows");
                }
            } catch (SQLException e) {
                throw new DumpFormatException(where + ": cannot read table " + t[0] + ": " + firstLine(e));
            }
            progress.advance(++done);
        }
        serverBytes = serverSizes(source.dialect(), c);
        if (source.dialect() == Dialect.POSTGRESQL) {
            serverSpace = postgresSpace(c);
        }
        if (!keepTransaction) c.rollback(); // nothing was written; end the read-only transaction
        progress.end();
    }

    /**
     * Reads the catalog into {@code catalog} and describes each table's rows where they are, on
     * the server, for a profile that runs there ({@link ProfileDialect}):
     * each table becomes a derived relation of the server that presents its columns as the
     * profiler expects them (integers as they are, byte strings as they are, every other value as
     * its text, compared by code point), with its exact row count. No row is read; the
     * transaction stays open, so every query of the profile reads the same snapshot.
     */
    public void describe(LiveSource source, Connection c, DdlCatalog catalog, ProfileDialect sql, Progress progress)
            throws SQLException {
        String where = source.display();
        List<String[]> tables = catalog(source, c, catalog);
        sql.prepare(c); // after the catalog: its DDL is read in the server's usual session settings
        progress.begin("counting rows", tables.size());
        int done = 0;
        for (String[] t : tables) {
            TableDef def = catalog.table(t[0]);
            if (def == null) {
                continue;
            }
            relations.put(def.key(), t[1]);
            ColumnStorage[] storage = new ColumnStorage[def.columns().size()];
            StringBuilder select = new StringBuilder("(SELECT ");
            for (int i = 0; i < storage.length; i++) {
                storage[i] = ColumnStorage.forDeclared(def.columns().get(i).type());
                String col = sql.quote(def.columns().get(i).name());
                select.append(i == 0 ? "" : ", ")
                        .append(
                                storage[i] == ColumnStorage.TEXT
                                        ? sql.columnText(
                                                col, def.columns().get(i).type())
                                        : col)
                        .append(" AS c")
                        .append(i);
            }
            select.append(" FROM ").append(t[1]).append(")").append(sql.alias("r" + done));
            long rows;
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SELECT count(*) FROM " + t[1])) {
                rs.next();
                rows = rs.getLong(1);
                RowStore.drain(rs);
            } catch (SQLException e) {
                throw new DumpFormatException(where + ": cannot read table " + t[0] + ": " + firstLine(e));
            }
            loaded.put(def.key(), new LoadedTable(def, select.toString(), rows, storage));
            progress.advance(++done);
        }
        serverBytes = serverSizes(source.dialect(), c);
        if (source.dialect() == Dialect.POSTGRESQL) {
            serverSpace = postgresSpace(c);
        }
        progress.end();
    }

    /** The catalog read into {@code catalog}; per table {name as the catalog spells it, qualified relation}. */
    private static List<String[]> catalog(LiveSource source, Connection c, DdlCatalog catalog) throws SQLException {
        String where = source.display();
        List<String[]> tables;
        try {
            tables = switch (source.dialect()) {
                case POSTGRESQL -> postgresCatalog(c, catalog, where);
                case TRINO -> trinoCatalog(c, catalog, where);
                default -> mysqlCatalog(c, catalog, where);
            };
        } catch (SQLException e) {
            throw new DumpFormatException(where + ": cannot read the catalog: " + firstLine(e));
        }
        if (tables.isEmpty()) {
            throw new DumpFormatException(where + ": the database holds no tables"
                    + (source.dialect() == Dialect.POSTGRESQL
                            ? " in its current schema (set ?currentSchema=...)"
                            : ""));
        }
        return tables;
    }

    private Map<String, Long> serverBytes = Map.of();
    private Map<String, long[]> serverSpace = Map.of();

    /**
     * Per lower-case table name, {dead tuple bytes, free bytes} from PostgreSQL's
     * {@code pgstattuple_approx} when the pgstattuple extension is installed and this user may
     * call it; else empty. What the server holds beyond the rows: space VACUUM has not yet
     * reclaimed, and free space inside pages that only VACUUM FULL or a rewrite returns.
     */
    public Map<String, long[]> serverSpace() {
        return serverSpace;
    }

    /**
     * {@code pgstattuple_approx} of each table: it skips the pages the visibility map marks
     * all-visible (estimating their free space from the free-space map), so it reads far less
     * than {@code pgstattuple}. A failure (no extension, no privilege) leaves the transaction as
     * it was (a savepoint) and the report without these figures.
     */
    private static Map<String, long[]> postgresSpace(Connection c) {
        Map<String, long[]> out = new HashMap<>();
        Savepoint before = null;
        try {
            List<String[]> ext = rows(
                    c,
                    "SELECT quote_ident(n.nspname) FROM pg_extension e JOIN pg_namespace n ON n.oid = e.extnamespace"
                            + " WHERE e.extname = 'pgstattuple'");
            if (ext.isEmpty()) {
                return Map.of();
            }
            before = c.setSavepoint();
            for (String[] r : rows(
                    c,
                    "SELECT c.relname, s.dead_tuple_len::text, s.approx_free_space::text FROM pg_class c"
                            + " JOIN pg_namespace n ON n.oid = c.relnamespace, LATERAL " + ext.get(0)[0]
                            + ".pgstattuple_approx(c.oid) s WHERE n.nspname = current_schema() AND c.relkind = 'r'")) {
                out.put(r[0].toLowerCase(Locale.ROOT), new long[] {Long.parseLong(r[1]), Long.parseLong(r[2])});
            }
            c.releaseSavepoint(before);
            return out;
        } catch (SQLException | NumberFormatException e) {
            try {
                if (before != null) c.rollback(before);
            } catch (SQLException ignored) {
                // the transaction is read-only; a later statement will say if it is unusable
            }
            return Map.of();
        }
    }

    /** Each table's size as the server measures it, by lower-case name, after {@link #load}. */
    public Map<String, Long> serverBytes() {
        return serverBytes;
    }

    /**
     * PostgreSQL's {@code pg_table_size} (heap, TOAST, free-space and visibility maps; indexes
     * apart) or InnoDB's {@code data_length} (the clustered index, from the statistics the server
     * keeps: refreshed by ANALYZE TABLE). Empty when this user may not see them.
     */
    private static Map<String, Long> serverSizes(Dialect dialect, Connection c) {
        if (dialect == Dialect.TRINO) {
            return Map.of(); // Trino stores nothing itself; a lake's file sizes are the connector's
        }
        String sql = dialect == Dialect.POSTGRESQL
                ? "SELECT c.relname, pg_table_size(c.oid) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE n.nspname = current_schema() AND c.relkind = 'r'"
                : "SELECT table_name, data_length FROM information_schema.tables"
                        + " WHERE table_schema = DATABASE() AND table_type = 'BASE TABLE'";
        Map<String, Long> out = new HashMap<>();
        try {
            for (String[] r : rows(c, sql)) {
                if (r[1] != null) {
                    out.put(r[0].toLowerCase(Locale.ROOT), Long.parseLong(r[1]));
                }
            }
        } catch (SQLException e) {
            return Map.of(); // sizes are a comparison, not the analysis
        }
        return out;
    }

    // ------------------------------------------------------------------ Trino

    /**
     * The tables of the URL's schema from Trino's {@code information_schema}, written as the
     * {@code CREATE TABLE} statements they amount to (Trino's types, nullability; a lake's tables
     * declare no keys).
     */
    private static List<String[]> trinoCatalog(Connection c, DdlCatalog catalog, String where) throws SQLException {
        if (c.getSchema() == null || c.getCatalog() == null) {
            throw new DumpFormatException(
                    where + ": the URL names no catalog and schema (jdbc:trino://host:port/CATALOG/SCHEMA)");
        }
        String schema = literal(c.getSchema());
        List<String[]> out = new ArrayList<>();
        int line = 1;
        for (String[] t : rows(
                c,
                "SELECT table_name FROM information_schema.tables WHERE table_schema = " + schema
                        + " AND table_type = 'BASE TABLE' ORDER BY table_name")) {
            StringBuilder ddl = new StringBuilder("CREATE TABLE " + trinoQuote(t[0]) + " (\n");
            int n = 0;
            for (String[] col : rows(
                    c,
                    "SELECT column_name, data_type, is_nullable FROM information_schema.columns"
                            + " WHERE table_schema = " + schema + " AND table_name = " + literal(t[0])
                            + " ORDER BY ordinal_position")) {
                ddl.append(n++ > 0 ? ",\n" : "")
                        .append("    ")
                        .append(trinoQuote(col[0]))
                        .append(' ')
                        // a row, map or array is profiled as its JSON text: declared so
                        .append(col[1].matches("(?is)(array|map|row)\\s*\\(.*") ? "json" : col[1])
                        .append("NO".equals(col[2]) ? " NOT NULL" : "");
            }
            catalog.accept(ddl.append("\n);").toString(), where, line++);
            out.add(new String[] {
                t[0], trinoQuote(c.getCatalog()) + "." + trinoQuote(c.getSchema()) + "." + trinoQuote(t[0])
            });
        }
        return out;
    }

    private static String trinoQuote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    // ------------------------------------------------------------------ MySQL and MariaDB

    private static List<String[]> mysqlCatalog(Connection c, DdlCatalog catalog, String where) throws SQLException {
        List<String> names = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(
                        "SELECT table_name FROM information_schema.tables WHERE table_schema = DATABASE()"
                                + " AND table_type = 'BASE TABLE' ORDER BY table_name")) {
            while (rs.next()) {
                names.add(rs.getString(1));
            }
        }
        if (names.isEmpty() && currentDatabase(c) == null) {
            throw new DumpFormatException(where + ": the URL names no database (jdbc:mariadb://host/DATABASE)");
        }
        List<String[]> out = new ArrayList<>();
        int line = 1;
        for (String name : names) {
            String quoted = "`" + name.replace("`", "``") + "`";
            try (Statement st = c.createStatement();
                    ResultSet rs = st.executeQuery("SHOW CREATE TABLE " + quoted)) {
                if (rs.next()) {
                    catalog.accept(rs.getString(2), where, line++);
                    out.add(new String[] {name, quoted});
                }
            }
        }
        return out;
    }

    private static String currentDatabase(Connection c) throws SQLException {
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT DATABASE()")) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    // ------------------------------------------------------------------ PostgreSQL

    /**
     * pg_dump's statements for the current schema's tables, from pg_catalog (names quoted by
     * {@code quote_ident}, types spelled by {@code format_type}, constraints by
     * {@code pg_get_constraintdef}, indexes by {@code pg_get_indexdef}).
     */
    private static List<String[]> postgresCatalog(Connection c, DdlCatalog catalog, String where) throws SQLException {
        int[] line = {1};
        // enum types first: columns of those types are read as their members
        for (String[] e : rows(
                c,
                "SELECT quote_ident(t.typname), string_agg(quote_literal(e.enumlabel), ', ' ORDER BY e.enumsortorder)"
                        + " FROM pg_type t JOIN pg_enum e ON e.enumtypid = t.oid"
                        + " JOIN pg_namespace n ON n.oid = t.typnamespace"
                        + " WHERE n.nspname = current_schema() GROUP BY t.typname ORDER BY t.typname")) {
            catalog.accept("CREATE TYPE " + e[0] + " AS ENUM (" + e[1] + ");", where, line[0]++);
        }
        // domains: a column of one is read as its base type, as a pg_dump's CREATE DOMAIN is
        for (String[] d : rows(
                c,
                "SELECT quote_ident(t.typname), format_type(t.typbasetype, t.typtypmod),"
                        + " (SELECT string_agg(' CONSTRAINT ' || quote_ident(k.conname) || ' '"
                        + " || pg_get_constraintdef(k.oid), '' ORDER BY k.conname)"
                        + " FROM pg_constraint k WHERE k.contypid = t.oid)"
                        + " FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace"
                        + " WHERE t.typtype = 'd' AND n.nspname = current_schema() ORDER BY t.typname")) {
            catalog.accept(
                    "CREATE DOMAIN " + d[0] + " AS " + d[1] + (d[2] == null ? "" : d[2]) + ";", where, line[0]++);
        }
        // partitioned tables and their partitions as pg_dump writes them: the parent with its
        // PARTITION BY (and no rows of its own), each partition a table ATTACHed to it
        List<String[]> tables = rows(
                c,
                "SELECT c.oid::text, c.relname, quote_ident(n.nspname) || '.' || quote_ident(c.relname),"
                        + " quote_ident(c.relname),"
                        + " CASE WHEN c.relkind = 'p' THEN pg_get_partkeydef(c.oid) END,"
                        + " (SELECT quote_ident(p.relname) FROM pg_inherits h JOIN pg_class p ON p.oid = h.inhparent"
                        + "  WHERE h.inhrelid = c.oid AND c.relispartition),"
                        + " CASE WHEN c.relispartition THEN pg_get_expr(c.relpartbound, c.oid) END"
                        + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE n.nspname = current_schema() AND c.relkind IN ('r', 'p')"
                        + " ORDER BY c.oid");
        List<String> after = new ArrayList<>();
        List<String[]> out = new ArrayList<>();
        for (String[] t : tables) {
            String oid = t[0];
            String table = t[3];
            List<String> cols = new ArrayList<>();
            for (String[] a : rows(
                    c,
                    // a type of the user's (enum, domain) schema-qualified, as pg_dump writes it
                    "SELECT quote_ident(a.attname),"
                            + " CASE WHEN tn.nspname NOT IN ('pg_catalog', 'information_schema')"
                            + " AND format_type(a.atttypid, a.atttypmod) NOT LIKE '%.%'"
                            + " THEN quote_ident(tn.nspname) || '.' ELSE '' END"
                            + " || format_type(a.atttypid, a.atttypmod), a.attnotnull::text,"
                            + " a.attidentity::text, pg_get_serial_sequence(" + literal(t[2]) + ", a.attname),"
                            + " pg_get_expr(d.adbin, d.adrelid)"
                            + " FROM pg_attribute a JOIN pg_type ty ON ty.oid = a.atttypid"
                            + " JOIN pg_namespace tn ON tn.oid = ty.typnamespace LEFT JOIN pg_attrdef d"
                            + " ON d.adrelid = a.attrelid AND d.adnum = a.attnum"
                            + " WHERE a.attrelid = " + oid + " AND a.attnum > 0 AND NOT a.attisdropped"
                            + " ORDER BY a.attnum")) {
                cols.add("    " + a[0] + " " + a[1] + ("true".equals(a[2]) ? " NOT NULL" : ""));
                String seq = a[4];
                if (seq != null) {
                    String seqName = seq.contains(".") ? seq.substring(seq.lastIndexOf('.') + 1) : seq;
                    if (a[3] != null && !a[3].isEmpty()) {
                        after.add("ALTER TABLE ONLY " + table + " ALTER COLUMN " + a[0] + " ADD GENERATED "
                                + ("a".equals(a[3]) ? "ALWAYS" : "BY DEFAULT") + " AS IDENTITY (SEQUENCE NAME "
                                + seqName + ");");
                    } else {
                        after.add("ALTER TABLE ONLY " + table + " ALTER COLUMN " + a[0] + " SET DEFAULT nextval('"
                                + seqName.replace("'", "''") + "'::regclass);");
                        after.add("ALTER SEQUENCE " + seqName + " OWNED BY " + table + "." + a[0] + ";");
                    }
                    String[] value = sequenceValue(c, seq);
                    if (value != null) {
                        after.add("SELECT pg_catalog.setval('" + seqName.replace("'", "''") + "', " + value[0] + ", "
                                + value[1] + ");");
                    }
                }
            }
            catalog.accept(
                    "CREATE TABLE " + table + " (\n" + String.join(",\n", cols) + "\n)"
                            + (t[4] != null ? " PARTITION BY " + t[4] : "") + ";",
                    where,
                    line[0]++);
            if (t[5] != null && t[6] != null) {
                after.add("ALTER TABLE ONLY " + t[5] + " ATTACH PARTITION " + table + " " + t[6] + ";");
            }
            for (String[] k : rows(
                    c,
                    "SELECT quote_ident(conname), pg_get_constraintdef(oid) FROM pg_constraint"
                            + " WHERE conrelid = " + oid + " AND contype IN ('p', 'u', 'f') AND conparentid = 0"
                            + " ORDER BY contype = 'f', conname")) {
                after.add("ALTER TABLE ONLY " + table + " ADD CONSTRAINT " + k[0] + " " + k[1] + ";");
            }
            for (String[] i : rows(
                    c,
                    "SELECT pg_get_indexdef(i.indexrelid) FROM pg_index i WHERE i.indrelid = " + oid
                            + " AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = i.indexrelid)"
                            + " AND NOT EXISTS (SELECT 1 FROM pg_inherits h WHERE h.inhrelid = i.indexrelid)"
                            + " ORDER BY i.indexrelid")) {
                after.add(i[0] + ";");
            }
            // a partitioned table's rows are its partitions', read from them
            out.add(new String[] {t[1], (t[4] != null ? "ONLY " : "") + t[2]});
        }
        // views and materialized views, in the order they were made (one may read another), and
        // the indexes of materialized views: tune drops and re-creates those over a changed column
        for (String[] v : rows(
                c,
                "SELECT c.oid::text, quote_ident(n.nspname) || '.' || quote_ident(c.relname), c.relkind::text,"
                        + " pg_get_viewdef(c.oid)"
                        + " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
                        + " WHERE n.nspname = current_schema() AND c.relkind IN ('v', 'm') ORDER BY c.oid")) {
            String body = v[3].strip();
            if (body.endsWith(";")) {
                body = body.substring(0, body.length() - 1);
            }
            boolean materialized = "m".equals(v[2]);
            after.add("CREATE " + (materialized ? "MATERIALIZED " : "") + "VIEW " + v[1] + " AS\n" + body
                    + (materialized ? "\n  WITH DATA" : "") + ";");
            if (materialized) {
                for (String[] i :
                        rows(c, "SELECT pg_get_indexdef(indexrelid) FROM pg_index WHERE indrelid = " + v[0])) {
                    after.add(i[0] + ";");
                }
            }
        }
        for (String s : after) {
            catalog.accept(s, where, line[0]++);
        }
        return out;
    }

    /** A sequence's {@code last_value} and {@code is_called}, or null when this user may not read it. */
    private static String[] sequenceValue(Connection c, String seq) throws SQLException {
        Savepoint before = c.setSavepoint();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT last_value::text, is_called::text FROM " + seq)) {
            String[] out = rs.next() ? new String[] {rs.getString(1), rs.getString(2)} : null;
            c.releaseSavepoint(before);
            return out;
        } catch (SQLException e) {
            c.rollback(before); // the transaction goes on without it
            return null;
        }
    }

    private static List<String[]> rows(Connection c, String sql) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                String[] r = new String[n];
                for (int i = 0; i < n; i++) {
                    r[i] = rs.getString(i + 1);
                }
                out.add(r);
            }
        }
        return out;
    }

    private static String literal(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    static String firstLine(SQLException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        return m.lines().findFirst().orElse(m).strip();
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException e) {
            // already failing with a better message
        }
    }
}
