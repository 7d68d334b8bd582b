package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.column;
import static dev.wastecheck.e2e.Cli.data;
import static dev.wastecheck.e2e.Cli.detail;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The advice, with real numbers, on the databases in ../shared/data: what issue 10 found wrong
 * (TINYINT keys, references narrower than their keys, user names as ENUMs, phone numbers as
 * BIGINT, money cut to today's digits) does not come back. Each database is analyzed once.
 */
@Tag("real-data")
class AdviceRealDataTest {
    static JsonNode mediawiki;
    static JsonNode sakila;
    static JsonNode chinook;
    static JsonNode chinookPg;
    static JsonNode pagila;

    @BeforeAll
    static void analyze() {
        mediawiki = Cli.analyzeJson(data("mediawiki-smw-2017-dump"));
        sakila = Cli.analyzeJson(data("sakila-mv/sakila-mv-schema.sql"), data("sakila-mv/sakila-mv-data.sql"));
        chinook = Cli.analyzeJson(data("chinook/Chinook_MySql.sql"));
        chinookPg = Cli.analyzeJson(data("chinook/Chinook_PostgreSql.sql"));
        pagila = Cli.analyzeJson(data("pagila-pgdump/pagila-schema.sql"), data("pagila-pgdump/pagila-data.sql"));
    }

    static List<JsonNode> all() {
        return List.of(mediawiki, sakila, chinook, chinookPg, pagila);
    }

    @Test
    void noKeyAndNoReferenceIsNarrowedBelowInt() {
        for (JsonNode r : all()) {
            Advice.keysAndReferencesKeepTheFloor(r);
            for (JsonNode t : r.get("tables")) {
                for (JsonNode c : t.get("columns")) {
                    assertThat(c.get("suggested_type").asText().toUpperCase(Locale.ROOT))
                            .as("no auto-increment key or *_id becomes TINYINT: "
                                    + t.get("name").asText() + "."
                                    + c.get("name").asText())
                            .satisfiesAnyOf(
                                    s -> assertThat(s).doesNotContain("TINYINT"),
                                    s -> assertThat(c.get("declared_type")
                                                    .asText()
                                                    .toUpperCase(Locale.ROOT))
                                            .contains("TINYINT"));
                }
            }
        }
    }

    @Test
    void everyReferenceGetsItsKeysType() {
        for (JsonNode r : all()) {
            Advice.referencesTakeTheirKeysType(r);
        }
        // MediaWiki names its references; the dump declares none.
        assertThat(refs(mediawiki))
                .contains(
                        "revision.rev_page -> page.page_id name",
                        "page.page_latest -> revision.rev_id name",
                        "pagelinks.pl_from -> page.page_id name",
                        "categorylinks.cl_from -> page.page_id name",
                        "templatelinks.tl_from -> page.page_id name",
                        "revision.rev_text_id -> text.old_id name",
                        "smw_di_wikipage.o_id -> smw_object_ids.smw_id name");
        for (String[] ref : new String[][] {
            {"revision", "rev_page", "page", "page_id"},
            {"page", "page_latest", "revision", "rev_id"},
            {"pagelinks", "pl_from", "page", "page_id"}
        }) {
            assertThat(Advice.types(mediawiki, ref[0], ref[1])[1])
                    .as(ref[0] + "." + ref[1])
                    .isEqualTo(Advice.types(mediawiki, ref[2], ref[3])[1]);
        }
        // Sakila and Chinook declare theirs: every one is found, as declared, and keeps its key's type.
        assertThat(refs(sakila))
                .contains(
                        "payment.rental_id -> rental.rental_id declared",
                        "rental.inventory_id -> inventory.inventory_id declared",
                        "store.manager_staff_id -> staff.staff_id declared",
                        "film.original_language_id -> language.language_id declared");
        assertThat(refs(sakila).stream().filter(x -> x.endsWith(" declared"))).hasSize(22);
        assertThat(refs(chinook).stream().filter(x -> x.endsWith(" declared")))
                .hasSize(11)
                .contains(
                        "Employee.ReportsTo -> Employee.EmployeeId declared",
                        "InvoiceLine.TrackId -> Track.TrackId declared");
        assertThat(column(chinook, "InvoiceLine", "TrackId")
                        .get("suggested_type")
                        .asText())
                .isEqualTo(column(chinook, "Track", "TrackId")
                        .get("suggested_type")
                        .asText())
                .isEqualTo("INT");
    }

    @Test
    void namespaceColumnsShareOneType() {
        List<String> types = Advice.namespaceTypes(mediawiki);
        assertThat(types).hasSizeGreaterThanOrEqualTo(14).containsOnly(types.get(0));
        // 1,100 values across the domain: SMALLINT, not the TINYINT the values alone would take
        // (extensions assign namespaces such as 828 and 2300).
        assertThat(types.get(0)).isEqualTo("SMALLINT");
        assertThat(detail(column(mediawiki, "page", "page_namespace"), "narrow_integer"))
                .startsWith("the namespace domain (");
    }

    @Test
    void userNamesAndOtherFreeTextAreNeverEnums() {
        for (String[] c : new String[][] {
            {"recentchanges", "rc_user_text"},
            {"revision", "rev_user_text"},
            {"archive", "ar_user_text"},
            {"logging", "log_user_text"},
            {"page_props", "pp_propname"}
        }) {
            assertThat(column(mediawiki, c[0], c[1]).get("suggested_type").asText())
                    .as(c[0] + "." + c[1])
                    .doesNotContainIgnoringCase("enum");
        }
        for (JsonNode r : all()) {
            for (JsonNode t : r.get("tables")) {
                for (JsonNode c : t.get("columns")) {
                    String name = c.get("name").asText().toLowerCase(Locale.ROOT);
                    if (name.endsWith("name")
                            || name.endsWith("text")
                            || name.endsWith("title")
                            || name.contains("email")) {
                        assertThat(c.get("suggested_type").asText())
                                .as(t.get("name").asText() + "." + name)
                                .doesNotContainIgnoringCase("enum");
                    }
                }
            }
        }
    }

    @Test
    void phoneNumbersAndPostalCodesStayStrings() {
        for (JsonNode r : List.of(sakila, pagila)) {
            for (String c : new String[] {"phone", "postal_code"}) {
                JsonNode col = column(r, "address", c);
                assertThat(col.get("suggested_type").asText())
                        .as(c)
                        .isEqualTo(col.get("declared_type").asText());
                assertThat(detail(col, "kept_declared")).contains("identifier written with digits");
            }
        }
        for (String c : new String[] {"Phone", "Fax", "PostalCode"}) {
            JsonNode col = column(chinook, "Customer", c);
            assertThat(col.get("suggested_type").asText())
                    .as(c)
                    .isEqualTo(col.get("declared_type").asText());
        }
    }

    @Test
    void theInvoiceTotalKeepsDecimalWithHeadroom() {
        for (JsonNode r : List.of(chinook, chinookPg)) {
            JsonNode total = column(r, "Invoice", "Total");
            SqlType t = Advice.type(r, total.get("suggested_type").asText());
            assertThat(t.family()).isEqualTo(TypeFamily.DECIMAL);
            assertThat(t.scale()).isEqualTo(2);
            // 25.86 is the largest total: at least three more digits before the point.
            assertThat(total.get("max").asText()).isEqualTo("25.86");
            assertThat(t.precision() - t.scale()).isGreaterThanOrEqualTo(2 + 3);
        }
        // The unit prices, with 3,503 and 2,240 rows, keep their scale and gain three digits: DECIMAL(6,2).
        assertThat(column(chinook, "Track", "UnitPrice").get("suggested_type").asText())
                .isEqualTo("DECIMAL(6,2)");
        assertThat(column(chinook, "InvoiceLine", "UnitPrice")
                        .get("suggested_type")
                        .asText())
                .isEqualTo("DECIMAL(6,2)");
    }

    @Test
    void countersAndSerializedValuesKeepTheirTypes() {
        for (String[] c : new String[][] {
            {"page", "page_counter"},
            {"site_stats", "ss_total_views"},
            {"user", "user_editcount"},
            {"smw_fpt_askde", "o_serialized"},
            {"smw_fpt_askde", "o_sortkey"},
            {"page_props", "pp_value"}
        }) {
            JsonNode col = column(mediawiki, c[0], c[1]);
            assertThat(col.get("suggested_type").asText())
                    .as(c[0] + "." + c[1])
                    .isEqualTo(col.get("declared_type").asText());
        }
    }

    @Test
    void tunesMigrationOfMediawikiChangesNoKeyAndKeepsTheNamespacesTogether() {
        Cli.Result r = Cli.run(
                "tune",
                "-q",
                "--format",
                "json",
                data("mediawiki-smw-2017-dump").toString());
        assertThat(r.exitCode()).as(r.err()).isZero();
        List<String> applied = new java.util.ArrayList<>();
        for (JsonNode t : r.json().get("tables")) {
            for (JsonNode c : t.get("changes")) {
                if (c.get("applied").asBoolean()) {
                    applied.add(t.get("name").asText() + "." + c.get("column").asText() + " "
                            + c.get("new_type").asText());
                }
            }
        }
        assertThat(applied)
                .noneMatch(a ->
                        a.contains("_id ") || a.contains("_from ") || a.contains("_page ") || a.contains("_latest "));
        assertThat(applied.stream().filter(a -> a.contains("namespace")))
                .allMatch(a -> a.endsWith(" SMALLINT"))
                .hasSizeGreaterThanOrEqualTo(10);
    }

    private static List<String> refs(JsonNode r) {
        List<String> out = new java.util.ArrayList<>();
        for (JsonNode x : r.get("references")) {
            out.add(x.get("table").asText() + "." + x.get("column").asText() + " -> "
                    + x.get("key_table").asText() + "." + x.get("key_column").asText() + " "
                    + x.get("evidence").asText());
        }
        return out;
    }
}
