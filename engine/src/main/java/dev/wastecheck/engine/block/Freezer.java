package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.BlockLayout;
import dev.wastecheck.layouts.arrow.FrozenVarlen;
import dev.wastecheck.layouts.arrow.VarlenEntry;
import dev.wastecheck.layouts.arrow.VarlenHeap;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The second phase of the transformation (Li et al., VLDB 2020, §4.3): turns a compacted, cooled
 * block into canonical Arrow. It checks that no version is left and that the tuples fill slots
 * [0, n) with no gap, moves the block to FREEZING (unless a writer preempted it), fills in the Arrow
 * metadata (length and null counts), and for each variable-length column either gathers the values
 * into one contiguous buffer with offsets or builds a sorted dictionary (§4.4). The entries are
 * swung to point into the new buffer, so transactional readers keep reading valid bytes throughout,
 * and the old values are freed once no reader can hold them. Not transactional: writers wait while
 * the block is FREEZING, which takes well under a millisecond per block.
 */
final class Freezer {
    private final ArrowTable table;
    private final BlockLayout layout;
    private final VarlenHeap heap;
    private final byte[] inline = new byte[VarlenEntry.INLINE_THRESHOLD];

    Freezer(ArrowTable table) {
        this.table = table;
        this.layout = table.layout();
        this.heap = table.heap();
    }

    enum Outcome {
        FROZEN,
        /** Still COOLING, but a version or a gap is left (the collector has not pruned the compaction yet): try again later. */
        NOT_READY,
        /**
         * Still COOLING with no version left, but with a gap: a tuple deleted after compaction read the
         * block's bitmap and before it marked the block. Back to HOT, to be compacted again.
         */
        GAPS,
        /** A writer flipped the block back to HOT (or it left the table): the freeze is off. */
        PREEMPTED
    }

    /** Freezes a COOLING block. */
    Outcome freeze(Block b) {
        return freeze(b, null);
    }

    /**
     * Freezes a COOLING block whose VARLEN columns were already gathered (by column, null elsewhere),
     * or gathers them now if {@code prepared} is null. A prepared block ({@link InPlaceTransformer})
     * needs no copy under the FREEZING flag: its entries already point into {@code prepared}.
     */
    Outcome freeze(Block b, FrozenVarlen[] prepared) {
        if (b.removed || b.state() != ArrowBlock.COOLING) return Outcome.PREEMPTED;
        int n = contiguousRecords(b);
        if (n == VERSIONS) return Outcome.NOT_READY;
        if (n == GAP) return BlockAccess.stopCooling(b) ? Outcome.GAPS : Outcome.PREEMPTED;
        if (!BlockAccess.startFreezing(b)) return Outcome.PREEMPTED;
        if (prepared == null) {
            transform(b, n);
        } else {
            metadata(b.data, n);
            table.setFrozen(b, prepared);
        }
        BlockAccess.finishFreezing(b);
        return Outcome.FROZEN;
    }

    private static final int VERSIONS = -1, GAP = -2;

    /**
     * The tuple count n if slots [0, n) hold tuples and the others none, with no version on any
     * slot; else {@link #VERSIONS} (some slot has a version chain) or {@link #GAP}.
     */
    private static int contiguousRecords(Block b) {
        ArrowBlock d = b.data;
        int head = d.insertHead();
        int n = -1;
        boolean gap = false;
        for (int off = 0; off < head; off++) {
            if (b.versions.get(off) != null) return VERSIONS;
            boolean alloc = d.isAllocated(off);
            if (!alloc && n < 0) n = off;
            else if (alloc && n >= 0) gap = true;
        }
        if (gap) return GAP;
        return n < 0 ? head : n;
    }

    /** Fills the Arrow metadata and builds the VARLEN columns' frozen buffers (the block is FREEZING). */
    void transform(Block b, int n) {
        ArrowBlock d = b.data;
        metadata(d, n);
        FrozenVarlen[] frozen = new FrozenVarlen[layout.columns()];
        for (int c : layout.varlenColumns()) {
            frozen[c] = table.freezeMode() == ArrowTable.FreezeMode.DICTIONARY
                    ? dictionary(d, c, n)
                    : gather(b, c, n, null);
        }
        table.setFrozen(b, frozen);
    }

    /** The Arrow metadata of a block whose tuples fill slots [0, n): its length and each column's null count. */
    private void metadata(ArrowBlock d, int n) {
        d.setNumRecords(n);
        for (int c = 0; c < layout.columns(); c++) d.setNullCount(c, n - validCount(d, c, n));
    }

    private static int validCount(ArrowBlock d, int c, int n) {
        int count = 0, words = n >>> 6;
        for (int w = 0; w < words; w++) count += Long.bitCount(d.validityWord(c, w));
        if ((n & 63) != 0) count += Long.bitCount(d.validityWord(c, words) & ((1L << (n & 63)) - 1));
        return count;
    }

    /**
     * Gathers column {@code c}'s values into one Arrow values buffer with offsets, in two passes over
     * the entries: sizes, then copies. The new buffer is registered with the heap before the copy
     * (its live bytes are known from the first pass). Once every value is in place, each out-of-line
     * entry is swung to its new home: with plain stores under the FREEZING flag ({@code txn} null,
     * the hybrid algorithm of §4.3), or, for the In-Place baseline of §6.2, by a transactional update
     * of the entry in {@code txn} (an undo record each, which owns the old value and frees it once the
     * transaction is old news). Returns null if such an update conflicts (the transaction must abort).
     */
    FrozenVarlen gather(Block b, int c, int n, Transaction txn) {
        ArrowBlock d = b.data;
        int words = (n + 63) >>> 6;
        ByteBuffer block = d.buffer();
        int entries = layout.valuesOffset(c);
        long total = 0, live = 0;
        int outOfLine = 0;
        for (int w = 0; w < words; w++) {
            for (long valid = validWord(d, c, w, n); valid != 0; valid &= valid - 1) {
                int size =
                        VarlenEntry.size(block.getLong(entries + 16 * ((w << 6) + Long.numberOfTrailingZeros(valid))));
                total += size;
                if (size > VarlenEntry.INLINE_THRESHOLD) {
                    live += size;
                    outOfLine++;
                }
            }
        }
        FrozenVarlen g = FrozenVarlen.gathered(n, total);
        g.registered(heap.register(g.buffer(), live));
        ByteBuffer out = g.buffer();
        int base = g.valuesOffset(), end = out.capacity(), offsets = g.offsetsOffset();
        long handleBase = g.handle(0);
        long[] oldHandles = new long[outOfLine];
        int[] oldSizes = new int[outOfLine];
        int old = 0, acc = 0;
        // Out-of-line values that sit back to back in one chunk (inserted together, or gathered
        // before) form a run that moves in one bulk copy.
        long runStart = -1;
        int runLength = 0, runTo = 0;
        for (int w = 0; w < words; w++) {
            long valid = validWord(d, c, w, n);
            for (int off = w << 6, last = Math.min(n, off + 64); off < last; off++, valid >>>= 1) {
                out.putInt(offsets + 4 * off, acc);
                if ((valid & 1) == 0) continue;
                int entry = entries + 16 * off;
                long w0 = block.getLong(entry), w1 = block.getLong(entry + 8);
                int size = VarlenEntry.size(w0);
                int at = base + acc;
                if (size <= VarlenEntry.INLINE_THRESHOLD) {
                    if (runLength > 0) {
                        copyRun(runStart, out, runTo, runLength);
                        runLength = 0;
                    }
                    if (at + 12 <= end) {
                        out.putInt(at, VarlenEntry.prefix(w0));
                        out.putLong(at + 4, w1);
                    } else {
                        VarlenEntry.copyInline(w0, w1, inline, 0);
                        out.put(at, inline, 0, size);
                    }
                } else {
                    if (runLength > 0 && w1 == runStart + runLength) {
                        runLength += size;
                    } else {
                        if (runLength > 0) copyRun(runStart, out, runTo, runLength);
                        runStart = w1;
                        runLength = size;
                        runTo = at;
                    }
                    oldHandles[old] = w1;
                    oldSizes[old++] = size;
                }
                acc += size;
            }
        }
        if (runLength > 0) copyRun(runStart, out, runTo, runLength);
        g.setOffset(n, acc);
        if (txn != null) return swingInTransaction(b, c, n, g, txn) ? g : null;
        // Every value is in place before any entry points at it: one fence, then plain 8-byte stores
        // (a concurrent transactional reader sees the old or the new pointer, both valid).
        VarHandle.releaseFence();
        for (int w = 0; w < words; w++) {
            for (long valid = validWord(d, c, w, n); valid != 0; valid &= valid - 1) {
                int off = (w << 6) + Long.numberOfTrailingZeros(valid);
                int entry = entries + 16 * off;
                if (!VarlenEntry.isInline(block.getLong(entry)))
                    block.putLong(entry + 8, handleBase + out.getInt(offsets + 4 * off));
            }
        }
        if (old > 0) table.deferFree(oldHandles, oldSizes);
        return g;
    }

    /**
     * Points each out-of-line entry of column {@code c} at its gathered copy by an update in {@code
     * txn}. On a conflict, the copies no entry points at yet are freed at once (nothing can reach
     * them); those already swung are freed by their records' rollback when the transaction aborts.
     */
    private boolean swingInTransaction(Block b, int c, int n, FrozenVarlen g, Transaction txn) {
        ArrowBlock d = b.data;
        long handleBase = g.handle(0);
        for (int off = 0; off < n; off++) {
            if (!d.isValid(c, off)) continue;
            long w0 = d.entryWord0(c, off);
            if (VarlenEntry.isInline(w0)) continue;
            long to = handleBase + g.offset(off);
            if (!table.updateEntry(txn, b, off, c, w0, to)) {
                for (int rest = off; rest < n; rest++) {
                    long r0 = d.entryWord0(c, rest);
                    if (d.isValid(c, rest) && !VarlenEntry.isInline(r0))
                        heap.free(handleBase + g.offset(rest), VarlenEntry.size(r0));
                }
                return false;
            }
        }
        return true;
    }

    /** Word {@code w} of column {@code c}'s validity bitmap, cut at record {@code n}. */
    private static long validWord(ArrowBlock d, int c, int w, int n) {
        long v = d.validityWord(c, w);
        int left = n - (w << 6);
        return left >= 64 ? v : v & ((1L << left) - 1);
    }

    /** Copies {@code length} bytes starting at heap handle {@code from} (one chunk) into {@code out}. */
    private void copyRun(long from, ByteBuffer out, int to, int length) {
        out.put(to, heap.buffer(from), VarlenHeap.offset(from), length);
    }

    /**
     * Builds a sorted dictionary of column {@code c}'s distinct values and an index per record (§4.4),
     * in the paper's two scans: the first copies every value into one array and finds the distinct
     * ones (an open-addressing table over that array, no object per value); the second sorts the
     * distinct values (by their first 44 bits packed with their number into one long, so that a
     * primitive sort does most of the work; values that share those bits are ordered byte by byte)
     * and writes the dictionary and the codes.
     */
    FrozenVarlen dictionary(ArrowBlock d, int c, int n) {
        int[] start = new int[n + 1];
        long total = 0;
        for (int off = 0; off < n; off++) if (d.isValid(c, off)) total += VarlenEntry.size(d.entryWord0(c, off));
        byte[] bytes = new byte[Math.toIntExact(total)];
        int pos = 0;
        for (int off = 0; off < n; off++) {
            start[off] = pos;
            if (!d.isValid(c, off)) continue;
            long w0 = d.entryWord0(c, off), w1 = d.entryWord1(c, off);
            int size = VarlenEntry.size(w0);
            if (VarlenEntry.isInline(w0)) VarlenEntry.copyInline(w0, w1, bytes, pos);
            else heap.read(w1, bytes, pos, size);
            pos += size;
        }
        start[n] = pos;
        // First scan: the distinct values, by the record that holds each first.
        int capacity = Integer.highestOneBit(Math.max(16, 2 * n)) << 1, mask = capacity - 1;
        int[] slots = new int[capacity];
        Arrays.fill(slots, -1);
        int[] id = new int[n], first = new int[n];
        int distinct = 0;
        long distinctBytes = 0;
        for (int off = 0; off < n; off++) {
            if (!d.isValid(c, off)) continue;
            int from = start[off], to = start[off + 1];
            int h = hash(bytes, from, to) & mask;
            while (true) {
                int k = slots[h];
                if (k < 0) {
                    slots[h] = distinct;
                    first[distinct] = off;
                    id[off] = distinct++;
                    distinctBytes += to - from;
                    break;
                }
                int f = first[k];
                if (Arrays.equals(bytes, start[f], start[f + 1], bytes, from, to)) {
                    id[off] = k;
                    break;
                }
                h = (h + 1) & mask;
            }
        }
        // Second scan: sort the distinct values, then the dictionary and a code per record.
        long[] packed = new long[distinct];
        for (int k = 0; k < distinct; k++)
            packed[k] = ((prefix(bytes, start[first[k]], start[first[k] + 1]) >>> 20) << 20 | k) ^ Long.MIN_VALUE;
        Arrays.sort(packed);
        int[] sorted = new int[distinct];
        for (int i = 0; i < distinct; i++) sorted[i] = (int) (packed[i] & 0xFFFFF);
        for (int i = 0; i < distinct; ) {
            int j = i + 1;
            while (j < distinct && packed[j] >>> 20 == packed[i] >>> 20) j++;
            if (j - i > 1) sortTies(sorted, i, j, bytes, start, first);
            i = j;
        }
        int[] rank = new int[distinct];
        FrozenVarlen g = FrozenVarlen.dictionary(n, distinct, distinctBytes);
        ByteBuffer out = g.buffer();
        int acc = 0;
        for (int i = 0; i < distinct; i++) {
            int f = first[sorted[i]], len = start[f + 1] - start[f];
            rank[sorted[i]] = i;
            g.setOffset(i, acc);
            out.put(g.valuesOffset() + acc, bytes, start[f], len);
            acc += len;
        }
        g.setOffset(distinct, acc);
        long live = 0;
        int old = 0;
        for (int off = 0; off < n; off++) {
            if (!d.isValid(c, off)) {
                g.setIndex(off, 0);
                continue;
            }
            g.setIndex(off, rank[id[off]]);
            int len = start[off + 1] - start[off];
            if (len > VarlenEntry.INLINE_THRESHOLD) {
                live += len;
                old++;
            }
        }
        g.registered(heap.register(out, live));
        long[] oldHandles = new long[old];
        int[] oldSizes = new int[old];
        old = 0;
        for (int off = 0; off < n; off++) {
            int len = start[off + 1] - start[off];
            if (!d.isValid(c, off) || len <= VarlenEntry.INLINE_THRESHOLD) continue;
            oldHandles[old] = d.entryWord1(c, off);
            oldSizes[old++] = len;
            d.putEntryPointer(c, off, g.handle(g.offset(g.index(off))));
        }
        if (old > 0) table.deferFree(oldHandles, oldSizes);
        return g;
    }

    /** A 32-bit hash of bytes [from, to) (FNV-1a, then mixed so that the low bits spread). */
    private static int hash(byte[] b, int from, int to) {
        int h = 0x811C9DC5;
        for (int i = from; i < to; i++) h = (h ^ (b[i] & 0xFF)) * 0x01000193;
        return h ^ (h >>> 16);
    }

    /** The first 8 bytes of [from, to) as an unsigned big-endian number, zero-padded (orders like the bytes). */
    private static long prefix(byte[] b, int from, int to) {
        long p = 0;
        for (int i = 0; i < 8; i++) p = p << 8 | (from + i < to ? b[from + i] & 0xFF : 0);
        return p;
    }

    /** Orders sorted[i, j) (distinct values that share their first 44 bits) byte by byte. */
    private static void sortTies(int[] sorted, int i, int j, byte[] bytes, int[] start, int[] first) {
        Integer[] group = new Integer[j - i];
        for (int k = i; k < j; k++) group[k - i] = sorted[k];
        Arrays.sort(group, (x, y) -> {
            int fx = first[x], fy = first[y];
            return Arrays.compareUnsigned(bytes, start[fx], start[fx + 1], bytes, start[fy], start[fy + 1]);
        });
        for (int k = i; k < j; k++) sorted[k] = group[k - i];
    }
}
