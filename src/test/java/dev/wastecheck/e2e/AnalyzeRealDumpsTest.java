package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.column;
import static dev.wastecheck.e2e.Cli.data;
import static dev.wastecheck.e2e.Cli.detail;
import static dev.wastecheck.e2e.Cli.kinds;
import static dev.wastecheck.e2e.Cli.table;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@code wastecheck analyze} on real databases, as users' dumps arrive. */
@Tag("real-data")
class AnalyzeRealDumpsTest {

    private static void assertRowCounts(JsonNode report, Map<String, Integer> expected) {
        expected.forEach((t, rows) -> assertThat(table(report, t).get("rows").asLong())
                .as("rows of " + t)
                .isEqualTo(rows.longValue()));
    }

    @Test
    void sakilaMysqldumpFindsConstantAndAllNullColumnsWithExactRowCounts() {
        // Schema and data in two files, given in the folder's order (data sorts first).
        JsonNode r = Cli.analyzeJson(data("sakila-mv"));
        assertThat(r.get("dialect").asText()).isEqualTo("mysql");
        assertRowCounts(
                r,
                Map.ofEntries(
                        Map.entry("actor", 200),
                        Map.entry("address", 603),
                        Map.entry("category", 16),
                        Map.entry("city", 600),
                        Map.entry("country", 109),
                        Map.entry("customer", 599),
                        Map.entry("film", 1000),
                        Map.entry("film_actor", 5462),
                        Map.entry("film_category", 1000),
                        Map.entry("film_text", 0),
                        Map.entry("inventory", 4581),
                        Map.entry("language", 6),
                        Map.entry("payment", 16049),
                        Map.entry("rental", 16044),
                        Map.entry("staff", 2),
                        Map.entry("store", 2)));
        // film_text is filled by a trigger on film, so the dump holds none of its rows.
        assertThat(r.get("totals").get("rows").asLong()).isEqualTo(46_273);

        assertThat(kinds(column(r, "film", "release_year"))).contains("constant");
        assertThat(detail(column(r, "film", "release_year"), "constant")).contains("2006");
        assertThat(kinds(column(r, "film", "language_id"))).contains("constant");
        JsonNode original = column(r, "film", "original_language_id");
        assertThat(kinds(original)).contains("all_null");
        assertThat(original.get("nulls").asLong()).isEqualTo(1000);

        // The conditional comment /*!50705 location GEOMETRY */ is a column a current MySQL creates.
        assertThat(column(r, "address", "location").get("declared_type").asText())
                .isEqualToIgnoringCase("GEOMETRY");
        assertThat(table(r, "address").get("bad_rows").asLong()).isZero();

        // A key fed by a counter keeps at least INT: rental_id (max 16049, x10 = 160490) would fit a
        // MEDIUMINT, which a DBA would not take for a table that grows with every rental.
        JsonNode rentalId = column(r, "rental", "rental_id");
        assertThat(rentalId.get("suggested_type").asText()).isEqualTo("INT");
        assertThat(rentalId.get("tight_bytes").asLong()).isEqualTo(16_044L * 4);
        assertThat(detail(rentalId, "kept_declared")).contains("--key-floor 4");
        // A reference takes its key's range: staff.address_id (max 4) follows address.address_id (max 605),
        // which needs its declared SMALLINT UNSIGNED, so it is not narrowed to a TINYINT.
        JsonNode staffAddress = column(r, "staff", "address_id");
        assertThat(staffAddress.get("suggested_type").asText())
                .isEqualTo(staffAddress.get("declared_type").asText());
        assertThat(kinds(staffAddress)).doesNotContain("narrow_integer");
    }

    @Test
    void pagilaPgDumpDecodesCopyRowsExactly() {
        JsonNode r = Cli.analyzeJson(data("pagila-pgdump/pagila-schema.sql"), data("pagila-pgdump/pagila-data.sql"));
        assertThat(r.get("dialect").asText()).isEqualTo("postgresql");
        assertRowCounts(
                r,
                Map.ofEntries(
                        Map.entry("actor", 200),
                        Map.entry("country", 109),
                        Map.entry("city", 600),
                        Map.entry("address", 603),
                        Map.entry("film", 1000),
                        Map.entry("film_actor", 5462),
                        Map.entry("rental", 16044),
                        Map.entry("payment_p2022_01", 723),
                        Map.entry("payment_p2022_07", 2334)));
        // \N is NULL, an empty field is the empty string: address2 has 4 of one and 599 of the other.
        JsonNode address2 = column(r, "address", "address2");
        assertThat(address2.get("nulls").asLong()).isEqualTo(4);
        assertThat(address2.get("distinct").asLong()).isEqualTo(1);
        assertThat(kinds(address2)).contains("null_marker");
        // Partitions are recognised as such.
        assertThat(table(r, "payment_p2022_01").get("partition_of").asText()).isEqualTo("payment");
        // activebool is true in every row while active (integer) is 0 in 15 of them: not a duplicate here.
        assertThat(kinds(column(r, "customer", "activebool"))).contains("constant");
        assertThat(kinds(column(r, "customer", "active"))).doesNotContain("duplicate_column");
        // 599 customers are too little evidence that active stays 0 or 1.
        assertThat(column(r, "customer", "active").get("suggested_type").asText())
                .isEqualTo("integer");
        assertThat(kinds(column(r, "film", "original_language_id"))).contains("all_null");
        // A serial key with max 600 would fit a smallint with x10 room; it keeps integer, the floor.
        assertThat(column(r, "city", "city_id").get("suggested_type").asText()).isEqualTo("integer");
        for (JsonNode t : r.get("tables")) {
            assertThat(t.get("bad_rows").asLong())
                    .as("bad rows in " + t.get("name"))
                    .isZero();
        }
    }

    @Test
    void mediawikiFolderOfPerTableDumps() {
        JsonNode r = Cli.analyzeJson(data("mediawiki-smw-2017-dump"));
        assertThat(r.get("tables").size()).isEqualTo(82);
        assertThat(r.get("totals").get("rows").asLong()).isEqualTo(7_236);
        assertRowCounts(r, Map.of("page", 45, "revision", 102, "text", 224));
        // binary(14) timestamps hold YYYYMMDDHHMMSS: a 5-byte DATETIME holds them (TIMESTAMP ends in 2038).
        JsonNode ts = column(r, "revision", "rev_timestamp");
        assertThat(ts.get("suggested_type").asText()).isEqualTo("DATETIME");
        assertThat(kinds(ts)).first().isEqualTo("string_holds_timestamp");
        assertThat(ts.get("declared_bytes").asLong()).isEqualTo(102L * 14);
        assertThat(ts.get("tight_bytes").asLong()).isEqualTo(102L * 5);
        // page_links_updated holds 19691231235959, before TIMESTAMP's range: still DATETIME.
        assertThat(column(r, "page", "page_links_updated").get("suggested_type").asText())
                .isEqualTo("DATETIME");
        assertThat(kinds(column(r, "page", "page_content_model"))).contains("constant");
        // 45 pages are too little evidence to narrow the auto-increment key.
        assertThat(column(r, "page", "page_id").get("suggested_type").asText()).isEqualTo("int(10) unsigned");
    }

    @Test
    void mediawikiSchemaAloneDeclaresEveryTable() {
        JsonNode r = Cli.analyzeJson(data("mediawiki-schema/tables-generated.sql"));
        assertThat(r.get("tables").size()).isEqualTo(61);
        assertThat(r.get("totals").get("rows").asLong()).isZero();
        assertThat(r.get("warnings").size()).isZero();
        assertThat(column(r, "page", "page_touched").get("declared_type").asText())
                .isEqualToIgnoringCase("BINARY(14)");
        assertThat(column(r, "file", "file_id").get("declared_type").asText()).isEqualToIgnoringCase("BIGINT UNSIGNED");
    }
}
