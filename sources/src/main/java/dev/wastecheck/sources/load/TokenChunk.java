package dev.wastecheck.sources.load;

import dev.wastecheck.model.sql.RecordedRows;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls the tokenizer made on its sink for a run of rows ({@link RecordedRows}: its words and
 * bytes, drawn there), replayed by another thread into an {@link ArrowRowBuilder}: {@link
 * DumpLoader} tokenizes on one thread and fills Arrow vectors on another. Replaying makes the
 * very calls, in the same order, that the builder would have received directly, so bad values,
 * line numbers and batch boundaries come out the same.
 */
final class TokenChunk extends RecordedRows {
    /** Fillers still replaying this chunk: with two on one table, the last one done frees it. */
    final AtomicInteger pending = new AtomicInteger();
    /** Each filler's deferred counts of this chunk ({@link ArrowRowBuilder#takeEvents}). */
    @SuppressWarnings("unchecked")
    final List<ArrowRowBuilder.StatEvent>[] events = new List[2];

    /** Empties the chunk for reuse. */
    @Override
    public void reset() {
        super.reset();
        events[0] = null;
        events[1] = null;
    }

    /**
     * Adds to {@code weight}, per column of {@code sink}, what filling this chunk's values costs
     * ({@link ArrowRowBuilder#cost}): what splitting a table's columns over two fillers balances.
     */
    void weigh(ArrowRowBuilder sink, long[] weight) {
        int at = 0;
        for (int i = 0; i < ncalls; i++) {
            long w = calls[i];
            long tag = w & TAG;
            if (tag == VALUE) {
                int len = (int) (w & 0xFFFFFF);
                int col = sink.column((int) ((w >>> 32) & 0x3FFFFFFF));
                if (col >= 0) {
                    weight[col] += sink.cost(col, (int) ((w >>> 24) & 0xFF) & ~ASCII, data, at, len);
                }
                at += len;
            } else if (tag == END) {
                i++;
            } else if (tag == BIG) {
                int col = sink.column((int) ((w >>> 32) & 0x3FFFFFFF));
                int k = (int) calls[i + 1];
                int len = (int) calls[i + 2];
                if (col >= 0) {
                    weight[col] += sink.cost(col, k & ~ASCII, data, at, len);
                }
                at += len;
                i += 2;
            }
        }
    }

    /** What a replay does at each recorded line, before the builder hears of it. */
    interface BeforeRow {
        void run() throws InterruptedException;
    }

    /**
     * Makes the recorded calls on {@code sink}; {@code beforeRow} runs before each recorded
     * {@code atLine} (where the loader checks whether the Arrow batch is full).
     */
    void replay(ArrowRowBuilder sink, BeforeRow beforeRow) throws InterruptedException {
        int at = 0;
        for (int i = 0; i < ncalls; i++) {
            long w = calls[i];
            long tag = w & TAG;
            if (tag == LINE) {
                beforeRow.run();
                sink.atLine(w);
            } else if (tag == VALUE) {
                int len = (int) (w & 0xFFFFFF);
                int k = (int) ((w >>> 24) & 0xFF);
                sink.value((int) ((w >>> 32) & 0x3FFFFFFF), k & ~ASCII, data, at, len, (k & ASCII) != 0);
                at += len;
            } else if (tag == END) {
                sink.endRow((int) ((w >>> 32) & 0x3FFFFFFF), calls[++i]);
            } else {
                int index = (int) ((w >>> 32) & 0x3FFFFFFF);
                int k = (int) calls[++i];
                int len = (int) calls[++i];
                sink.value(index, k & ~ASCII, data, at, len, (k & ASCII) != 0);
                at += len;
            }
        }
    }
}
