package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.column;
import static dev.wastecheck.e2e.Cli.data;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.semantic.DependencySearch;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies;
import dev.wastecheck.model.Progress;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Functional dependencies ("No Bits Left Behind" §4.2) a reader can check by hand in the real
 * databases: Chinook copies each customer's address into every invoice, prices tracks by genre;
 * MediaWiki keeps a user's id beside the user's name in every revision, and a log action names
 * its log type. Sakila is normalized: what the search finds there costs more in a lookup table
 * than it saves, and its one near-dependency is the city of London, in two countries.
 */
@Tag("real-data")
class DependenciesRealDataTest {
    static JsonNode chinook;
    static JsonNode mediawiki;
    static JsonNode sakila;

    @BeforeAll
    static void analyze() {
        chinook = Cli.analyzeJson(data("chinook/Chinook_MySql.sql"));
        mediawiki = Cli.analyzeJson(data("mediawiki-smw-2017-dump"));
        sakila = Cli.analyzeJson(data("sakila-mv/sakila-mv-schema.sql"), data("sakila-mv/sakila-mv-data.sql"));
    }

    static JsonNode finding(JsonNode report, String table, String col, String kind) {
        for (JsonNode f : column(report, table, col).get("findings")) {
            if (f.get("kind").asText().equals(kind)) {
                return f;
            }
        }
        throw new AssertionError("no " + kind + " on " + table + "." + col);
    }

    static List<String> all(JsonNode report, String kind) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : report.get("tables")) {
            for (JsonNode c : t.get("columns")) {
                for (JsonNode f : c.get("findings")) {
                    if (f.get("kind").asText().equals(kind)) {
                        out.add(t.get("name").asText() + "." + c.get("name").asText());
                    }
                }
            }
        }
        return out;
    }

    @Test
    void chinookInvoicesCopyTheirCustomersAddress() {
        // 412 invoices of 59 customers; each customer's invoices carry one billing city and country
        JsonNode city = finding(chinook, "Invoice", "BillingCity", "functional_dependency");
        assertThat(city.get("detail").asText())
                .startsWith("determined by (CustomerId): every one of the 59 distinct (CustomerId) has one BillingCity"
                        + " (53 distinct) over 412 rows: moved to a lookup table keyed by (CustomerId), its 3665 bytes"
                        + " here become 1823 there, 1842 saved");
        assertThat(city.get("bytes_saved").asLong()).isEqualTo(1842);
        assertThat(finding(chinook, "Invoice", "BillingCountry", "functional_dependency")
                        .get("bytes_saved")
                        .asLong())
                .isEqualTo(1300);
        // BillingAddress maps one-to-one onto CustomerId: said once, as a duplicate
        assertThat(all(chinook, "functional_dependency")).doesNotContain("Invoice.BillingAddress");
    }

    @Test
    void chinookPricesTracksByGenre() {
        // 1.99 for the video genres (TV Shows, Drama, Sci Fi & Fantasy, ...), 0.99 for the others
        JsonNode price = finding(chinook, "Track", "UnitPrice", "functional_dependency");
        assertThat(price.get("detail").asText())
                .startsWith("determined by (GenreId): every one of the 25 distinct (GenreId) has one UnitPrice"
                        + " (2 distinct) over 3503 rows")
                .contains("also determined by (AlbumId)");
        assertThat(price.get("bytes_saved").asLong()).isEqualTo(16840);
        // one track of album 271 has another media type than its 13 siblings
        assertThat(finding(chinook, "Track", "MediaTypeId", "near_dependency")
                        .get("detail")
                        .asText())
                .startsWith("determined by (AlbumId) except on 1 of 3503 rows: AlbumId = '271' has MediaTypeId = '3' on"
                        + " 1 row; AlbumId = '271' has MediaTypeId = '2' on 13 rows");
    }

    @Test
    void mediawikiKeepsTheUserIdBesideTheName() {
        // rev_user_text is the user's name (or an IP for anonymous edits, rev_user 0): 6 names, 2 ids
        JsonNode user = finding(mediawiki, "revision", "rev_user", "functional_dependency");
        assertThat(user.get("detail").asText())
                .startsWith("determined by (rev_user_text): every one of the 6 distinct (rev_user_text) has one"
                        + " rev_user (2 distinct) over 102 rows");
        assertThat(user.get("bytes_saved").asLong()).isEqualTo(239);
        // log_action 'create', 'delete', 'restore', ... each belongs to one log_type
        JsonNode type = finding(mediawiki, "logging", "log_type", "functional_dependency");
        assertThat(type.get("detail").asText())
                .startsWith("determined by (log_action): every one of the 4 distinct (log_action) has one log_type"
                        + " (3 distinct) over 292 rows");
        assertThat(type.get("bytes_saved").asLong()).isEqualTo(1916);
    }

    @Test
    void sakilaIsNormalizedAndLondonIsInTwoCountries() throws Exception {
        assertThat(all(sakila, "functional_dependency")).isEmpty();
        List<String> found = new ArrayList<>();
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        try (LoadedSource s = analyzer.open(
                List.of(data("sakila-mv/sakila-mv-schema.sql"), data("sakila-mv/sakila-mv-data.sql")),
                false,
                Progress.NONE)) {
            AnalysisReport r = analyzer.report(s, List.of(), Progress.NONE);
            FunctionalDependencies fd =
                    FunctionalDependencies.on(s.database(), s.dialect(), FunctionalDependencies.Options.defaults());
            for (String table : List.of("city", "payment")) {
                FunctionalDependencies.TableResult tr = fd.search(s.tables().get(table), r.table(table));
                for (DependencySearch.Dependency d : tr.near()) {
                    found.add(table + ": " + String.join(",", d.lhs()) + " ~> " + d.rhs() + " " + d.violatingRows());
                }
            }
        }
        // city 312 and 313 are both 'London' (country 102, the United Kingdom, and 20, Canada); the
        // payments without a rental break rental_id -> customer_id: the rental table is already its lookup
        assertThat(found).contains("city: city ~> country_id 1", "payment: rental_id ~> customer_id 4");
    }
}
