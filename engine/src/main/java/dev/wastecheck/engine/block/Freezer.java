package dev.wastecheck.engine.block;

import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.BlockLayout;
import dev.wastecheck.layouts.arrow.FrozenVarlen;
import dev.wastecheck.layouts.arrow.VarlenEntry;
import dev.wastecheck.layouts.arrow.VarlenHeap;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

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
        if (b.removed || b.state() != ArrowBlock.COOLING) return Outcome.PREEMPTED;
        int n = contiguousRecords(b);
        if (n == VERSIONS) return Outcome.NOT_READY;
        if (n == GAP) return BlockAccess.stopCooling(b) ? Outcome.GAPS : Outcome.PREEMPTED;
        if (!BlockAccess.startFreezing(b)) return Outcome.PREEMPTED;
        transform(b, n);
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
        d.setNumRecords(n);
        for (int c = 0; c < layout.columns(); c++) d.setNullCount(c, n - validCount(d, c, n));
        FrozenVarlen[] frozen = new FrozenVarlen[layout.columns()];
        for (int c : layout.varlenColumns()) {
            frozen[c] = table.freezeMode() == ArrowTable.FreezeMode.DICTIONARY ? dictionary(d, c, n) : gather(d, c, n);
        }
        table.setFrozen(b, frozen);
    }

    private static int validCount(ArrowBlock d, int c, int n) {
        int count = 0, words = n >>> 6;
        for (int w = 0; w < words; w++) count += Long.bitCount(d.validityWord(c, w));
        if ((n & 63) != 0) count += Long.bitCount(d.validityWord(c, words) & ((1L << (n & 63)) - 1));
        return count;
    }

    /** Gathers column {@code c}'s values into one Arrow values buffer with offsets. */
    FrozenVarlen gather(ArrowBlock d, int c, int n) {
        long total = 0;
        for (int off = 0; off < n; off++) if (d.isValid(c, off)) total += VarlenEntry.size(d.entryWord0(c, off));
        FrozenVarlen g = FrozenVarlen.gathered(n, total);
        ByteBuffer out = g.buffer();
        int base = g.valuesOffset();
        long[] oldHandles = new long[n];
        int[] oldSizes = new int[n];
        int old = 0, acc = 0;
        long live = 0;
        for (int off = 0; off < n; off++) {
            g.setOffset(off, acc);
            if (!d.isValid(c, off)) continue;
            long w0 = d.entryWord0(c, off), w1 = d.entryWord1(c, off);
            int size = VarlenEntry.size(w0);
            if (VarlenEntry.isInline(w0)) {
                VarlenEntry.copyInline(w0, w1, inline, 0);
                out.put(base + acc, inline, 0, size);
            } else {
                out.put(base + acc, heap.buffer(w1), VarlenHeap.offset(w1), size);
                oldHandles[old] = w1;
                oldSizes[old++] = size;
                live += size;
            }
            acc += size;
        }
        g.setOffset(n, acc);
        g.registered(heap.register(out, live));
        for (int off = 0; off < n; off++) {
            if (d.isValid(c, off) && !VarlenEntry.isInline(d.entryWord0(c, off))) d.putEntryPointer(c, off, g.handle(g.offset(off)));
        }
        if (old > 0) table.deferFree(Arrays.copyOf(oldHandles, old), Arrays.copyOf(oldSizes, old));
        return g;
    }

    /** Builds a sorted dictionary of column {@code c}'s distinct values and an index per record (§4.4). */
    FrozenVarlen dictionary(ArrowBlock d, int c, int n) {
        Map<ByteBuffer, Integer> codes = new HashMap<>();
        long distinctBytes = 0;
        byte[][] values = new byte[n][];
        for (int off = 0; off < n; off++) {
            if (!d.isValid(c, off)) continue;
            long w0 = d.entryWord0(c, off), w1 = d.entryWord1(c, off);
            byte[] v = new byte[VarlenEntry.size(w0)];
            if (VarlenEntry.isInline(w0)) VarlenEntry.copyInline(w0, w1, v, 0);
            else heap.read(w1, v, 0, v.length);
            if (codes.putIfAbsent(ByteBuffer.wrap(v), 0) == null) distinctBytes += v.length;
            values[off] = v;
        }
        byte[][] sorted = new byte[codes.size()][];
        int k = 0;
        for (ByteBuffer key : codes.keySet()) sorted[k++] = key.array();
        Arrays.sort(sorted, Arrays::compareUnsigned);
        FrozenVarlen g = FrozenVarlen.dictionary(n, sorted.length, distinctBytes);
        ByteBuffer out = g.buffer();
        int acc = 0;
        for (int i = 0; i < sorted.length; i++) {
            codes.put(ByteBuffer.wrap(sorted[i]), i);
            g.setOffset(i, acc);
            out.put(g.valuesOffset() + acc, sorted[i]);
            acc += sorted[i].length;
        }
        g.setOffset(sorted.length, acc);
        long[] oldHandles = new long[n];
        int[] oldSizes = new int[n];
        int old = 0;
        long live = 0;
        for (int off = 0; off < n; off++) {
            if (values[off] == null) {
                g.setIndex(off, 0);
                continue;
            }
            int code = codes.get(ByteBuffer.wrap(values[off]));
            g.setIndex(off, code);
            if (values[off].length > VarlenEntry.INLINE_THRESHOLD) live += values[off].length;
        }
        g.registered(heap.register(out, live));
        for (int off = 0; off < n; off++) {
            if (values[off] == null || values[off].length <= VarlenEntry.INLINE_THRESHOLD) continue;
            oldHandles[old] = d.entryWord1(c, off);
            oldSizes[old++] = values[off].length;
            d.putEntryPointer(c, off, g.handle(g.offset(g.index(off))));
        }
        if (old > 0) table.deferFree(Arrays.copyOf(oldHandles, old), Arrays.copyOf(oldSizes, old));
        return g;
    }
}
