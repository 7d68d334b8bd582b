package dev.wastecheck.model.ddl;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.schema.Dialect;

/**
 * Fuzz target: the one DDL reader ({@link DdlCatalog}, JSqlParser underneath) on any statement
 * text in MySQL, PostgreSQL and SQLite: it reads the table, warns that it could not, or refuses
 * with bad input; it never throws anything else and never hangs.
 */
class DdlReaderFuzzTest {
    private static final String[] HEADS = {
        "CREATE TABLE ", "CREATE TABLE t (", "ALTER TABLE ", "CREATE TYPE ", "CREATE INDEX ", "CREATE VIEW v AS ", ""
    };

    @FuzzTest(maxDuration = "3s")
    void ddl(FuzzedDataProvider data) {
        Dialect dialect = data.pickValue(new Dialect[] {Dialect.MYSQL, Dialect.POSTGRESQL, Dialect.SQLITE});
        String head = data.pickValue(HEADS);
        DdlCatalog catalog = new DdlCatalog(dialect);
        try {
            catalog.accept(head + data.consumeRemainingAsString(), "fuzz.sql", 1);
            catalog.schema();
        } catch (BadInputException expected) {
            // refused with a message: the contract
        }
    }
}
