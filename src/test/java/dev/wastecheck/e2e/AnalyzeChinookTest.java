package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.column;
import static dev.wastecheck.e2e.Cli.data;
import static dev.wastecheck.e2e.Cli.kinds;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Chinook in every dialect it ships in: the same rows, the same waste, each in its own terms. */
@Tag("real-data")
class AnalyzeChinookTest {
    private static final Map<String, Integer> ROWS = Map.ofEntries(
            Map.entry("album", 347),
            Map.entry("artist", 275),
            Map.entry("customer", 59),
            Map.entry("employee", 8),
            Map.entry("genre", 25),
            Map.entry("invoice", 412),
            Map.entry("invoiceline", 2240),
            Map.entry("mediatype", 5),
            Map.entry("playlist", 18),
            Map.entry("playlisttrack", 8715),
            Map.entry("track", 3503));

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        "Chinook_MySql.sql, mysql, INT, INT",
        "Chinook_MySql_AutoIncrementPKs.sql, mysql, INT, INT",
        "Chinook_PostgreSql.sql, postgresql, INT, INT",
        "Chinook_PostgreSql_SerialPKs.sql, postgresql, SERIAL, SERIAL",
        "Chinook_Sqlite.sql, sqlite, INTEGER, INTEGER",
        "Chinook_Sqlite.sqlite, sqlite, INTEGER, INTEGER"
    })
    void everyDialect(String file, String dialect, String albumIdType, String trackIdType) {
        JsonNode r = Cli.analyzeJson(data("chinook/" + file));
        assertThat(r.get("dialect").asText()).isEqualTo(dialect);
        assertThat(r.get("tables").size()).isEqualTo(11);
        for (JsonNode t : r.get("tables")) {
            String key = t.get("name").asText().toLowerCase(Locale.ROOT).replace("_", "");
            assertThat(t.get("rows").asLong())
                    .as("rows of " + key)
                    .isEqualTo(ROWS.get(key).longValue());
            assertThat(t.get("bad_rows").asLong()).isZero();
        }
        boolean snake = dialect.equals("postgresql"); // the PostgreSQL scripts name things in snake_case
        String invoiceLine = snake ? "invoice_line" : "InvoiceLine";
        JsonNode quantity = column(r, invoiceLine, "quantity");
        assertThat(kinds(quantity)).contains("constant");
        assertThat(quantity.get("min").asText()).isEqualTo("1");

        // Keys fed by a counter keep at least INT, and with a few hundred rows there is too little
        // evidence to narrow anything: AlbumId (347 rows) and TrackId (3,503 rows, at the floor)
        // stay as declared, each saying why. SQLite sizes integers by value anyway. The scripts with
        // auto-increment keys omit them from their INSERTs: the loader numbers them 1..N as the
        // database would, so the same ids come out.
        JsonNode albumId = column(r, "album", snake ? "album_id" : "AlbumId");
        JsonNode trackId = column(r, "track", snake ? "track_id" : "TrackId");
        assertThat(albumId.get("suggested_type").asText()).isEqualTo(albumIdType);
        assertThat(trackId.get("suggested_type").asText()).isEqualTo(trackIdType);
        assertThat(trackId.get("max").asText()).isEqualTo("3503");
        // The invoice total keeps its DECIMAL: 412 invoices are too little evidence of how large
        // a total grows, and its bounds are numbers, not text ('9.91' would sort above '25.86').
        JsonNode total = column(r, "invoice", "total");
        assertThat(total.get("min").asText()).isEqualTo("0.99");
        assertThat(total.get("max").asText()).isEqualTo("25.86");
        if (!dialect.equals("sqlite")) {
            assertThat(kinds(albumId)).contains("kept_declared").doesNotContain("narrow_integer");
            assertThat(kinds(trackId)).contains("kept_declared").doesNotContain("narrow_integer");
            assertThat(total.get("suggested_type").asText())
                    .isEqualTo(total.get("declared_type").asText());
            assertThat(kinds(column(r, "album", snake ? "artist_id" : "ArtistId")))
                    .contains("references");
        }
    }
}
