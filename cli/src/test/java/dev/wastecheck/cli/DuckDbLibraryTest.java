package dev.wastecheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class DuckDbLibraryTest {
    /**
     * The name must be the driver's own (DuckDBNative looks for it beside the jar): the driver's
     * jar on the test class path carries this platform's library under it.
     */
    @Test
    void theLibraryNameIsTheOneTheDriversJarCarries() {
        assertThat(ClassLoader.getSystemResource(DuckDbLibrary.libraryName()))
                .as(DuckDbLibrary.libraryName())
                .isNotNull();
    }

    /** From the modules' classes the driver unpacks the library itself: nothing is written anywhere. */
    @Test
    void outsideTheFatJarItDoesNothing() throws Exception {
        DuckDbLibrary.unpackOnce();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT 41 + 1")) {
            rs.next();
            assertThat(rs.getInt(1)).isEqualTo(42);
        }
    }
}
