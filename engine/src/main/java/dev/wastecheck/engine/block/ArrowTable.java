package dev.wastecheck.engine.block;

import dev.wastecheck.engine.log.LogFormat;
import dev.wastecheck.engine.log.RedoBuffer;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.engine.txn.TransactionManager;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import dev.wastecheck.layouts.arrow.ArrowBlock;
import dev.wastecheck.layouts.arrow.BlockLayout;
import dev.wastecheck.layouts.arrow.FrozenVarlen;
import dev.wastecheck.layouts.arrow.TupleSlot;
import dev.wastecheck.layouts.arrow.VarlenEntry;
import dev.wastecheck.layouts.arrow.VarlenHeap;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;

/**
 * A table in Arrow-native blocks under multi-version concurrency control: NoisePage's data table
 * (Li et al., "Mainlining Databases", VLDB 2020, §3). Tuples live in {@link ArrowBlock}s of 1 MB,
 * addressed by 64-bit {@link TupleSlot}s; the newest version of each tuple is in place and older ones
 * are reached through undo records ({@link VersionRecord}) on a version chain beside the block.
 *
 * <p>Writes install their undo record at the head of the tuple's chain with a compare-and-swap and
 * then write in place; a chain whose newest record belongs to a transaction this one cannot see (still
 * running, or committed after this one began) is a write-write conflict: the write fails and the
 * transaction must abort (first writer wins, §3.1). Inserts take the next never-used slot of the
 * table's insertion block and never reuse a gap; deletes clear the allocation bit and leave a gap that
 * compaction fills (§4.3). A variable-length update is a fixed-size write: a new value in the
 * {@link VarlenHeap} and a new 16-byte entry (§4.1).
 *
 * <p>A transactional read copies the slot out of the block, then walks the chain, rolling the copy
 * back over every record the reader cannot see (hot blocks materialize per version); scans read a
 * frozen block's Arrow buffers directly, with no version to check ({@link FrozenScan}).
 *
 * <p>Memory ordering: a writer's compare-and-swap on the chain head precedes its plain stores into
 * the block; a reader's plain loads from the block precede an acquire fence and then its volatile load
 * of the chain head, the pattern of {@link java.util.concurrent.locks.StampedLock}'s optimistic reads.
 * Any store a reader saw therefore comes with the undo record that takes it back.
 */
public final class ArrowTable {
    /** How a VARLEN column takes its canonical Arrow form when a block freezes. */
    public enum FreezeMode {
        /** One contiguous values buffer with offsets (§4.3). */
        GATHER,
        /** A sorted dictionary of the distinct values and an int32 index per record (§4.4). */
        DICTIONARY
    }

    private final String name;
    private final RecordSchema schema;
    private final BlockLayout layout;
    private final VarlenHeap heap = new VarlenHeap();
    private final TransactionManager tm;
    private final FreezeMode freezeMode;
    private final int[] varlenColumns;
    /** Per column: declared NOT NULL, so its validity bit is always set and a read need not load it. */
    private final boolean[] notNull;
    /** Every column, for whole-tuple reads. */
    private final int[] allColumns;
    /** Each thread's copy to roll back along a chain, for whole-tuple reads: no allocation per read. */
    private final ThreadLocal<RawRow> scratchRows;

    private final BitSet binary;
    private final Object lock = new Object();
    private volatile Block[] blocks = new Block[0];
    private volatile Block insertion;
    private volatile int liveBlocks;
    private volatile TupleMoveListener moveListener = TupleMoveListener.NONE;
    /** The table's identifier in the write-ahead log, or -1 while its writes are not logged (§3.4). */
    private volatile int logId = -1;
    /** The 4 KB pages of blocks and heap chunks operations touched, while someone measures a working set; else null. */
    private volatile WorkingSet workingSet;

    public ArrowTable(String name, RecordSchema schema, TransactionManager tm) {
        this(name, schema, tm, BlockLayout.DEFAULT_BLOCK_SIZE, FreezeMode.GATHER);
    }

    public ArrowTable(String name, RecordSchema schema, TransactionManager tm, int blockSize, FreezeMode freezeMode) {
        this(name, schema, tm, blockSize, freezeMode, new BitSet());
    }

    /** @param binary the VARLEN columns that hold bytes rather than text (Arrow Binary rather than Utf8 on export) */
    public ArrowTable(
            String name,
            RecordSchema schema,
            TransactionManager tm,
            int blockSize,
            FreezeMode freezeMode,
            BitSet binary) {
        this.binary = (BitSet) binary.clone();
        this.name = name;
        this.schema = schema;
        this.layout = new BlockLayout(schema, blockSize);
        this.tm = tm;
        this.freezeMode = freezeMode;
        this.varlenColumns = layout.varlenColumns();
        int n = schema.fieldCount();
        this.notNull = new boolean[n];
        this.allColumns = new int[n];
        for (int c = 0; c < n; c++) {
            notNull[c] = !schema.nullable(c);
            allColumns[c] = c;
        }
        this.scratchRows = ThreadLocal.withInitial(() -> new RawRow(n));
    }

    public String name() {
        return name;
    }

    public RecordSchema schema() {
        return schema;
    }

    public BlockLayout layout() {
        return layout;
    }

    public VarlenHeap heap() {
        return heap;
    }

    public TransactionManager transactions() {
        return tm;
    }

    public FreezeMode freezeMode() {
        return freezeMode;
    }
    /** Whether VARLEN column {@code column} holds bytes rather than text. */
    public boolean isBinary(int column) {
        return binary.get(column);
    }

    /**
     * Logs this table's writes under identifier {@code id}: each insert, update, delete and compaction
     * move appends its physical after-image, addressed by TupleSlot, to the writing transaction's redo
     * buffer (§3.4). -1 stops logging (recovery replays without logging again).
     */
    public void logAs(int id) {
        if (id > LogFormat.MAX_TABLE_ID)
            throw new IllegalArgumentException("table identifier " + id + " past the log's " + LogFormat.MAX_TABLE_ID);
        logId = id;
    }

    public int logId() {
        return logId;
    }

    /** The writing transaction's redo buffer if this table is logged and logging is on; else null. */
    private RedoBuffer redo(Transaction txn) {
        return logId < 0 ? null : txn.redo();
    }

    public void setMoveListener(TupleMoveListener l) {
        moveListener = l == null ? TupleMoveListener.NONE : l;
    }

    TupleMoveListener moveListener() {
        return moveListener;
    }

    /**
     * Starts recording the working set: the 4 KB pages of the blocks whose tuples operations touch
     * (each column's validity and value of the tuple) and of the heap chunks their reads follow
     * pointers into. Single-threaded measurements (the replay).
     */
    public void trackWorkingSet() {
        workingSet = new WorkingSet();
    }

    /** Tuples read or written since {@link #trackWorkingSet()}, 0 when not tracking. */
    public long tupleAccesses() {
        WorkingSet ws = workingSet;
        return ws == null ? 0 : ws.tuples;
    }

    /** Bytes of the pages recorded since {@link #trackWorkingSet()}. */
    public long workingSetBytes() {
        WorkingSet ws = workingSet;
        return ws == null ? 0 : ws.bytes();
    }

    /** Records the pages of tuple {@code slot}: its allocation bit and each column's validity bit and value. */
    public void touchTuple(long slot) {
        WorkingSet ws = workingSet;
        if (ws == null) return;
        ws.tuples++;
        int b = TupleSlot.block(slot), off = TupleSlot.offset(slot);
        ws.touchBlock(b, layout.allocationOffset() + (off >>> 3));
        for (int c = 0; c < layout.columns(); c++) {
            ws.touchBlock(b, layout.validityOffset(c) + (off >>> 3));
            ws.touchBlock(b, layout.valuesOffset(c) + (layout.width(c) == 0 ? off >>> 3 : off * layout.width(c)));
        }
    }

    /**
     * 4 KB pages touched, in flat bit arrays: the blocks' in one (block {@code b}'s pages from bit
     * {@code b * wordsPerBlock * 64}, four words for a 1 MB block), the heap chunks' first megabyte in
     * another the same way (chunk {@code k}'s pages from bit {@code k * 256}), and the pages of a
     * dedicated chunk past its first megabyte in an array of their own. The flat arrays keep the
     * cost of a read at one shift and one OR per page: a bit set per block, and later per heap chunk,
     * grew and checked its capacity at every set (the chunks' {@code BitSet.set} was 2% of a logged
     * replay's samples inside measured events, docs/arrow.md).
     */
    private final class WorkingSet {
        static final int PAGE_SHIFT = 12;
        /** Words of a heap chunk's first megabyte: 256 pages. */
        static final int CHUNK_WORDS = (VarlenHeap.CHUNK_SIZE >>> PAGE_SHIFT) >>> 6;

        final int wordsPerBlock = Math.max(1, ((layout.blockSize() + (1 << PAGE_SHIFT) - 1) >>> PAGE_SHIFT) + 63 >>> 6);
        long[] blocks = new long[16 * wordsPerBlock];
        long[] chunks = new long[16 * CHUNK_WORDS];
        /** By chunk: the pages of a dedicated chunk beyond its first megabyte (from its page 256 on), or null. */
        long[][] beyond = new long[0][];
        /** Tuple accesses recorded (reads and writes; a replay runs them on one thread). */
        long tuples;

        void touchBlock(int block, int byteOffset) {
            int page = byteOffset >>> PAGE_SHIFT;
            int w = block * wordsPerBlock + (page >>> 6);
            long[] bs = blocks;
            if (w >= bs.length) bs = blocks = Arrays.copyOf(bs, Math.max(bs.length * 2, w + 1));
            bs[w] |= 1L << page;
        }

        /** Records the pages of the {@code length} bytes of a heap value at {@code handle}. */
        void touchValue(long handle, int length) {
            int chunk = (int) (handle >>> 32), at = VarlenHeap.offset(handle);
            int first = at >>> PAGE_SHIFT, last = (at + length - 1) >>> PAGE_SHIFT;
            int chunkPages = CHUNK_WORDS << 6;
            if (last < chunkPages) {
                long[] cs = chunks;
                int need = (chunk + 1) * CHUNK_WORDS;
                if (need > cs.length) cs = chunks = Arrays.copyOf(cs, Math.max(cs.length * 2, need));
                setPages(cs, chunk * CHUNK_WORDS, first, last);
                return;
            }
            // a value of a dedicated chunk reaching past its first megabyte (a value of 256 KB or more)
            if (first < chunkPages) {
                touchValue(handle, (chunkPages << PAGE_SHIFT) - at);
                first = chunkPages;
            }
            if (chunk >= beyond.length) beyond = Arrays.copyOf(beyond, Math.max(beyond.length * 2, chunk + 1));
            long[] p = beyond[chunk];
            int lastWord = (last - chunkPages) >>> 6;
            if (p == null || lastWord >= p.length)
                p = beyond[chunk] =
                        p == null ? new long[lastWord + 1] : Arrays.copyOf(p, Math.max(p.length * 2, lastWord + 1));
            setPages(p, 0, first - chunkPages, last - chunkPages);
        }

        /** Sets bits {@code first} to {@code last} (inclusive) of the bit array that starts at word {@code base} of {@code words}. */
        private static void setPages(long[] words, int base, int first, int last) {
            int fw = first >>> 6, lw = last >>> 6;
            if (fw == lw) {
                words[base + fw] |= (-1L << first) & (-1L >>> (63 - (last & 63)));
                return;
            }
            words[base + fw] |= -1L << first;
            for (int w = fw + 1; w < lw; w++) words[base + w] = -1L;
            words[base + lw] |= -1L >>> (63 - (last & 63));
        }

        long bytes() {
            long pages = 0;
            for (long w : blocks) pages += Long.bitCount(w);
            for (long w : chunks) pages += Long.bitCount(w);
            for (long[] p : beyond) if (p != null) for (long w : p) pages += Long.bitCount(w);
            return pages << PAGE_SHIFT;
        }
    }

    // ---- blocks ------------------------------------------------------------------------------

    /** The block of {@code slot}, or null if there is none (never was, or compaction emptied it). */
    public Block block(long slot) {
        return blockById(TupleSlot.block(slot));
    }

    Block blockById(int id) {
        Block[] bs = blocks;
        return id >= 0 && id < bs.length ? bs[id] : null;
    }

    /** The table's blocks, in order. */
    public List<Block> blocks() {
        Block[] bs = blocks;
        List<Block> out = new ArrayList<>(bs.length);
        for (Block b : bs) if (b != null) out.add(b);
        return out;
    }

    private void newInsertionBlock(Block full) {
        synchronized (lock) {
            if (insertion != full) return;
            Block[] bs = Arrays.copyOf(blocks, blocks.length + 1);
            Block b = new Block(bs.length - 1, ArrowBlock.allocate(layout));
            bs[b.id] = b;
            blocks = bs;
            liveBlocks++;
            insertion = b;
        }
    }

    /** Takes an emptied block out of the table (compaction, once no reader can need its tuples). */
    void remove(Block b) {
        synchronized (lock) {
            if (b.removed) return;
            Block[] bs = blocks.clone();
            bs[b.id] = null;
            b.removed = true;
            blocks = bs;
            liveBlocks--;
        }
    }

    /**
     * Tuples present in the newest version: the allocation bits set in every block. Exact for a table
     * no transaction is writing (a served, frozen one); otherwise it counts uncommitted inserts too.
     */
    public long liveTuples() {
        long n = 0;
        for (Block b : blocks()) {
            for (int w = 0; w < b.data.slots() >>> 6; w++) n += Long.bitCount(b.data.allocationWord(w));
        }
        return n;
    }

    public int blockCount() {
        return liveBlocks;
    }

    /**
     * Closes the insertion block to inserts (the next insert opens a new block), so that a table
     * loaded in bulk can freeze whole: NoisePage only transforms full blocks (§4.2).
     */
    public void seal() {
        Block b = insertion;
        if (b != null) b.data.raiseInsertHead(b.data.slots());
    }

    /**
     * Memory of the table: its blocks, an 8-byte version pointer per slot (NoisePage's reserved
     * column; here a Java array beside the block), and the variable-length heap (which holds the
     * frozen blocks' gathered buffers and dictionaries too).
     */
    public long memoryBytes() {
        return (long) liveBlocks * (layout.blockSize() + 8L * layout.slots()) + heap.reservedBytes();
    }

    // ---- writes ------------------------------------------------------------------------------

    /** Inserts {@code r}; returns its slot. Never conflicts: the slot is new. */
    public long insert(Transaction txn, Record r) {
        while (true) {
            Block b = insertion;
            int off = b == null ? -1 : b.data.claimSlot();
            if (off < 0) {
                newInsertionBlock(b);
                continue;
            }
            BlockAccess.thaw(b);
            VersionRecord rec = new VersionRecord(txn, this, b, off, VersionRecord.Kind.INSERT, true, null);
            if (!b.versions.compareAndSet(off, null, rec))
                throw new IllegalStateException(b + " slot " + off + " handed out twice");
            txn.addUndo(rec);
            for (int c = 0; c < schema.fieldCount(); c++) writeValue(b, off, c, r);
            b.data.setAllocated(off, true);
            long slot = TupleSlot.of(b.id, off);
            RedoBuffer redo = redo(txn);
            if (redo != null) redo.insert(logId, slot, r);
            return slot;
        }
    }

    /**
     * Sets {@code columns} of the tuple at {@code slot} to {@code values}' values. False when the
     * tuple is not in the snapshot (deleted) or on a write-write conflict, which also marks the
     * transaction {@link Transaction#mustAbort()}.
     */
    public boolean update(Transaction txn, long slot, int[] columns, Record values) {
        Block b = block(slot);
        int off = TupleSlot.offset(slot);
        if (b == null || off >= layout.slots()) return false;
        BlockAccess.thaw(b);
        VersionRecord rec = new VersionRecord(txn, this, b, off, VersionRecord.Kind.UPDATE, true, columns.clone());
        if (!install(txn, b, off, rec)) return false;
        for (int c : columns) writeValue(b, off, c, values);
        RedoBuffer redo = redo(txn);
        if (redo != null) redo.update(logId, slot, columns, values);
        return true;
    }

    /**
     * Puts {@code rec} at the head of the slot's chain, with the before-image of its columns, if the
     * tuple is there in the newest version and no conflicting writer got there first; the caller then
     * writes in place. A head that changes under us (another writer, or the collector unlinking an
     * aborted record) sends us round again: the conflict check always judges the head we swap out.
     */
    private boolean install(Transaction txn, Block b, int off, VersionRecord rec) {
        while (true) {
            VersionRecord head = b.versions.get(off);
            if (conflict(txn, head)) {
                txn.setMustAbort();
                return false;
            }
            if (!b.data.isAllocated(off)) {
                // Deleted in the newest version, unless a deleter swapped the head in since we read it.
                if (b.versions.get(off) == head) return false;
                continue;
            }
            for (int i = 0; i < rec.columns.length; i++) captureRaw(b, off, rec.columns[i], rec, i);
            rec.setNext(head);
            if (b.versions.compareAndSet(off, head, rec)) {
                txn.addUndo(rec);
                return true;
            }
        }
    }

    /** Deletes the tuple at {@code slot}; false as for {@link #update}. */
    public boolean delete(Transaction txn, long slot) {
        return delete(txn, slot, true);
    }

    private boolean delete(Transaction txn, long slot, boolean ownsVarlens) {
        Block b = block(slot);
        int off = TupleSlot.offset(slot);
        if (b == null || off >= layout.slots()) return false;
        BlockAccess.thaw(b);
        VersionRecord rec = new VersionRecord(txn, this, b, off, VersionRecord.Kind.DELETE, ownsVarlens, varlenColumns);
        if (!install(txn, b, off, rec)) return false;
        b.data.setAllocated(off, false);
        RedoBuffer redo = redo(txn);
        if (redo != null) redo.delete(logId, slot);
        return true;
    }

    /** Whether the newest non-aborted version of a chain was written by a transaction {@code txn} cannot see. */
    private static boolean conflict(Transaction txn, VersionRecord head) {
        VersionRecord r = head;
        while (r != null && r.txn().isAborted()) r = r.nextRecord();
        return r != null && txn.conflictsWith(r.txn());
    }

    /**
     * Moves the tuple at {@code from} into the gap {@code to} inside {@code txn} (compaction, §4.3
     * Alg. 2): a copy into the gap sharing the variable-length values, and a delete of the original.
     * False if the tuple is gone, the gap is taken, or a writer got there first.
     */
    boolean move(Transaction txn, long from, long to, RawRow scratch) {
        Block fb = block(from), tb = block(to);
        int fo = TupleSlot.offset(from), to2 = TupleSlot.offset(to);
        if (fb == null || tb == null || !read(txn, fb, fo, scratch)) return false;
        BlockAccess.thaw(tb);
        if (tb.data.isAllocated(to2) || tb.versions.get(to2) != null) return false;
        VersionRecord rec = new VersionRecord(txn, this, tb, to2, VersionRecord.Kind.INSERT, false, null);
        if (!tb.versions.compareAndSet(to2, null, rec)) return false;
        txn.addUndo(rec);
        tb.data.raiseInsertHead(to2 + 1);
        for (int c = 0; c < schema.fieldCount(); c++)
            writeRaw(tb, to2, c, scratch.w0[c], scratch.w1[c], scratch.valid[c]);
        tb.data.setAllocated(to2, true);
        RedoBuffer redo = redo(txn);
        if (redo != null) {
            // A move is an insert at the gap and a delete of the original, as recovery replays it.
            Record image = new Record(schema);
            toRecord(scratch, image);
            redo.insert(logId, to, image);
        }
        if (!delete(txn, from, false)) {
            txn.setMustAbort();
            return false;
        }
        moveListener.moved(txn, from, to);
        return true;
    }

    /**
     * Points VARLEN column {@code c} of slot {@code off} of {@code b} at a value already in this
     * table's heap, inside {@code txn}: an update with an undo record, as {@link #update}, for the
     * In-Place transformation of §6.2 ({@link InPlaceTransformer}). Refused on a logged table.
     */
    boolean updateEntry(Transaction txn, Block b, int off, int c, long w0, long w1) {
        if (logId >= 0) throw new IllegalStateException(name + ": in-place transformation of a logged table");
        BlockAccess.thaw(b);
        VersionRecord rec = new VersionRecord(txn, this, b, off, VersionRecord.Kind.UPDATE, true, new int[] {c});
        if (!install(txn, b, off, rec)) return false;
        writeRaw(b, off, c, w0, w1, true);
        return true;
    }

    // ---- reads -------------------------------------------------------------------------------

    /** Reads the tuple at {@code slot} as {@code txn} sees it into {@code into}; false if it is not in the snapshot. */
    public boolean select(Transaction txn, long slot, Record into) {
        return select(txn, slot, allColumns, into, scratchRows.get());
    }

    /**
     * Reads {@code fields} of the tuple at {@code slot} as {@code txn} sees it into {@code into} (the
     * other fields of {@code into} are left as they were), with {@code scratch} as the copy to roll
     * back: no allocation, and no copy of a column nobody asked for (a long text beside the key).
     */
    boolean select(Transaction txn, long slot, int[] fields, Record into, RawRow scratch) {
        Block b = block(slot);
        int off = TupleSlot.offset(slot);
        // No look at the insert head: a slot never handed out has its allocation bit clear, and the
        // head is the one word every inserting thread writes.
        if (b == null || off >= layout.slots()) return false;
        scratch.present = b.data.isAllocated(off);
        for (int c : fields) copyRaw(b, off, c, scratch);
        VarHandle.acquireFence();
        VersionRecord u = b.versions.get(off);
        while (u != null && !txn.sees(u.txn())) {
            u.applyTo(scratch);
            u = u.nextRecord();
        }
        if (!scratch.present) return false;
        for (int c : fields) toRecord(scratch, c, into);
        return true;
    }

    /** Records the pages of {@code fields} of tuple {@code slot} (and its allocation bit) in the working set. */
    public void touchFields(long slot, int[] fields) {
        WorkingSet ws = workingSet;
        if (ws == null) return;
        ws.tuples++;
        int b = TupleSlot.block(slot), off = TupleSlot.offset(slot);
        ws.touchBlock(b, layout.allocationOffset() + (off >>> 3));
        for (int c : fields) {
            ws.touchBlock(b, layout.validityOffset(c) + (off >>> 3));
            ws.touchBlock(b, layout.valuesOffset(c) + (layout.width(c) == 0 ? off >>> 3 : off * layout.width(c)));
        }
    }

    /** Visits the tuples of a scan. */
    @FunctionalInterface
    public interface TupleVisitor {
        /** Returns false to stop the scan. */
        boolean visit(long slot, Record r);
    }

    /**
     * Visits every tuple in {@code txn}'s snapshot, block by block: a frozen block straight from its
     * Arrow buffers under an in-place read (no version to check), a hot one version by version.
     */
    public void scan(Transaction txn, TupleVisitor visitor) {
        RawRow row = new RawRow(schema.fieldCount());
        Record r = new Record(schema);
        for (Block b : blocks) {
            if (b != null && !scan(txn, b, visitor, row, r)) return;
        }
    }

    /** Visits the tuples of one block in {@code txn}'s snapshot (as {@link #scan(Transaction, TupleVisitor)}); false if the visitor stopped. */
    public boolean scan(Transaction txn, Block b, TupleVisitor visitor) {
        return scan(txn, b, visitor, new RawRow(schema.fieldCount()), new Record(schema));
    }

    private boolean scan(Transaction txn, Block b, TupleVisitor visitor, RawRow row, Record r) {
        if (BlockAccess.tryEnterInPlace(b)) {
            try {
                int n = b.data.numRecords();
                for (int off = 0; off < n; off++) {
                    for (int c = 0; c < row.w0.length; c++) copyRaw(b, off, c, row);
                    toRecord(row, r);
                    if (!visitor.visit(TupleSlot.of(b.id, off), r)) return false;
                }
            } finally {
                BlockAccess.exitInPlace(b);
            }
            return true;
        }
        int n = b.data.insertHead();
        for (int off = 0; off < n; off++) {
            if (read(txn, b, off, row)) {
                toRecord(row, r);
                if (!visitor.visit(TupleSlot.of(b.id, off), r)) return false;
            }
        }
        return true;
    }

    /** Copies slot {@code off} as {@code txn} sees it into {@code row}; returns whether it is present. */
    boolean read(Transaction txn, Block b, int off, RawRow row) {
        if (off >= layout.slots()) return false;
        ArrowBlock d = b.data;
        row.present = d.isAllocated(off);
        for (int c = 0; c < row.w0.length; c++) copyRaw(b, off, c, row);
        VarHandle.acquireFence();
        VersionRecord u = b.versions.get(off);
        while (u != null && !txn.sees(u.txn())) {
            u.applyTo(row);
            u = u.nextRecord();
        }
        return row.present;
    }

    private void copyRaw(Block b, int off, int c, RawRow row) {
        ArrowBlock d = b.data;
        // A NOT NULL column's validity bit is always set: loading it would only touch one more cache
        // line per column (each column's bitmap is a region of its own).
        row.valid[c] = notNull[c] || d.isValid(c, off);
        if (layout.isVarlen(c)) {
            row.w0[c] = d.entryWord0(c, off);
            row.w1[c] = d.entryWord1(c, off);
        } else {
            row.w0[c] = d.getFixed(c, off);
        }
    }

    /** Turns a raw row into values, following variable-length pointers into the heap. */
    void toRecord(RawRow row, Record into) {
        for (int c = 0; c < row.w0.length; c++) toRecord(row, c, into);
    }

    private void toRecord(RawRow row, int c, Record into) {
        // Unchecked setters, as the page formats' reads: every value in a block came in through a
        // checked Record (insert, update) or is its before-image, and a validity bit is clear only in
        // a nullable column. The checks were 4% of the replay's Arrow event time (docs/arrow.md).
        if (!row.valid[c]) {
            into.setNullRaw(c);
        } else if (layout.isVarlen(c)) {
            int n = VarlenEntry.size(row.w0[c]);
            byte[] dst = into.buffer(c, n);
            if (VarlenEntry.isInline(row.w0[c])) {
                VarlenEntry.copyInline(row.w0[c], row.w1[c], dst, 0);
            } else {
                heap.read(row.w1[c], dst, 0, n);
                WorkingSet ws = workingSet;
                if (ws != null) ws.touchValue(row.w1[c], n);
            }
        } else {
            into.setRaw(c, row.w0[c]);
        }
    }

    // ---- raw access, for records, compaction and freezing --------------------------------------

    private void captureRaw(Block b, int off, int c, VersionRecord rec, int i) {
        ArrowBlock d = b.data;
        rec.valid[i] = d.isValid(c, off);
        if (layout.isVarlen(c)) {
            rec.w0[i] = d.entryWord0(c, off);
            rec.w1[i] = d.entryWord1(c, off);
        } else {
            rec.w0[i] = d.getFixed(c, off);
        }
    }

    private void writeValue(Block b, int off, int c, Record r) {
        ArrowBlock d = b.data;
        if (r.isNull(c)) {
            if (layout.isVarlen(c)) d.putEntry(c, off, 0, 0);
            else d.putFixed(c, off, 0);
            d.setValid(c, off, false);
            return;
        }
        if (layout.isVarlen(c)) {
            byte[] v = r.bytes(c);
            int n = r.length(c);
            long w0 = VarlenEntry.word0(v, 0, n);
            long w1 = n <= VarlenEntry.INLINE_THRESHOLD ? VarlenEntry.inlineWord1(v, 0, n) : heap.allocate(v, 0, n);
            d.putEntry(c, off, w0, w1);
        } else {
            d.putFixed(c, off, r.getLong(c));
        }
        d.setValid(c, off, true);
    }

    void writeRaw(Block b, int off, int c, long w0, long w1, boolean valid) {
        ArrowBlock d = b.data;
        if (layout.isVarlen(c)) d.putEntry(c, off, w0, w1);
        else d.putFixed(c, off, w0);
        d.setValid(c, off, valid);
    }

    /** Defers the free of the out-of-line values slot {@code off} holds now in {@code columns} (all VARLEN columns if null). */
    void deferFreeOfSlotVarlens(Block b, int off, int[] columns) {
        int[] cs = columns == null ? varlenColumns : columns;
        long[] handles = new long[cs.length];
        int[] sizes = new int[cs.length];
        int n = 0;
        for (int c : cs) {
            if (!layout.isVarlen(c) || !b.data.isValid(c, off)) continue;
            long w0 = b.data.entryWord0(c, off);
            if (VarlenEntry.isInline(w0)) continue;
            handles[n] = b.data.entryWord1(c, off);
            sizes[n++] = VarlenEntry.size(w0);
        }
        if (n > 0) deferFree(Arrays.copyOf(handles, n), Arrays.copyOf(sizes, n));
    }

    /** Frees heap values once every transaction running now has ended (§3.4). */
    void deferFree(long[] handles, int[] sizes) {
        tm.deferred().defer(() -> {
            for (int i = 0; i < handles.length; i++) heap.free(handles[i], sizes[i]);
        });
    }

    /**
     * Prunes the version chain of one slot for the garbage collector: cuts it before the first record
     * every running transaction sees (no reader walks past a record it sees) and takes out aborted
     * records no running transaction began before (their rollback is in place for everyone).
     * Writers only ever swing the head, and only the collector edits the links below it.
     */
    void prune(Block b, int off, long oldestStart, long oldestSequence) {
        retry:
        while (true) {
            VersionRecord head = b.versions.get(off);
            VersionRecord pred = null, cur = head;
            while (cur != null) {
                VersionRecord next = cur.nextRecord();
                if (cur.visibleToAll(oldestStart)) {
                    if (pred == null) {
                        if (!b.versions.compareAndSet(off, cur, null)) continue retry;
                    } else {
                        pred.setNext(null);
                    }
                    return;
                }
                if (cur.abortedBefore(oldestSequence)) {
                    if (pred == null) {
                        if (!b.versions.compareAndSet(off, cur, next)) continue retry;
                    } else {
                        pred.setNext(next);
                    }
                } else {
                    pred = cur;
                }
                cur = next;
            }
            return;
        }
    }

    /** The frozen Arrow form of the VARLEN columns of block {@code b} (by column; null elsewhere). */
    void setFrozen(Block b, FrozenVarlen[] columns) {
        b.frozen = columns;
    }

    @Override
    public String toString() {
        return "ArrowTable[" + name + ", " + liveBlocks + " blocks of " + layout.slots() + " slots]";
    }
}
