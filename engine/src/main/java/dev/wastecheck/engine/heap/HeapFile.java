package dev.wastecheck.engine.heap;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.buffer.Frame;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.index.FieldSource;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.PackedPage;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.LongPredicate;

/**
 * A table stored as a heap file: records appended to pages of the buffer pool in one of the
 * layouts' formats (NSM, PAX, HPL), addressed by tuple id (page, slot). The page format is the
 * layouts module's; this class only finds the page, pins it and latches it.
 *
 * <p>Thread-safe: appends are serialized; reads and updates of a page hold the page's frame
 * monitor, so a read sees an update whole or not at all (what the index cache's consistency
 * argument needs from the heap).
 */
public final class HeapFile implements TupleStore {
    private final BufferPool pool;
    private final Layout layout;
    private final RecordSchema schema;
    private final List<Long> pages = new ArrayList<>();
    private long rows;
    private final ThreadLocal<Page> flyweights;
    /** The last thread's flyweight (see IndexCache: ThreadLocal misses showed in profiles). */
    private Owned lastFlyweight;

    private record Owned(Thread owner, Page page) {}

    private Page flyweight() {
        Owned o = lastFlyweight;
        if (o != null && o.owner == Thread.currentThread()) return o.page;
        Page p = flyweights.get();
        lastFlyweight = new Owned(Thread.currentThread(), p);
        return p;
    }

    public HeapFile(BufferPool pool, Layout layout, RecordSchema schema) {
        if (pool.pageSize() < Page.MIN_PAGE_SIZE)
            throw new IllegalArgumentException("layouts need pages of at least " + Page.MIN_PAGE_SIZE + " B");
        this.pool = pool;
        this.layout = layout;
        this.schema = schema;
        // sub-byte fields: the format's page holds the stored schema, the fields packed into words
        this.flyweights = ThreadLocal.withInitial(() -> PackedPage.of(layout, schema));
    }

    public Layout layout() {
        return layout;
    }

    public RecordSchema schema() {
        return schema;
    }

    public synchronized long rows() {
        return rows;
    }

    public synchronized int pageCount() {
        return pages.size();
    }

    public synchronized long bytes() {
        return (long) pages.size() * pool.pageSize();
    }
    /** The heap's page numbers, in order. */
    public synchronized long[] pageNumbers() {
        return pages.stream().mapToLong(Long::longValue).toArray();
    }

    /** Appends a record; returns its tuple id. */
    public synchronized long insert(Record r) {
        Page p = flyweight();
        if (!pages.isEmpty()) {
            Frame f = pool.pin(pages.get(pages.size() - 1));
            synchronized (f) {
                int slot = p.wrap(f.buffer(), 0, pool.pageSize()).insert(r);
                if (slot >= 0) {
                    pool.unpin(f, true);
                    rows++;
                    return TupleId.of(f.pageNo(), slot);
                }
            }
            pool.unpin(f, false);
        }
        Frame f = pool.newPage();
        synchronized (f) {
            int slot = p.format(f.buffer(), 0, pool.pageSize()).insert(r);
            if (slot < 0) {
                pool.unpin(f, true);
                throw new IllegalArgumentException("record does not fit an empty page");
            }
            pages.add(f.pageNo());
            pool.unpin(f, true);
            rows++;
            return TupleId.of(f.pageNo(), slot);
        }
    }

    public void read(long tid, Record into) {
        Frame f = pool.pin(TupleId.page(tid));
        try {
            synchronized (f) {
                flyweight().wrap(f.buffer(), 0, pool.pageSize()).read(TupleId.slot(tid), into);
            }
        } finally {
            pool.unpin(f, false);
        }
    }

    public long getLong(long tid, int field) {
        Frame f = pool.pin(TupleId.page(tid));
        try {
            synchronized (f) {
                return flyweight().wrap(f.buffer(), 0, pool.pageSize()).getLong(TupleId.slot(tid), field);
            }
        } finally {
            pool.unpin(f, false);
        }
    }

    /** Sets integer fields of one tuple atomically (with respect to {@link #read} and {@link #fieldSource}). */
    public void setLongs(long tid, int[] fields, long[] values) {
        Frame f = pool.pin(TupleId.page(tid));
        try {
            synchronized (f) {
                Page p = flyweight().wrap(f.buffer(), 0, pool.pageSize());
                for (int i = 0; i < fields.length; i++) p.setLong(TupleId.slot(tid), fields[i], values[i]);
            }
        } finally {
            pool.unpin(f, true);
        }
    }

    /**
     * Reads only {@code fields} of a tuple into {@code into} (the other fields keep whatever they
     * held), under one page latch ({@link Page#project}). {@code scratch} is not used here: a page copies each
     * value straight into the record.
     */
    public void project(long tid, int[] fields, Record into, byte[] scratch) {
        Frame f = pool.pin(TupleId.page(tid));
        try {
            synchronized (f) {
                // the page's own projection: each value copied once, into the record (not through scratch), and the
                // slot checked once, not per field (docs/benchmarks.md, issue 27: the read path's CPU)
                flyweight().wrap(f.buffer(), 0, pool.pageSize()).project(TupleId.slot(tid), fields, into);
            }
        } finally {
            pool.unpin(f, false);
        }
    }

    /** Sets a variable-length field; false (tuple unchanged) when its page cannot hold the new value. */
    public boolean setBytes(long tid, int field, byte[] src, int off, int len) {
        Frame f = pool.pin(TupleId.page(tid));
        boolean done = false;
        try {
            synchronized (f) {
                done = flyweight()
                        .wrap(f.buffer(), 0, pool.pageSize())
                        .setBytes(TupleId.slot(tid), field, src, off, len);
            }
        } finally {
            pool.unpin(f, done);
        }
        return done;
    }

    /** Sets a nullable field to NULL. */
    public void setNull(long tid, int field) {
        Frame f = pool.pin(TupleId.page(tid));
        try {
            synchronized (f) {
                flyweight().wrap(f.buffer(), 0, pool.pageSize()).setNull(TupleId.slot(tid), field);
            }
        } finally {
            pool.unpin(f, true);
        }
    }

    public void delete(long tid) {
        Frame f = pool.pin(TupleId.page(tid));
        try {
            synchronized (f) {
                flyweight().wrap(f.buffer(), 0, pool.pageSize()).delete(TupleId.slot(tid));
            }
        } finally {
            pool.unpin(f, true);
        }
        synchronized (this) {
            rows--;
        }
    }

    /**
     * Visits, page by page, the live tuples whose {@code field} is in [lo, hi] (a BIT or integer
     * field other than FLOAT64), equals {@code equal} (a VARLEN field, when {@code equal} is not
     * null), or every live tuple when {@code field < 0}. The page's own column kernel selects the
     * slots ({@link Page#scanBetween}, {@link Page#scanEquals}): this is where a PAX or HPL page
     * reads one column's values side by side and NSM reads every record. The visitor runs after
     * the page is unpinned and returns false to stop.
     */
    public void scan(int field, long lo, long hi, byte[] equal, LongPredicate visitor) {
        long[] numbers = pageNumbers();
        long[] selection = new long[8];
        for (long pg : numbers) {
            int slots;
            Frame f = pool.pin(pg);
            try {
                synchronized (f) {
                    Page p = flyweight().wrap(f.buffer(), 0, pool.pageSize());
                    slots = p.slotCount();
                    if (selection.length < (slots + 63) / 64) selection = new long[(slots + 63) / 64];
                    if (field < 0) {
                        Arrays.fill(selection, 0, (slots + 63) / 64, 0L);
                        for (int s = 0; s < slots; s++) if (!p.isGhost(s)) selection[s >>> 6] |= 1L << (s & 63);
                    } else if (equal != null) {
                        p.scanEquals(field, equal, selection);
                    } else {
                        p.scanBetween(field, lo, hi, selection);
                    }
                }
            } finally {
                pool.unpin(f, false);
            }
            for (int w = 0; w < (slots + 63) / 64; w++) {
                long bits = selection[w];
                while (bits != 0) {
                    int s = (w << 6) + Long.numberOfTrailingZeros(bits);
                    bits &= bits - 1;
                    if (!visitor.test(TupleId.of(pg, s))) return;
                }
            }
        }
    }

    /** Bytes an index cache item needs for these fixed-width fields. */
    public int fieldBytes(int... fields) {
        return fieldBytes(schema, fields);
    }

    /** Bytes an index cache item needs for these fixed-width fields of {@code schema}. */
    static int fieldBytes(RecordSchema schema, int... fields) {
        int n = 0;
        for (int f : fields) {
            FieldType t = schema.type(f);
            if (!t.isFixedBytes())
                throw new IllegalArgumentException("only fixed-width fields are cacheable yet: "
                        + schema.field(f).name());
            n += t.width;
        }
        return n;
    }

    /**
     * The index cache's view of this table: reads {@code fields} of a tuple into bytes, each
     * little-endian in its type's width, in the order given. One page latch for all of them.
     */
    public FieldSource fieldSource(int... fields) {
        int[] widths = new int[fields.length];
        for (int i = 0; i < fields.length; i++) widths[i] = schema.type(fields[i]).width;
        fieldBytes(fields);
        return (tid, out) -> {
            Frame f = pool.pin(TupleId.page(tid));
            try {
                synchronized (f) {
                    Page p = flyweight().wrap(f.buffer(), 0, pool.pageSize());
                    int slot = TupleId.slot(tid), o = 0;
                    for (int i = 0; i < fields.length; i++) {
                        long v = p.getLong(slot, fields[i]);
                        for (int k = 0; k < widths[i]; k++) out[o++] = (byte) (v >>> (8 * k));
                    }
                }
            } finally {
                pool.unpin(f, false);
            }
        };
    }

    /** Decodes a field of type {@code t} at {@code offset} from cached bytes (zero-extended if unsigned). */
    public static long decode(byte[] bytes, int offset, FieldType t) {
        long v = decode(bytes, offset, t.width);
        return t.isUnsigned() ? v & (-1L >>> (64 - 8 * t.width)) : v;
    }

    /** Decodes field {@code i} (of width {@code width}, at {@code offset}) from cached bytes. */
    public static long decode(byte[] bytes, int offset, int width) {
        long v = 0;
        for (int k = 0; k < width; k++) v |= (bytes[offset + k] & 0xFFL) << (8 * k);
        int shift = 64 - 8 * width; // sign-extend
        return shift == 0 ? v : (v << shift) >> shift;
    }
}
