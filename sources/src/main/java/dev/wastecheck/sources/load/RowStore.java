package dev.wastecheck.sources.load;

import dev.wastecheck.sources.sql.ProfileDialect;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;

/**
 * Where a source's rows are queried: the local profiling database that holds loaded rows, or the
 * live server that holds them itself, with the dialect its queries are written in. A table's
 * {@link LoadedTable#relation()} names a relation of this store.
 *
 * @param remote true when the rows stay on the server (only aggregates and short lists come back)
 */
public record RowStore(Connection connection, ProfileDialect sql, boolean remote) {
    /**
     * Reads a result to its end. Trino cancels a query whose result is closed before its last
     * page was fetched, and a cancelled query aborts the transaction it ran in.
     */
    public static void drain(ResultSet rs) throws SQLException {
        while (rs.next()) {
            // nothing more is expected
        }
    }

    /** The rows loaded into the local DuckDB, over its connection. */
    public static RowStore local(Connection duckdb) {
        return new RowStore(duckdb, ProfileDialect.DUCKDB, false);
    }
}
