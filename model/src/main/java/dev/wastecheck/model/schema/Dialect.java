package dev.wastecheck.model.schema;

import java.util.Locale;

/**
 * The database engine a source, a dump or a trace comes from: suggestions and byte counts are in
 * its terms, and its lexical rules say how its statements quote names and strings. A trace that
 * does not say which server wrote it (a file of plain statements) has no dialect: readers pass
 * null and the statement normalizer reads it leniently.
 */
public enum Dialect {
    MYSQL("MySQL (InnoDB)"),
    POSTGRESQL("PostgreSQL"),
    SQLITE("SQLite"),
    DUCKDB("DuckDB"),
    /**
     * Trino over a data lake or other stores: it keeps no storage of its own, so sizes are
     * modeled as columnar storage (DuckDB's), and suggestions are in Trino's types (no unsigned
     * integers, no ENUM).
     */
    TRINO("Trino (sizes as columnar storage)");

    private final String label;

    Dialect(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public String key() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** MySQL reads a backslash in a string literal as an escape; standard SQL does not. */
    public boolean backslashEscapes() {
        return this == MYSQL;
    }

    /**
     * The dialect of a SQL script, scored from telltales in its head (the first kilobytes, lower
     * case): mysqldump's backticks and {@code ENGINE=}, pg_dump's {@code COPY ... FROM stdin} and
     * {@code ::} casts, SQLite's {@code PRAGMA} and bracketed names; MySQL when nothing tells.
     * DuckDB writes no scripts of its own, so a script is never DuckDB.
     */
    public static Dialect ofScript(String lowerCaseHead) {
        String lower = lowerCaseHead;
        int mysql = score(lower, 5, "mysqldump", "mariadb dump")
                + score(lower, 3, "engine=", "lock tables", "/*!40")
                + score(lower, 2, "`", "auto_increment", " unsigned");
        int pg = score(lower, 5, "postgresql database dump", "from stdin;")
                + score(lower, 3, "set search_path", "\\connect", "\nc ", "\\c ", "owner to", "create sequence")
                + score(lower, 2, "nextval(", "character varying", "::", " serial", "timestamp without time zone");
        int sqlite = score(lower, 4, "pragma ", "sqlite") + score(lower, 2, "begin transaction", "autoincrement", "[");
        if (pg > mysql && pg >= sqlite) {
            return POSTGRESQL;
        }
        if (sqlite > mysql && sqlite > pg) {
            return SQLITE;
        }
        return MYSQL;
    }

    private static int score(String text, int weight, String... needles) {
        int s = 0;
        for (String n : needles) {
            if (text.contains(n)) {
                s += weight;
            }
        }
        return s;
    }
}
