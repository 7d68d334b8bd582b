package dev.wastecheck.analyzer.schema;

/** The database engine a source comes from; suggestions and byte counts are in its terms. */
public enum Dialect {
    MYSQL("MySQL (InnoDB)"),
    POSTGRESQL("PostgreSQL"),
    SQLITE("SQLite"),
    DUCKDB("DuckDB");

    private final String label;

    Dialect(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    public String key() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
