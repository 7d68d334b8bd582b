package dev.wastecheck.analyzer.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

/** PostgreSQL's numeric: base-10000 digits grouped from the decimal point, zero groups at either end dropped. */
class PgHeapTest {
    private static long numericBytes(Connection c, String text) throws Exception {
        String expr = PgHeap.payload(PgHeap.Layout.varlena(PgHeap.Varlena.NUMERIC), "'" + text + "'");
        try (Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT " + expr)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Test
    void numericBytesCountTheDigitGroupsPostgresqlKeeps() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:")) {
            assertThat(numericBytes(c, "0")).isEqualTo(2);
            assertThat(numericBytes(c, "0.00")).isEqualTo(2);
            assertThat(numericBytes(c, "7")).isEqualTo(4);
            assertThat(numericBytes(c, "10000")).isEqualTo(4); // one group, weight 1
            assertThat(numericBytes(c, "0.00005")).isEqualTo(4); // one group, weight -2
            assertThat(numericBytes(c, "-1.50")).isEqualTo(6); // 1 . 5000
            assertThat(numericBytes(c, "12345.6789")).isEqualTo(8); // 1 2345 . 6789
            assertThat(numericBytes(c, "100000000")).isEqualTo(4); // 1 0000 0000: trailing zero groups dropped
            assertThat(numericBytes(c, "10000.0001")).isEqualTo(8); // 1 0000 . 0001: inner zero groups stay
        }
    }
}
