package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.apache.commons.codec.digest.MurmurHash3;
import org.junit.jupiter.api.Test;

/** The distinct count by 128-bit hashes is the count of a set of the values, and stays in its budget. */
class DistinctHashesTest {

    @Test
    void countsWhatASetOfTheValuesHolds() {
        Random r = new Random(32);
        DistinctHashes h = DistinctHashes.start(new DistinctHashes.Budget(64L << 20));
        Set<ByteBuffer> set = new HashSet<>();
        byte[] buffer = new byte[64];
        for (int i = 0; i < 200_000; i++) {
            // lengths 0-40 over a few letters: many repeats, prefixes of each other, the empty value
            int len = r.nextInt(41);
            int off = r.nextInt(8);
            for (int k = 0; k < len; k++) {
                buffer[off + k] = (byte) ('a' + r.nextInt(3));
            }
            assertThat(h.add(buffer, off, len)).isTrue();
            set.add(ByteBuffer.wrap(Arrays.copyOfRange(buffer, off, off + len)));
        }
        assertThat(h.count()).isEqualTo(set.size());
        assertThat(h.count()).isGreaterThan(50_000);
    }

    @Test
    void hashesAsApacheCommonsCodecsMurmurHash3() {
        Random r = new Random(128);
        DistinctHashes h = DistinctHashes.start(new DistinctHashes.Budget(1L << 20));
        byte[] b = new byte[300];
        for (int i = 0; i < 100_000; i++) {
            r.nextBytes(b);
            int len = i < 1000 ? i % 40 : r.nextInt(280); // every tail length, then any
            int off = r.nextInt(20);
            long[] expected = MurmurHash3.hash128x64(b, off, len, 0);
            assertThat(h.murmur3(b, off, len)).isEqualTo(expected[0]);
            assertThat(h.upper()).isEqualTo(expected[1]);
        }
    }

    @Test
    void givesUpPastItsBudgetAndReturnsTheMemory() {
        // 3,072 slots: the first table (1,024) and one doubling (2,048), not a second (4,096)
        DistinctHashes.Budget budget = new DistinctHashes.Budget(3072L * DistinctHashes.SLOT_BYTES);
        DistinctHashes h = DistinctHashes.start(budget);
        int added = 0;
        boolean ok = true;
        for (int i = 0; ok && i < 10_000; i++) {
            byte[] v = Integer.toString(i).getBytes();
            ok = h.add(v, 0, v.length);
            if (ok) {
                added++;
            }
        }
        assertThat(ok).isFalse();
        assertThat(added).isEqualTo((int) (2048 * 0.7));
        h.giveUp(); // the caller's part, after it poured the table into a sketch if it would
        // the slots came back: the whole budget can be taken again
        assertThat(budget.take(3072)).isTrue();
        assertThat(budget.take(1)).isFalse();
    }

    @Test
    void wordsCountWhatASetOfShortValuesHolds() {
        // values of 0-15 bytes over a few bytes, zero among them: a value and the same followed by
        // zero bytes differ only in their length, which the second word's last byte carries
        Random r = new Random(15);
        DistinctHashes h = DistinctHashes.startWords(new DistinctHashes.Budget(0, 0, 64L << 20));
        Set<ByteBuffer> set = new HashSet<>();
        byte[] buffer = new byte[32];
        for (int i = 0; i < 400_000; i++) {
            int len = r.nextInt(DistinctHashes.WORDS_MAX + 1);
            int off = r.nextInt(8);
            for (int k = 0; k < len; k++) {
                buffer[off + k] = (byte) (r.nextInt(3) == 0 ? 0 : 'a' + r.nextInt(3));
            }
            long w = ColumnFacts.prefix(buffer, off, len);
            long w2 = ColumnFacts.second(buffer, off, len);
            set.add(ByteBuffer.wrap(Arrays.copyOfRange(buffer, off, off + len)));
            assertThat(h.addWords(w, w2, len)).isTrue();
            assertThat(h.count()).isEqualTo(set.size());
            if (set.size() == DistinctHashes.WORDS_MOST) {
                // past WORDS_MOST distinct values it gives up: a key's values are left to SQL
                assertThat(h.addWords(1, 0, 16 + 1)).isFalse();
                return;
            }
        }
        throw new AssertionError("fewer than WORDS_MOST distinct values drawn: " + set.size());
    }

    @Test
    void wordsDrawOnTheirOwnSlotsAndGiveThemBack() {
        DistinctHashes.Budget budget = new DistinctHashes.Budget(0, 0, 3072L * DistinctHashes.SLOT_BYTES);
        assertThat(DistinctHashes.start(budget)).isNull(); // no slots for hashes
        DistinctHashes h = DistinctHashes.startWords(budget);
        int added = 0;
        boolean ok = true;
        for (int i = 0; ok && i < 10_000; i++) {
            byte[] v = Integer.toString(i).getBytes();
            ok = h.addWords(ColumnFacts.prefix(v, 0, v.length), ColumnFacts.second(v, 0, v.length), v.length);
            if (ok) {
                added++;
            }
        }
        assertThat(ok).isFalse();
        assertThat(added).isEqualTo((int) (2048 * 0.7));
        assertThat(budget.wordSlotsLeft()).isEqualTo(1024); // held until given up
        h.giveUp();
        assertThat(budget.wordSlotsLeft()).isEqualTo(3072);
        assertThat(DistinctHashes.startWords(budget)).isNotNull(); // the slots came back
    }
}
