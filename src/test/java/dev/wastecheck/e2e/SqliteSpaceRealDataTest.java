package dev.wastecheck.e2e;

import static dev.wastecheck.e2e.Cli.data;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A database file's pages as {@code sqlite3_analyzer} counts them: the shared Chinook file's tables
 * and indexes, their bytes and the bytes unused on their pages, and its freelist. The expected
 * figures were recorded from Debian's {@code sqlite3-tools} 3.40.1 ({@code sqlite3_analyzer
 * Chinook_Sqlite.sqlite}, 2026-11-27): the test compares with them rather than installing the tool.
 */
@Tag("real-data")
class SqliteSpaceRealDataTest {

    private static JsonNode index(JsonNode space, String name) {
        for (JsonNode ix : space.get("indexes")) {
            if (ix.get("name").asText().equals(name)) {
                return ix;
            }
        }
        throw new AssertionError("no index " + name + " in " + space);
    }

    @Test
    void chinookPagesAndUnusedBytesAreSqlite3AnalyzersFigures() {
        JsonNode report = Cli.analyzeJson(data("chinook/Chinook_Sqlite.sqlite"));
        // "Pages in the whole file (measured) 246", page size 4096, "Pages on the freelist (per header) 0"
        JsonNode file = report.get("file_space");
        assertThat(file.get("data_bytes").asLong()).isEqualTo(246L * 4096);
        assertThat(file.get("free_bytes").asLong()).isZero();
        // "Table TRACK w/o any indices": bytes of storage consumed 237568, unused bytes on all pages 7024
        JsonNode track = Cli.table(report, "Track").get("space");
        assertThat(track.get("data_bytes").asLong()).isEqualTo(237_568);
        assertThat(track.get("free_bytes").asLong()).isEqualTo(7_024);
        // "Table TRACK and all its indices": 356352
        assertThat(track.get("engine_bytes").asLong()).isEqualTo(356_352);
        // "Index IFK_TRACKALBUMID of table TRACK": 40960 consumed, 7538 unused
        assertThat(index(track, "IFK_TrackAlbumId").get("measured_bytes").asLong())
                .isEqualTo(40_960);
        assertThat(index(track, "IFK_TrackAlbumId").get("free_bytes").asLong()).isEqualTo(7_538);
        // "Index SQLITE_AUTOINDEX_PLAYLISTTRACK_1": 122880 consumed, 21688 unused; the table and its indices 409600
        JsonNode playlistTrack = Cli.table(report, "PlaylistTrack").get("space");
        JsonNode auto = index(playlistTrack, "sqlite_autoindex_PlaylistTrack_1");
        assertThat(auto.get("measured_bytes").asLong()).isEqualTo(122_880);
        assertThat(auto.get("free_bytes").asLong()).isEqualTo(21_688);
        assertThat(auto.get("unique").asBoolean()).isTrue();
        assertThat(playlistTrack.get("engine_bytes").asLong()).isEqualTo(409_600);
        // the account of a file adds up to the table's and its indexes' pages
        assertThat(track.get("account").get("total_bytes").asLong()).isEqualTo(356_352);
    }
}
