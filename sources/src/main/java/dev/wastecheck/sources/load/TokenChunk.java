package dev.wastecheck.sources.load;

import dev.wastecheck.model.sql.SqlScriptReader;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The calls the tokenizer made on its sink for a run of rows, recorded so that another thread
 * can replay them into an {@link ArrowRowBuilder}: {@link DumpLoader} tokenizes on one thread
 * and fills Arrow vectors on another. Replaying makes the very calls, in the same order, that
 * the builder would have received directly, so bad values, line numbers and batch boundaries
 * come out the same.
 *
 * <p>Layout: one {@code long} per call in {@code calls}, the value bytes back to back in
 * {@code data}:
 *
 * <pre>
 *  calls[i], bits 63..62    61..32             31..0
 *           +---------+------------------+-------------------+
 *  LINE     |   00    |    line (62 bits, whole word)         |  the builder's atLine(line)
 *  VALUE    |   01    |  index (30 bits) | kind<<24 | length   |  value(index, kind, data[at, at+length), ascii)
 *  END      |   10    |  count (30 bits) |   (next word: line) |  endRow(count, line): two words
 *           +---------+------------------+-------------------+
 *  data:  [value 0's bytes][value 1's bytes]...   (VALUE calls consume it in order)
 * </pre>
 *
 * A kind's top bit (0x80) says the tokenizer saw only ASCII bytes. Lengths are below 2^24
 * bytes here: a longer value is recorded as a call of its own
 * ({@link #BIG}) whose length takes the whole low word.
 */
final class TokenChunk implements SqlScriptReader.ValueSink {
    /** Rows before a chunk counts as full. */
    static final int ROWS = 4_096;
    /** Value bytes before a chunk counts as full (a single longer value still fits: the array grows). */
    static final int BYTES = 1 << 20;

    private static final long LINE = 0L;
    private static final long VALUE = 1L << 62;
    private static final long END = 2L << 62;
    /** A value of 2^24 bytes or more: index in bits 61..32, then a word with kind and a word with length. */
    private static final long BIG = 3L << 62;

    private static final long TAG = 3L << 62;

    /** The kind's top bit: the tokenizer saw only ASCII bytes. */
    private static final int ASCII = 0x80;

    private long[] calls = new long[ROWS * 12];
    private int ncalls;
    private byte[] data = new byte[BYTES + (BYTES >> 2)];
    private int nbytes;
    private int rows;

    /** Fillers still replaying this chunk: with two on one table, the last one done frees it. */
    final AtomicInteger pending = new AtomicInteger();
    /** Each filler's deferred counts of this chunk ({@link ArrowRowBuilder#takeEvents}). */
    @SuppressWarnings("unchecked")
    final List<ArrowRowBuilder.StatEvent>[] events = new List[2];

    /** The line the next row starts on (the builder's {@link ArrowRowBuilder#atLine}). */
    void atLine(long line) {
        add(LINE | (line & ~TAG));
    }

    @Override
    public void value(int index, int kind, byte[] bytes, int off, int len) {
        value(index, kind, bytes, off, len, false);
    }

    @Override
    public void value(int index, int kind, byte[] bytes, int off, int len, boolean ascii) {
        int k = kind | (ascii ? ASCII : 0);
        if (len < (1 << 24) && kind >= 0 && kind < ASCII) {
            if (ncalls < calls.length) {
                calls[ncalls++] = VALUE | ((long) index << 32) | ((long) k << 24) | len; // add's work, without its call
            } else {
                add(VALUE | ((long) index << 32) | ((long) k << 24) | len);
            }
        } else {
            add(BIG | ((long) index << 32));
            add(k);
            add(len);
        }
        if (len == 0) {
            return; // NULL, '': no bytes (and no arraycopy call)
        }
        if (nbytes + len > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, nbytes + len));
        }
        System.arraycopy(bytes, off, data, nbytes, len);
        nbytes += len;
    }

    @Override
    public void endRow(int count, long line) {
        add(END | ((long) count << 32));
        add(line);
        rows++;
    }

    boolean full() {
        return rows >= ROWS || nbytes >= BYTES;
    }

    boolean isEmpty() {
        return ncalls == 0;
    }

    private void add(long word) {
        if (ncalls == calls.length) {
            calls = Arrays.copyOf(calls, calls.length * 2);
        }
        calls[ncalls++] = word;
    }

    /** Empties the chunk for reuse. */
    void reset() {
        ncalls = 0;
        nbytes = 0;
        rows = 0;
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
        boolean[] skip = sink.skipIndex();
        if (skip != null) {
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

    /**
     * {@link #replay} for one of two fillers of a table: the values of the other's columns
     * ({@code skip}, by value index) are stepped over here, their bytes summed and told to the
     * builder once a row, before the row after them is checked against the batch's bounds, with
     * no call a value. The builder's {@link ArrowRowBuilder#seq} is set to each call's position,
     * which both fillers share (their deferred counts are ordered by it).
     */
    private void replayOwn(ArrowRowBuilder sink, BeforeRow beforeRow, boolean[] skip) throws InterruptedException {
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
