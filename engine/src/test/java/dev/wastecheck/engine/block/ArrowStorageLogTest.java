package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.exec.EngineConfig;
import dev.wastecheck.layouts.Record;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code layout=arrow,log=on}: the replay's Arrow storage logs every operation (Li et al., VLDB 2020,
 * §3.4), releases each result by a commit callback after the force, and leaves a log that recovery
 * reads back to the same tables.
 */
class ArrowStorageLogTest {
    @TempDir
    Path dir;

    @Test
    void aLoggedStorageRecoversToWhatItHeld() throws Exception {
        Map<Long, String> expected = new TreeMap<>();
        long operations = 0;
        long forces;
        ArrowStorage storage = new ArrowStorage(false, 1000, 16 << 10, dir);
        try (storage) {
            assertThat(storage.logging()).isTrue();
            ArrowStore store = storage.newStore("t", ArrowDatabaseRecoveryTest.SCHEMA);
            long[] slots = new long[600];
            for (int i = 0; i < slots.length; i++) {
                Record r = ArrowDatabaseRecoveryTest.row(i, -i, i % 3 == 0 ? null : i, i / 4.0, "value number " + i);
                slots[i] = store.insert(r);
                expected.put((long) i, r.toString());
                operations++;
            }
            Record into = new Record(ArrowDatabaseRecoveryTest.SCHEMA);
            for (int i = 0; i < slots.length; i += 7) {
                // an update of a fixed and a variable-length column in place, then a read of it
                Record v = ArrowDatabaseRecoveryTest.row(i, 1000 + i, null, 0, i % 2 == 0 ? null : "updated " + i);
                store.updateInPlace(slots[i], new int[] {1, 4}, v);
                store.read(slots[i], into);
                Record r = ArrowDatabaseRecoveryTest.row(
                        i, 1000 + i, i % 3 == 0 ? null : i, i / 4.0, i % 2 == 0 ? null : "updated " + i);
                assertThat(into.toString()).isEqualTo(r.toString());
                expected.put((long) i, r.toString());
                operations += 2;
            }
            for (int i = 5; i < slots.length; i += 11) {
                store.delete(slots[i]);
                expected.remove((long) i);
                operations++;
            }
            storage.tick();
        }
        forces = storage.log().forces();
        // every operation's result was released after a force, and the forces were shared (group commit)
        assertThat(operations).isEqualTo(600 + 2 * 86 + 55);
        assertThat(storage.released()).isEqualTo(operations);
        assertThat(forces).isBetween(1L, operations);
        assertThat(Files.size(dir.resolve(ArrowDatabase.LOG_FILE))).isGreaterThan(600L * 20);

        try (ArrowDatabase db = ArrowDatabase.open(
                dir,
                List.of(new ArrowDatabase.TableDef("t", ArrowDatabaseRecoveryTest.SCHEMA)),
                false,
                16 << 10,
                ArrowTable.FreezeMode.GATHER)) {
            assertThat(db.recovery().transactionsReplayed())
                    .isEqualTo(600 + 86 + 55); // inserts, updates, deletes: reads log nothing
            assertThat(ArrowDatabaseRecoveryTest.contents(db)).isEqualTo(expected);
        }
    }

    @Test
    void theConfigurationKeyMakesATemporaryLogAndRemovesIt() {
        EngineConfig base = EngineConfig.defaults(64L << 20);
        EngineConfig cfg = EngineConfig.parse("layout=arrow,log=on", base);
        assertThat(cfg.log()).isTrue();
        assertThat(cfg.describe()).startsWith("layout=arrow,freeze=on,cold_after=1000,log=on,");
        assertThat(EngineConfig.parse("layout=arrow", base).describe()).doesNotContain("log=");
        ArrowStorage s = cfg.arrowStorage();
        Path logDir = s.logDirectory();
        ArrowStore store = s.newStore("t", ArrowDatabaseRecoveryTest.SCHEMA);
        store.insert(ArrowDatabaseRecoveryTest.row(1, 2, 3, 4, "five"));
        assertThat(Files.exists(logDir.resolve(ArrowDatabase.LOG_FILE))).isTrue();
        s.close();
        assertThat(s.released()).isEqualTo(1);
        assertThat(logDir).doesNotExist();
        assertThat(EngineConfig.parse("layout=arrow,log=off", base)
                        .arrowStorage()
                        .logging())
                .isFalse();
        assertThatThrownBy(() -> EngineConfig.parse("layout=nsm,log=on", base))
                .hasMessageContaining("log applies to layout=arrow only");
        assertThatThrownBy(() -> EngineConfig.parse("layout=arrow,log=sometimes", base))
                .hasMessageContaining("log=sometimes: expected on or off");
    }

    /**
     * Every operation's result is released, reads included: a read while the insert's COMMIT is still
     * in flight waits for its force in the flush queue (the log manager runs its callback); a read
     * once every commit is durable is released at once. (That no read is released before what it
     * read is on disk: {@code ArrowDatabaseRecoveryTest.theCallbackFiresOnlyOnceTheCommitRecordIsOnDisk}.)
     */
    @Test
    void readsAreReleasedAfterAForce() throws Exception {
        ArrowStorage storage = new ArrowStorage(false, 1000, 16 << 10, dir);
        try (storage) {
            ArrowStore store = storage.newStore("t", ArrowDatabaseRecoveryTest.SCHEMA);
            long slot = store.insert(ArrowDatabaseRecoveryTest.row(1, 2, 3, 4, "five"));
            Record into = new Record(ArrowDatabaseRecoveryTest.SCHEMA);
            for (int i = 0; i < 50; i++) store.read(slot, into);
            long deadline = System.nanoTime() + 120_000_000_000L; // a guard against a hang, not a timing
            while (!storage.log().allCommitsDurable() && System.nanoTime() < deadline) Thread.sleep(1);
            assertThat(storage.log().allCommitsDurable())
                    .as("the insert forced")
                    .isTrue();
            for (int i = 0; i < 50; i++) store.read(slot, into);
            assertThat(storage.released())
                    .as("50 reads after the force, released at once")
                    .isGreaterThanOrEqualTo(50);
        }
        assertThat(storage.released()).isEqualTo(101);
        assertThat(storage.log().callbacks())
                .as("the insert, and the reads queued behind it; none of the last 50")
                .isBetween(1L, 51L);
    }
}
