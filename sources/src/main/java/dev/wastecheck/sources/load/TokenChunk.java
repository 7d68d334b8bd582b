package dev.wastecheck.sources.load;

import dev.wastecheck.model.sql.RecordedRows;
import dev.wastecheck.model.sql.SqlScriptReader;
import java.util.Arrays;
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
    /**
     * Threads still at this chunk, the last one done frees it: its two fillers, or its one filler
     * and the reader counting its heavy column from the end ({@link #claim}).
     */
    final AtomicInteger pending = new AtomicInteger();

    /**
     * Joins the threads at this chunk (the reader, to {@link #countFromEnd}), unless its filler is
     * done with it already.
     */
    boolean claim() {
        while (true) {
            int p = pending.get();
            if (p <= 0) {
                return false;
            }
            if (pending.compareAndSet(p, p + 1)) {
                return true;
            }
        }
    }

    /** Leaves this chunk; whether the caller was the last at it (and so frees it). */
    boolean release() {
        return pending.decrementAndGet() <= 0;
    }

    /** Each filler's deferred counts of this chunk ({@link ArrowRowBuilder#takeEvents}). */
    @SuppressWarnings("unchecked")
    final List<ArrowRowBuilder.StatEvent>[] events = new List[2];

    // the characters of one column's values, counted by the second filler (or, with one filler, the
    // reader) from the chunk's end while the filler fills from its start (countFromEnd): per call,
    // valid from countedFrom on
    private int[] counted = new int[0];
    /** The lowest call whose characters {@link #counted} holds; past the end: none. */
    private volatile int countedFrom = Integer.MAX_VALUE;
    /** The call the filler is at in the counted column: the counting side stops below it. */
    private volatile int fillingAt = -1;
    /** The counted column's calls and their bytes' offsets (the counting side's, reused). */
    private int[] heavyCalls = new int[256];

    private int[] heavyAt = new int[256];

    /**
     * The characters {@link #countFromEnd} counted of call {@code call}'s value (a value of the
     * column it counted), or {@link ArrowRowBuilder#NOT_COUNTED}.
     */
    int countedChars(int call) {
        return call >= countedFrom ? counted[call] : ArrowRowBuilder.NOT_COUNTED;
    }

    /** Empties the chunk for reuse. */
    @Override
    public void reset() {
        super.reset();
        pending.set(0);
        events[0] = null;
        events[1] = null;
        countedFrom = Integer.MAX_VALUE;
        fillingAt = -1;
    }

    /**
     * The second filler's share of the first's heavy column ({@link ArrowRowBuilder#countedIndex}),
     * or with one filler the reader's while the filler is behind ({@code DumpLoader.countThenPut}):
     * {@link Utf8#chars} of the values at value index {@code index}, from the chunk's last toward
     * its first, until it meets the filler, which fills from the start and takes each count found
     * here ({@link #replay}, {@link #replayOwn}) instead of counting again. Each count is published (a
     * volatile write of {@link #countedFrom}) after it is stored; the first reads it before the
     * count. Every value of the column but those of 2^24 bytes or more (calls of their own, left to
     * the first) is counted, so that no count of an earlier chunk is left in its slot; an ASCII
     * value's is its length, read off the reader's bit. A count either side makes is the same, so
     * which side counts a value changes nothing but where the work runs.
     */
    void countFromEnd(int index) {
        int at = 0;
        int m = 0;
        for (int i = 0; i < ncalls; i++) {
            long w = calls[i];
            long tag = w & TAG;
            if (tag == VALUE) {
                if (((w >>> 32) & 0x3FFFFFFF) == index) {
                    if (m == heavyCalls.length) {
                        heavyCalls = Arrays.copyOf(heavyCalls, 2 * m);
                        heavyAt = Arrays.copyOf(heavyAt, 2 * m);
                    }
                    heavyCalls[m] = i;
                    heavyAt[m++] = at;
                }
                at += (int) (w & 0xFFFFFF);
            } else if (tag == END) {
                i++;
            } else if (tag == BIG) {
                at += (int) calls[i + 2];
                i += 2;
            }
        }
        if (counted.length < ncalls) {
            counted = new int[calls.length];
        }
        int[] c = counted;
        for (int j = m - 1; j >= 0; j--) {
            int i = heavyCalls[j];
            if (i <= fillingAt) {
                return; // the first filler is there: it counts the rest
            }
            long w = calls[i];
            int len = (int) (w & 0xFFFFFF);
            // an ASCII value (the reader's bit) has its length's characters: nothing to read
            c[i] = (((w >>> 24) & ASCII) != 0) ? len : Utf8.chars(data, heavyAt[j], len);
            countedFrom = i;
        }
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

    /**
     * The bits of a VALUE word that are 0 for a NULL and only for it: kind 0 ({@link
     * SqlScriptReader#NULL}, the ASCII bit aside) and length 0.
     */
    private static final int NULL_BITS = 0x7FFFFFFF;

    /** What a replay does at each recorded line, before the builder hears of it. */
    interface BeforeRow {
        void run() throws InterruptedException;
    }

    /**
     * Makes the recorded calls on {@code sink}; {@code beforeRow} runs before each recorded
     * {@code atLine} (where the loader checks whether the Arrow batch is full).
     */
    void replay(ArrowRowBuilder sink, BeforeRow beforeRow) throws InterruptedException {
        boolean[] skip = sink.skipIndex();
        int heavy = sink.countedIndex(); // one filler's heavy column, counted from the end by the reader
        if (skip != null && heavy >= 0) {
            // a heavy column counted from both ends; other splits replay every call (stepping over
            // the other's values in replayOwn did not pay on ORM, pandas, MediaWiki: docs/benchmarks.md)
            replayOwn(sink, beforeRow, skip);
            return;
        }
        int at = 0;
        for (int i = 0; i < ncalls; i++) {
            long w = calls[i];
            long tag = w & TAG;
            if (tag == LINE) {
                beforeRow.run();
                sink.atLine(w);
            } else if (tag == VALUE) {
                if (((int) w & NULL_BITS) == 0 && sink.freeNulls) {
                    sink.seq++; // a NULL: as the builder's call would count it, and nothing else to do
                    continue;
                }
                int len = (int) (w & 0xFFFFFF);
                int k = (int) ((w >>> 24) & 0xFF);
                int index = (int) ((w >>> 32) & 0x3FFFFFFF);
                if (index == heavy) {
                    fillingAt = i; // countFromEnd stops below it
                    sink.value(index, k & ~ASCII, data, at, len, (k & ASCII) != 0, countedChars(i));
                } else {
                    sink.value(index, k & ~ASCII, data, at, len, (k & ASCII) != 0);
                }
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

    /**
     * {@link #replay} for the filler of a heavy column ({@link #countFromEnd}), one of two fillers
     * of a table: the values of the other's columns
     * ({@code skip}, by value index) are stepped over here, their bytes summed and told to the
     * builder once a row, before the row after them is checked against the batch's bounds, with
     * no call a value. The builder's {@link ArrowRowBuilder#seq} is set to each call's position,
     * which both fillers share (their deferred counts are ordered by it).
     */
    private void replayOwn(ArrowRowBuilder sink, BeforeRow beforeRow, boolean[] skip) throws InterruptedException {
        int heavy = sink.countedIndex();
        int at = 0;
        long skipped = 0; // bytes of the other's values since the last row's start
        int n = skip.length;
        for (int i = 0; i < ncalls; i++) {
            long w = calls[i];
            long tag = w & TAG;
            if (tag == VALUE) {
                int len = (int) (w & 0xFFFFFF);
                int index = (int) ((w >>> 32) & 0x3FFFFFFF);
                int k = (int) ((w >>> 24) & 0xFF);
                if (index < n && skip[index]) {
                    skipped += (k & ~ASCII) == SqlScriptReader.NULL ? 0 : len; // as the builder counts them
                } else if (((int) w & NULL_BITS) == 0 && sink.freeNulls) {
                    // a NULL of this side's column: nothing to do ({@link ArrowRowBuilder#freeNulls})
                } else if (index == heavy) {
                    fillingAt = i;
                    int chars = countedChars(i);
                    sink.seq = i;
                    sink.value(index, k & ~ASCII, data, at, len, (k & ASCII) != 0, chars);
                } else {
                    sink.seq = i;
                    sink.value(index, k & ~ASCII, data, at, len, (k & ASCII) != 0);
                }
                at += len;
            } else if (tag == LINE) {
                if (skipped != 0) {
                    sink.skipped(skipped);
                    skipped = 0;
                }
                beforeRow.run();
                sink.atLine(w);
            } else if (tag == END) {
                sink.seq = i;
                sink.endRow((int) ((w >>> 32) & 0x3FFFFFFF), calls[++i]);
            } else {
                int index = (int) ((w >>> 32) & 0x3FFFFFFF);
                int k = (int) calls[++i];
                int len = (int) calls[++i];
                if (index < n && skip[index]) {
                    skipped += (k & ~ASCII) == SqlScriptReader.NULL ? 0 : len;
                } else {
                    sink.seq = i;
                    sink.value(index, k & ~ASCII, data, at, len, (k & ASCII) != 0);
                }
                at += len;
            }
        }
        if (skipped != 0) {
            sink.skipped(skipped);
        }
    }
}
