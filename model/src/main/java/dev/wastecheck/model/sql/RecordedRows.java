package dev.wastecheck.model.sql;

import java.util.Arrays;

/**
 * The calls the tokenizer makes on a {@link SqlScriptReader.ValueSink} for a run of rows,
 * recorded as words and bytes so that another thread can replay them. {@link
 * SqlScriptReader#nextTuples} writes a row's NULLs and plain numbers into these arrays itself,
 * in its loop over the row, instead of one sink call a value; every other value, a COPY row and
 * a caller of the sink interface record through {@link #value} and {@link #endRow}. Either way
 * the words and bytes are the same.
 *
 * <p>Layout: one {@code long} per call in {@code calls}, the value bytes back to back in
 * {@code data}:
 *
 * <pre>
 *  calls[i], bits 63..62    61..32             31..0
 *           +---------+------------------+-------------------+
 *  LINE     |   00    |    line (62 bits, whole word)         |  atLine(line)
 *  VALUE    |   01    |  index (30 bits) | kind<<24 | length   |  value(index, kind, data[at, at+length), ascii)
 *  END      |   10    |  count (30 bits) |   (next word: line) |  endRow(count, line): two words
 *  BIG      |   11    |  index (30 bits) |   (unused)          |  a value of 2^24 bytes or more: three words,
 *           +---------+------------------+-------------------+    then kind | ascii, then length
 *  data:  [value 0's bytes][value 1's bytes]...   (VALUE and BIG calls consume it in order)
 * </pre>
 *
 * A kind's top bit (0x80) says the tokenizer saw only ASCII bytes. A NULL is a VALUE word of
 * kind 0 and length 0, no bytes.
 */
public class RecordedRows implements SqlScriptReader.ValueSink {
    /** Rows before the record counts as full. */
    public static final int ROWS = 4_096;
    /** Value bytes before the record counts as full (a single longer value still fits: the array grows). */
    public static final int BYTES = 1 << 20;

    protected static final long LINE = 0L;
    protected static final long VALUE = 1L << 62;
    protected static final long END = 2L << 62;
    /** A value of 2^24 bytes or more: index in bits 61..32, then a word with kind and a word with length. */
    protected static final long BIG = 3L << 62;

    protected static final long TAG = 3L << 62;

    /** The kind's top bit: the tokenizer saw only ASCII bytes. */
    protected static final int ASCII = 0x80;

    protected long[] calls = new long[ROWS * 12];
    protected int ncalls;
    protected byte[] data = new byte[BYTES + (BYTES >> 2)];
    protected int nbytes;
    protected int rows;

    /** The line the next row starts on. */
    public final void atLine(long line) {
        add(LINE | (line & ~TAG));
    }

    @Override
    public final void value(int index, int kind, byte[] bytes, int off, int len) {
        value(index, kind, bytes, off, len, false);
    }

    @Override
    public final void value(int index, int kind, byte[] bytes, int off, int len, boolean ascii) {
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

    /**
     * As {@link #value(int, int, byte[], int, int, boolean)} for a value whose {@code len} bytes the
     * tokenizer already wrote into {@code data} past {@code nbytes} (growing the array as {@link
     * #dataRoom} grows it): the words, no copy.
     */
    final void recorded(int index, int kind, int len, boolean ascii) {
        int k = kind | (ascii ? ASCII : 0);
        if (len < (1 << 24)) {
            add(VALUE | ((long) index << 32) | ((long) k << 24) | len);
        } else {
            add(BIG | ((long) index << 32));
            add(k);
            add(len);
        }
        nbytes += len;
    }

    @Override
    public final void endRow(int count, long line) {
        add(END | ((long) count << 32));
        add(line);
        rows++;
    }

    public final boolean full() {
        return rows >= ROWS || nbytes >= BYTES;
    }

    public final boolean isEmpty() {
        return ncalls == 0;
    }

    private void add(long word) {
        if (ncalls == calls.length) {
            calls = Arrays.copyOf(calls, calls.length * 2);
        }
        calls[ncalls++] = word;
    }

    /** {@code calls} with room for {@code more} words past {@code ncalls}. */
    final long[] room(int more) {
        if (ncalls + more > calls.length) {
            calls = Arrays.copyOf(calls, Math.max(calls.length * 2, ncalls + more));
        }
        return calls;
    }

    /** {@code data} with room for {@code more} bytes past {@code nbytes}. */
    final byte[] dataRoom(int more) {
        if (nbytes + more > data.length) {
            data = Arrays.copyOf(data, Math.max(data.length * 2, nbytes + more));
        }
        return data;
    }

    /** Empties the record for reuse. */
    public void reset() {
        ncalls = 0;
        nbytes = 0;
        rows = 0;
    }

    /** Whether {@code other} recorded the same words and bytes (what a replay of either makes). */
    public final boolean sameAs(RecordedRows other) {
        return ncalls == other.ncalls
                && nbytes == other.nbytes
                && rows == other.rows
                && Arrays.equals(calls, 0, ncalls, other.calls, 0, ncalls)
                && Arrays.equals(data, 0, nbytes, other.data, 0, nbytes);
    }
}
