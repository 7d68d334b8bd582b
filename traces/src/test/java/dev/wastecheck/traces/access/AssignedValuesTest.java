package dev.wastecheck.traces.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The values INSERT and UPDATE statements assign, as {@link AccessEvent#values()} reports them. */
class AssignedValuesTest {
    static final DatabaseSchema SCHEMA = DdlCatalog.parse("""
            CREATE TABLE person (
              id bigint NOT NULL,
              name varchar(64),
              city varchar(64),
              visits int,
              PRIMARY KEY (id)
            );
            """).schema();
    final AccessExtractor x = new AccessExtractor(SCHEMA);

    private static Map<String, String> map(String... kv) {
        Map<String, String> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put(kv[i], kv[i + 1]);
        }
        return m;
    }

    @Test
    void insertOfSeveralRowsGivesOneEventPerRowWithItsValues() {
        List<AccessEvent> ev = x.extract(
                "INSERT INTO person (id, name, city, visits) VALUES (2849, 'Thula', 'Durban', -5),"
                        + " (2850, 'O\\'Brien', NULL, 7), (2851, 'Ann', 'Oslo', 2 * 3)",
                Dialect.MYSQL);
        assertThat(ev).extracting(AccessEvent::operation).containsOnly(Operation.INSERT);
        assertThat(ev)
                .extracting(AccessEvent::key)
                .containsExactly(Map.of("id", "2849"), Map.of("id", "2850"), Map.of("id", "2851"));
        assertThat(ev.get(0).values())
                .containsExactlyEntriesOf(map("id", "2849", "name", "Thula", "city", "Durban", "visits", "-5"));
        assertThat(ev.get(1).values())
                .as("NULL is present with a null value; the escaped quote is unescaped")
                .containsExactlyEntriesOf(map("id", "2850", "name", "O'Brien", "city", null, "visits", "7"));
        assertThat(ev.get(2).values())
                .as("an expression is absent")
                .containsExactlyEntriesOf(map("id", "2851", "name", "Ann", "city", "Oslo"));
    }

    @Test
    void insertWithoutColumnListUsesTheTableOrderAndDoubledQuotes() {
        AccessEvent e = x.extract("INSERT INTO person VALUES (1, 'it''s', 'Rome', 0)", Dialect.POSTGRESQL)
                .get(0);
        assertThat(e.values()).containsExactlyEntriesOf(map("id", "1", "name", "it's", "city", "Rome", "visits", "0"));
    }

    @Test
    void updateReportsLiteralSetsOnlyAndParametersAreUnknown() {
        AccessEvent e = x.extract(
                        "UPDATE person SET name = 'Thula', visits = visits + 1, city = NULL WHERE id = 2849",
                        Dialect.MYSQL)
                .get(0);
        assertThat(e.operation()).isEqualTo(Operation.UPDATE);
        assertThat(e.key()).containsExactly(Map.entry("id", "2849"));
        assertThat(e.updated()).containsExactlyInAnyOrder("name", "visits", "city");
        assertThat(e.values()).containsExactlyEntriesOf(map("name", "Thula", "city", null));

        AccessEvent p = x.extract("UPDATE person SET visits = ?, name = 'B' WHERE id = 3", Dialect.MYSQL)
                .get(0);
        assertThat(p.values()).containsExactlyEntriesOf(map("name", "B"));
    }

    @Test
    void updateOfSeveralKeysCarriesTheSameValuesOnEachEvent() {
        List<AccessEvent> ev = x.extract("UPDATE person SET visits = 10 WHERE id IN (1, 2)", Dialect.MYSQL);
        assertThat(ev).hasSize(2);
        assertThat(ev).extracting(AccessEvent::values).containsOnly(Map.of("visits", "10"));
    }

    @Test
    void readsAndDeletesAssignNothing() {
        assertThat(x.extract("SELECT name FROM person WHERE id = 1", Dialect.MYSQL)
                        .get(0)
                        .values())
                .isEmpty();
        assertThat(x.extract("DELETE FROM person WHERE id = 1", Dialect.MYSQL)
                        .get(0)
                        .values())
                .isEmpty();
    }

    @Test
    void literalsDifferingPerStatementOfOneShapeAreFilledEachTime() {
        assertThat(x.extract("UPDATE person SET name = 'A' WHERE id = 1", Dialect.MYSQL)
                        .get(0)
                        .values())
                .containsEntry("name", "A");
        assertThat(x.extract("UPDATE person SET name = 'Z' WHERE id = 2", Dialect.MYSQL)
                        .get(0)
                        .values())
                .containsEntry("name", "Z");
    }
}
