package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.sql.SqlScriptReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * {@link DumpLoader#countThenPut}: while the filler has no room for the next chunk, the reader
 * counts the heavy column's characters in the chunks it handed over (the latest first), the chunk
 * freed by whichever of the two is last at it; a chunk its filler is done with is not touched.
 * (That one filler with the reader counting loads what one alone loads: TwoFillersTest in the
 * analyzer's tests.)
 */
class ReaderCountsTest {

    @Test
    void theReaderCountsAHandedChunkWhileTheFillerHasNoRoom() throws Exception {
        List<Integer> expected = new ArrayList<>();
        TokenChunk older = chunk(new Random(1), new ArrayList<>());
        TokenChunk latest = chunk(new Random(2), expected);
        older.pending.set(1); // as the reader hands them over: the filler's
        latest.pending.set(1);
        ArrayDeque<TokenChunk> handed = new ArrayDeque<>(List.of(older, latest));
        BlockingQueue<Object> steps = new ArrayBlockingQueue<>(1);
        steps.add("the chunk the filler is behind on");
        BlockingQueue<TokenChunk> free = new ArrayBlockingQueue<>(2);
        AtomicLong counted = new AtomicLong();
        Thread filler = new Thread(() -> {
            try {
                TimeUnit.MILLISECONDS.sleep(200);
                steps.take(); // room at last
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        filler.start();
        DumpLoader.countThenPut(steps, "next", free, handed, new AtomicInteger(1), counted, false);
        filler.join();
        assertThat(steps).containsExactly("next");
        assertThat(counted.get())
                .as("both handed chunks counted while there was no room")
                .isEqualTo(2);
        assertThat(handed).isEmpty();
        for (int i = 0; i < expected.size(); i++) {
            if (expected.get(i) != null) {
                assertThat(latest.countedChars(i)).as("call %d", i).isEqualTo(expected.get(i));
            }
        }
        // the filler still holds them: the last of the two frees each, the reader freed neither
        assertThat(free).isEmpty();
        assertThat(latest.pending.get()).isEqualTo(1);
        assertThat(latest.release()).isTrue();
    }

    @Test
    void aChunkTheFillerIsDoneWithIsLeftAlone() throws Exception {
        TokenChunk done = chunk(new Random(3), new ArrayList<>());
        done.pending.set(1);
        assertThat(done.release()).as("the filler, done first, frees it").isTrue();
        done.reset();
        ArrayDeque<TokenChunk> handed = new ArrayDeque<>(List.of(done));
        BlockingQueue<Object> steps = new ArrayBlockingQueue<>(1);
        AtomicLong counted = new AtomicLong();
        DumpLoader.countThenPut(
                steps, "next", new ArrayBlockingQueue<>(1), handed, new AtomicInteger(1), counted, false);
        assertThat(counted.get()).isZero();
        assertThat(steps).containsExactly("next");
        assertThat(done.pending.get()).isZero();
    }

    @Test
    void withoutAHeavyColumnTheReaderWaits() throws Exception {
        TokenChunk c = chunk(new Random(4), new ArrayList<>());
        c.pending.set(1);
        AtomicLong counted = new AtomicLong();
        DumpLoader.countThenPut(
                new ArrayBlockingQueue<>(1),
                "next",
                new ArrayBlockingQueue<>(1),
                new ArrayDeque<>(List.of(c)),
                new AtomicInteger(-1),
                counted,
                false);
        assertThat(counted.get()).isZero();
        assertThat(c.pending.get()).isEqualTo(1);
    }

    /** A chunk of rows of three columns, column 1 long UTF-8; per call, column 1's count or null. */
    private static TokenChunk chunk(Random r, List<Integer> calls) {
        String[] pieces = {"über", "データ", "😀", "x", "Москва", " "};
        TokenChunk chunk = new TokenChunk();
        for (int row = 0; row < 300; row++) {
            chunk.atLine(row + 1);
            calls.add(null);
            for (int index = 0; index < 3; index++) {
                StringBuilder sb = new StringBuilder();
                for (int k = r.nextInt(30); k >= 0; k--) {
                    sb.append(pieces[r.nextInt(pieces.length)]);
                }
                byte[] v = sb.toString().getBytes(StandardCharsets.UTF_8);
                chunk.value(index, SqlScriptReader.STRING, v, 0, v.length, false);
                calls.add(index == 1 ? Utf8.chars(v, 0, v.length) : null);
            }
            chunk.endRow(3, row + 1);
            calls.add(null);
            calls.add(null);
        }
        return chunk;
    }
}
