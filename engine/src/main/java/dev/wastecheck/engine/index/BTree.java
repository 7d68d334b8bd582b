package dev.wastecheck.engine.index;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.buffer.Frame;
import dev.wastecheck.engine.file.TupleId;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.locks.ReentrantReadWriteLock;

/**
 * A B+tree of byte-comparable keys ({@link KeyEncoder}) to tuple ids, its nodes being pages of
 * the buffer pool in the {@link BTreePage} format.
 *
 * <p>Unique or non-unique: a non-unique tree orders entries by (key, tid), so duplicates are
 * distinct entries and a delete names the tuple. Leaves split in half by bytes, except when a
 * key is appended at the end of the rightmost leaf: then the full leaf stays full and the new
 * key starts a new leaf (as InnoDB and PostgreSQL do for ascending inserts), so a load in key
 * order packs leaves and a load in random order leaves them about ln 2 = 69% full: the fill
 * the paper cites (68%) and the free space the index cache lives in. Deletes never merge.
 *
 * <p>The tree keeps in memory the greatest key it has ever held ({@link #maxKey}: raised by inserts, never
 * lowered by deletes, so it is an upper bound of the keys it holds), and a lookup or scan from a key above
 * it answers "none" without reading a page. An insert of a new, ascending key (a new revision's id) checks
 * uniqueness in every partition of its table, and each check descended the cold partition's tree to its
 * rightmost leaf, two pages that only those checks touched (docs/benchmarks.md, issue 27, "A key above every
 * key").
 *
 * <p>Concurrency: one read-write lock per tree. Lookups and scans share it; inserts and
 * deletes take it exclusively. The index cache writes inside leaves under the read lock,
 * guarded by each frame's short latch.
 *
 * <p>Leaves of one of two formats, fixed when the tree is made: {@link BTreePage} (any key, the
 * index cache's free space) or, for keys of one fixed width of at most 8 bytes,
 * {@link PackedLeafPage} (entries packed as key and tuple-id offsets at the tightest width each
 * leaf's range allows, NBLB §4.1; no directory, no cache). Interior nodes are always
 * {@link BTreePage}s. A packed leaf that cannot take an entry at any encoding splits in half
 * (or, for an append at the rightmost leaf, starts a new leaf) and the insert descends again.
 */
public final class BTree {
    private final BufferPool pool;
    private final boolean unique;
    private final int maxKeyLength;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final BTreePage node = new BTreePage(); // used only under the write lock
    /** The key width of a tree of {@link PackedLeafPage} leaves; 0 for {@link BTreePage} leaves. */
    private final int packedKeyWidth;

    private final PackedLeafPage leaf = new PackedLeafPage(); // used only under the write lock
    /** The descent's page numbers, reused by every insert (under the write lock). */
    private long[] path = new long[4];
    /** The last reading thread's flyweight: a lookup allocates nothing (see {@link #reader()}). */
    private Reader lastReader;

    private final ThreadLocal<Flyweights> readers = ThreadLocal.withInitial(Flyweights::new);

    /** A reading thread's flyweights: one for interior nodes (and slotted leaves), one for packed leaves. */
    private record Flyweights(BTreePage page, PackedLeafPage packed) {
        Flyweights() {
            this(new BTreePage(), new PackedLeafPage());
        }
    }

    private record Reader(Thread owner, Flyweights page) {}

    /**
     * A flyweight of the calling thread's own for lookups and scans, which run under the shared
     * lock and so cannot use {@link #node}: the last reader's is kept in a field, so a thread that
     * reads again finds it without the ThreadLocal (HeapFile's flyweight does the same). Allocates
     * only when the reading thread changes. Before, every lookup made a new BTreePage: 32 bytes a
     * probe, three a TPC-B transaction (issue 25). Only {@link #lookup} takes it: it calls no code of
     * the caller's while it holds it, where a scan's visitor may look up the same tree.
     */
    private Flyweights reader() {
        Reader r = lastReader;
        Thread t = Thread.currentThread();
        if (r != null && r.owner == t) return r.page;
        Flyweights p = readers.get();
        lastReader = new Reader(t, p);
        return p;
    }

    private volatile long root;
    private volatile int height = 1;
    /** The greatest key ever inserted (deletes leave it); null while the tree has had none. */
    private byte[] maxKey;

    private long entries;
    private int slotAlign = 1;

    public BTree(BufferPool pool, boolean unique) {
        this(pool, unique, 0);
    }

    /**
     * A tree whose leaves are {@link PackedLeafPage}s when {@code packedKeyWidth} is 1-8 (every key
     * then has exactly that many bytes), {@link BTreePage}s when it is 0.
     */
    public BTree(BufferPool pool, boolean unique, int packedKeyWidth) {
        if (packedKeyWidth < 0 || packedKeyWidth > 8)
            throw new IllegalArgumentException("packed key width " + packedKeyWidth);
        this.pool = pool;
        this.unique = unique;
        this.packedKeyWidth = packedKeyWidth;
        int quarter = (pool.pageSize() - BTreePage.HEADER_SIZE) / 4;
        this.maxKeyLength =
                packedKeyWidth > 0 ? packedKeyWidth : quarter - BTreePage.cellSize(0, false) - BTreePage.DIR_ENTRY_SIZE;
        Frame f = newNode();
        if (packedKeyWidth > 0) leaf.wrap(f.buffer()).init(packedKeyWidth, BTreePage.NO_PAGE);
        else node.wrap(f.buffer()).init(BTreePage.TYPE_LEAF, BTreePage.NO_PAGE);
        root = f.pageNo();
        pool.unpin(f, true);
    }

    private long pages;
    private final List<Long> pageNumbers = new ArrayList<>();

    private Frame newNode() {
        pages++;
        Frame f = pool.newPage();
        pageNumbers.add(f.pageNo());
        return f;
    }

    /** The numbers of the pages the tree has allocated. */
    public long[] pageNumbers() {
        lock.readLock().lock();
        try {
            return pageNumbers.stream().mapToLong(Long::longValue).toArray();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Pages the tree has allocated (leaves and inner nodes; deletes never free one). */
    public long pageCount() {
        lock.readLock().lock();
        try {
            return pages;
        } finally {
            lock.readLock().unlock();
        }
    }

    public boolean unique() {
        return unique;
    }

    /** The key width of a tree of {@link PackedLeafPage} leaves, 0 for {@link BTreePage} leaves. */
    public int packedKeyWidth() {
        return packedKeyWidth;
    }

    public BufferPool pool() {
        return pool;
    }

    public int maxKeyLength() {
        return maxKeyLength;
    }

    public long rootPage() {
        return root;
    }

    public int height() {
        return height;
    }

    public ReentrantReadWriteLock lock() {
        return lock;
    }

    /** Freed leaf bytes are zeroed up to multiples of this (the index cache's item size). */
    void slotAlign(int align) {
        lock.writeLock().lock();
        try {
            slotAlign = align;
        } finally {
            lock.writeLock().unlock();
        }
    }

    public long size() {
        lock.readLock().lock();
        try {
            return entries;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Inserts (key, tid). In a unique tree, returns false (and changes nothing) if the key exists. */
    public boolean insert(byte[] key, long tid) {
        if (key.length > maxKeyLength)
            throw new IllegalArgumentException("key of " + key.length + " B exceeds " + maxKeyLength + " B");
        if (tid < 0) throw new IllegalArgumentException("tid " + tid);
        if (packedKeyWidth > 0 && key.length != packedKeyWidth)
            throw new IllegalArgumentException(
                    "key of " + key.length + " B in a tree of " + packedKeyWidth + "-byte keys");
        lock.writeLock().lock();
        try {
            if (maxKey == null || Arrays.compareUnsigned(key, maxKey) > 0) maxKey = key.clone();
            if (packedKeyWidth > 0) return insertPacked(key, tid);
            if (path.length < height) path = new long[height + 2];
            long[] path = this.path;
            int depth = 0;
            long page = root;
            Frame f;
            while (true) {
                f = pool.pin(page);
                node.wrap(f.buffer()).slotAlign(slotAlign);
                if (node.isLeaf()) break;
                path[depth++] = page;
                long child = childFor(node, key, tid);
                pool.unpin(f, false);
                page = child;
            }
            int pos = node.lowerBound(key, tid, unique);
            if (unique && pos < node.keyCount() && node.compare(pos, key, tid, true) == 0) {
                pool.unpin(f, false);
                return false;
            }
            entries++;
            if (node.fits(key.length)) {
                node.insertAt(pos, key, tid, 0);
                pool.unpin(f, true);
                return true;
            }
            post(split(f, pos, key, tid, 0), depth);
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** Posts a split's separator in the parents on {@link #path} above {@code depth}, splitting them as needed. */
    private void post(Split s, int depth) {
        while (s != null) {
            if (depth == 0) {
                newRoot(s);
                return;
            }
            Frame parent = pool.pin(path[--depth]);
            node.wrap(parent.buffer()).slotAlign(slotAlign);
            int ppos = node.upperBound(s.key, s.tid, unique);
            if (node.fits(s.key.length)) {
                node.insertAt(ppos, s.key, s.tid, s.right);
                pool.unpin(parent, true);
                s = null;
            } else {
                s = split(parent, ppos, s.key, s.tid, s.right);
            }
        }
    }

    /**
     * {@link #insert} into a tree of packed leaves (under the write lock). When the leaf cannot
     * hold the entry at any encoding: an append past the rightmost leaf's last entry starts a new
     * leaf with it (the full leaf stays full, as {@link BTreePage} leaves do); otherwise the leaf's
     * entries are split in half, the separator posted, and the insert descends again (a half holds
     * a subset of the leaf's range, so it fits at widths no wider; the entry may still not fit its
     * half when its offset needs wider widths, and then that half splits in turn, down to two entries).
     */
    private boolean insertPacked(byte[] key, long tid) {
        long k = PackedLeafPage.keyValue(key);
        while (true) {
            if (path.length < height) path = new long[height + 2];
            int depth = 0;
            long page = root;
            Frame f;
            while (true) {
                f = pool.pin(page);
                node.wrap(f.buffer());
                if (node.isLeaf()) break;
                path[depth++] = page;
                long child = childFor(node, key, tid);
                pool.unpin(f, false);
                page = child;
            }
            PackedLeafPage l = leaf.wrap(f.buffer());
            int n = l.keyCount();
            int pos = l.lowerBound(key, tid, unique);
            if (unique && pos < n && l.key(pos) == k) {
                pool.unpin(f, false);
                return false;
            }
            if (l.insertAt(pos, k, tid)) {
                entries++;
                pool.unpin(f, true);
                return true;
            }
            long link = l.link();
            Frame rf = newNode();
            PackedLeafPage right = new PackedLeafPage().wrap(rf.buffer());
            right.init(packedKeyWidth, link);
            l.setLink(rf.pageNo());
            if (pos == n && link == BTreePage.NO_PAGE) {
                right.insertAt(0, k, tid);
                entries++;
                pool.unpin(rf, true);
                pool.unpin(f, true);
                post(new Split(key.clone(), tid, rf.pageNo()), depth);
                return true;
            }
            long[] keys = new long[n], tids = new long[n];
            l.entries(keys, tids);
            int m = n / 2;
            right.encode(keys, tids, m, n);
            l.encode(keys, tids, 0, m);
            pool.unpin(rf, true);
            pool.unpin(f, true);
            post(new Split(PackedLeafPage.keyOf(keys[m], packedKeyWidth), tids[m], rf.pageNo()), depth);
        }
    }

    /** A separator (key, tid) to post in the parent, pointing at the new right node. */
    private record Split(byte[] key, long tid, long right) {}

    /** A copy of the node being split, read while the node is rebuilt in place (under the write lock). */
    private byte[] splitCopy;

    private final BTreePage splitOld = new BTreePage();

    /**
     * Splits the pinned node {@code f} while inserting (key, tid, child) at {@code pos}; unpins f.
     * The node's entries are read from a copy of its bytes ({@link #splitCopy}), so a split copies
     * no key into an array of its own: only the separator it posts is one. (Before, every key of
     * the node was copied out, ~1,000 arrays a 32 KB leaf; order-line inserts split a leaf every
     * few hundred, the largest allocation left in TPC-C's New-Order, issue 25.)
     */
    private Split split(Frame f, int pos, byte[] key, long tid, long child) {
        boolean leaf = node.isLeaf();
        int n = node.keyCount();
        int size = pool.pageSize();
        if (splitCopy == null || splitCopy.length != size) {
            splitCopy = new byte[size];
            splitOld.wrap(ByteBuffer.wrap(splitCopy));
        }
        System.arraycopy(node.buffer().array(), 0, splitCopy, 0, size);
        BTreePage old = splitOld;
        long link = node.link();
        Frame rf = newNode();
        BTreePage right = new BTreePage().wrap(rf.buffer()).slotAlign(slotAlign);
        int m;
        if (leaf) {
            if (pos == n && link == BTreePage.NO_PAGE) {
                m = n; // ascending append at the rightmost leaf: keep this leaf full
            } else {
                int total = 0;
                for (int i = 0; i <= n; i++) total += entryBytes(old, i, pos, key);
                int acc = 0;
                m = 0;
                while (m < n && acc + entryBytes(old, m, pos, key) / 2 < total / 2) {
                    acc += entryBytes(old, m, pos, key);
                    m++;
                }
                m = Math.max(1, Math.min(m, n));
            }
            node.init(BTreePage.TYPE_LEAF, rf.pageNo());
            for (int i = 0; i < m; i++) copyEntry(old, i, pos, key, tid, child, node, i, false);
            right.init(BTreePage.TYPE_LEAF, link);
            for (int i = m; i <= n; i++) copyEntry(old, i, pos, key, tid, child, right, i - m, false);
        } else {
            m = (n + 1) / 2;
            node.init(BTreePage.TYPE_INTERIOR, link);
            for (int i = 0; i < m; i++) copyEntry(old, i, pos, key, tid, child, node, i, true);
            right.init(BTreePage.TYPE_INTERIOR, m == pos ? child : old.child(m < pos ? m : m - 1));
            for (int i = m + 1; i <= n; i++) copyEntry(old, i, pos, key, tid, child, right, i - m - 1, true);
        }
        Split result;
        if (m == pos) result = new Split(key, tid, rf.pageNo());
        else {
            int j = m < pos ? m : m - 1, o = old.keyOffset(j);
            result = new Split(Arrays.copyOfRange(splitCopy, o, o + old.keyLength(j)), old.tid(j), rf.pageNo());
        }
        pool.unpin(rf, true);
        pool.unpin(f, true);
        return result;
    }

    /** Bytes entry {@code i} of the split's merged sequence (the old node's with the new key at {@code pos}) takes in a leaf. */
    private static int entryBytes(BTreePage old, int i, int pos, byte[] key) {
        int len = i == pos ? key.length : old.keyLength(i < pos ? i : i - 1);
        return BTreePage.cellSize(len, true) + BTreePage.DIR_ENTRY_SIZE;
    }

    /** Inserts entry {@code i} of the split's merged sequence into {@code to} at {@code at}. */
    private static void copyEntry(
            BTreePage old, int i, int pos, byte[] key, long tid, long child, BTreePage to, int at, boolean interior) {
        if (i == pos) {
            to.insertAt(at, key, tid, interior ? child : 0);
            return;
        }
        int j = i < pos ? i : i - 1;
        to.insertAt(at, splitArray(old), old.keyOffset(j), old.keyLength(j), old.tid(j), interior ? old.child(j) : 0);
    }

    private static byte[] splitArray(BTreePage old) {
        return old.buffer().array();
    }

    private void newRoot(Split s) {
        Frame f = newNode();
        node.wrap(f.buffer()).init(BTreePage.TYPE_INTERIOR, root);
        node.insertAt(0, s.key, s.tid, s.right);
        root = f.pageNo();
        height++;
        pool.unpin(f, true);
    }

    private long childFor(BTreePage n, byte[] key, long tid) {
        int i = n.upperBound(key, tid, unique) - 1;
        return i < 0 ? n.link() : n.child(i);
    }

    /**
     * Deletes (key, tid); in a unique tree {@code tid} may be {@link TupleId#NONE} to delete the
     * key whatever its tuple. Returns whether an entry was removed.
     */
    public boolean delete(byte[] key, long tid) {
        lock.writeLock().lock();
        try {
            long searchTid = unique ? 0 : tid;
            Frame f = descend(key, searchTid, node);
            if (packedKeyWidth > 0) {
                PackedLeafPage l = leaf.wrap(f.buffer());
                int pos = l.lowerBound(key, searchTid, unique);
                boolean found = key.length == packedKeyWidth
                        && pos < l.keyCount()
                        && l.key(pos) == PackedLeafPage.keyValue(key)
                        && (unique ? tid == TupleId.NONE || l.tid(pos) == tid : l.tid(pos) == tid);
                if (found) {
                    l.removeAt(pos);
                    entries--;
                }
                pool.unpin(f, found);
                return found;
            }
            node.wrap(f.buffer()).slotAlign(slotAlign);
            int pos = node.lowerBound(key, searchTid, unique);
            boolean found = pos < node.keyCount()
                    && node.compare(pos, key, searchTid, unique) == 0
                    && (tid == TupleId.NONE || node.tid(pos) == tid);
            if (found) {
                node.removeAt(pos);
                entries--;
            }
            pool.unpin(f, found);
            return found;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** The leaf that holds (key, tid) or where it would go, pinned. Caller holds the lock. */
    Frame descend(byte[] key, long tid) {
        return descend(key, tid, new BTreePage());
    }

    /** As {@link #descend(byte[], long)}, with the caller's flyweight (left wrapped on the leaf). */
    Frame descend(byte[] key, long tid, BTreePage n) {
        long page = root;
        while (true) {
            Frame f = pool.pin(page);
            n.wrap(f.buffer());
            if (n.isLeaf()) return f;
            long child = childFor(n, key, tid);
            pool.unpin(f, false);
            page = child;
        }
    }

    /**
     * Whether {@code key} sorts after every key the tree has held (unsigned bytes, as the leaves order them): then
     * no entry has it or begins with it, and no entry's key is at least it. Call under the lock.
     */
    private boolean aboveEveryKey(byte[] key) {
        return maxKey == null || Arrays.compareUnsigned(key, maxKey) > 0;
    }

    /** The greatest key the tree has held (a copy), an upper bound of its keys; null if it never held one. */
    public byte[] maxKey() {
        lock.readLock().lock();
        try {
            return maxKey == null ? null : maxKey.clone();
        } finally {
            lock.readLock().unlock();
        }
    }

    /** Unique lookup: the tuple id of {@code key}, or {@link TupleId#NONE}. In a non-unique tree, the first one. */
    public long lookup(byte[] key) {
        // scan(key, key, true, ...) without its visitor, key copies and capturing lambda
        lock.readLock().lock();
        try {
            if (aboveEveryKey(key)) return TupleId.NONE; // no entry's key can equal it (or start with it)
            Flyweights fw = reader();
            BTreePage n = fw.page;
            Frame f = descend(key, -1, n);
            if (packedKeyWidth > 0) return lookupPacked(fw.packed, f, key);
            int pos = n.lowerBound(key, -1, unique);
            while (pos == n.keyCount()) { // non-unique: the first (key, tid) may start the next leaf
                long next = n.link();
                pool.unpin(f, false);
                if (next == BTreePage.NO_PAGE) return TupleId.NONE;
                f = pool.pin(next);
                n.wrap(f.buffer());
                pos = 0;
            }
            long tid = n.compare(pos, key, 0, true) == 0 ? n.tid(pos) : TupleId.NONE;
            pool.unpin(f, false);
            return tid;
        } finally {
            lock.readLock().unlock();
        }
    }

    /** {@link #lookup} in the packed leaf {@code f} that the descent reached (pinned); unpins it. */
    private long lookupPacked(PackedLeafPage l, Frame f, byte[] key) {
        l.wrap(f.buffer());
        int pos = l.lowerBound(key, -1, unique);
        while (pos == l.keyCount()) {
            long next = l.link();
            pool.unpin(f, false);
            if (next == BTreePage.NO_PAGE) return TupleId.NONE;
            f = pool.pin(next);
            l.wrap(f.buffer());
            pos = 0;
        }
        long tid =
                key.length == packedKeyWidth && l.key(pos) == PackedLeafPage.keyValue(key) ? l.tid(pos) : TupleId.NONE;
        pool.unpin(f, false);
        return tid;
    }

    /** Receives scanned entries; returns false to stop. */
    @FunctionalInterface
    public interface EntryVisitor {
        boolean visit(byte[] key, long tid);
    }

    /**
     * Receives scanned entries without a copy of their keys: the key is {@code length} bytes of
     * {@code bytes} from {@code offset}, the node's own bytes, to be read (not written, not kept)
     * during the call. Returns false to stop.
     */
    @FunctionalInterface
    public interface KeyRefVisitor {
        boolean visit(byte[] bytes, int offset, int length, long tid);
    }

    private static final byte[] NO_KEY = new byte[0];

    /**
     * Visits entries with lo <= key < hi (or <= hi if {@code hiInclusive}) in order; a null bound
     * is unbounded. The key passed to the visitor is a fresh copy.
     */
    public void scan(byte[] lo, byte[] hi, boolean hiInclusive, EntryVisitor visitor) {
        scan(
                lo,
                hi,
                hiInclusive,
                (bytes, offset, length, tid) -> visitor.visit(Arrays.copyOfRange(bytes, offset, offset + length), tid));
    }

    /**
     * {@link #scan(byte[], byte[], boolean, EntryVisitor)} without a copy of each key: the visitor
     * reads the key where it lies in the node ({@link KeyRefVisitor}), and the bound is compared
     * there too. A range scan that keeps only tuple ids allocates one flyweight.
     */
    public void scan(byte[] lo, byte[] hi, boolean hiInclusive, KeyRefVisitor visitor) {
        lock.readLock().lock();
        try {
            if (lo != null && aboveEveryKey(lo)) return; // every entry's key is below lo
            // Its own flyweight, not reader()'s: a visitor may look keys up in this tree meanwhile.
            BTreePage n = new BTreePage();
            byte[] start = lo == null ? NO_KEY : lo;
            Frame f = descend(start, -1, n);
            if (packedKeyWidth > 0) {
                scanPacked(f, start, hi, hiInclusive, visitor);
                return;
            }
            int pos = n.lowerBound(start, -1, unique);
            while (true) {
                byte[] bytes = n.buffer().array();
                for (; pos < n.keyCount(); pos++) {
                    int o = n.keyOffset(pos), len = n.keyLength(pos);
                    if (hi != null) {
                        int c = Arrays.compareUnsigned(bytes, o, o + len, hi, 0, hi.length);
                        if (c > 0 || (c == 0 && !hiInclusive)) {
                            pool.unpin(f, false);
                            return;
                        }
                    }
                    if (!visitor.visit(bytes, o, len, n.tid(pos))) {
                        pool.unpin(f, false);
                        return;
                    }
                }
                long next = n.link();
                pool.unpin(f, false);
                if (next == BTreePage.NO_PAGE) return;
                f = pool.pin(next);
                n.wrap(f.buffer());
                pos = 0;
            }
        } finally {
            lock.readLock().unlock();
        }
    }

    /** The scan's walk over packed leaves from the pinned leaf {@code f}; each key is written into one array of the scan's. */
    private void scanPacked(Frame f, byte[] start, byte[] hi, boolean hiInclusive, KeyRefVisitor visitor) {
        PackedLeafPage l = new PackedLeafPage().wrap(f.buffer());
        int w = packedKeyWidth;
        byte[] k = new byte[w];
        int pos = l.lowerBound(start, -1, unique);
        while (true) {
            for (; pos < l.keyCount(); pos++) {
                l.keyBytes(pos, k);
                if (hi != null) {
                    int c = Arrays.compareUnsigned(k, 0, w, hi, 0, hi.length);
                    if (c > 0 || (c == 0 && !hiInclusive)) {
                        pool.unpin(f, false);
                        return;
                    }
                }
                if (!visitor.visit(k, 0, w, l.tid(pos))) {
                    pool.unpin(f, false);
                    return;
                }
            }
            long next = l.link();
            pool.unpin(f, false);
            if (next == BTreePage.NO_PAGE) return;
            f = pool.pin(next);
            l.wrap(f.buffer());
            pos = 0;
        }
    }

    /** Leaf statistics: count, entries, and fill (bytes in use over page bytes). */
    public record LeafStats(int leaves, long entries, double fill, long freeBytes) {}

    public LeafStats leafStats() {
        lock.readLock().lock();
        try {
            BTreePage n = new BTreePage();
            PackedLeafPage l = new PackedLeafPage();
            Frame f = descend(new byte[0], -1);
            int leaves = 0;
            long used = 0, free = 0, count = 0;
            while (true) {
                leaves++;
                long next;
                if (packedKeyWidth > 0) {
                    l.wrap(f.buffer());
                    used += l.usedBytes();
                    free += l.freeBytes();
                    count += l.keyCount();
                    next = l.link();
                } else {
                    n.wrap(f.buffer());
                    used += n.usedBytes();
                    free += n.freeBytes();
                    count += n.keyCount();
                    next = n.link();
                }
                pool.unpin(f, false);
                if (next == BTreePage.NO_PAGE) break;
                f = pool.pin(next);
            }
            return new LeafStats(leaves, count, (double) used / ((long) leaves * pool.pageSize()), free);
        } finally {
            lock.readLock().unlock();
        }
    }
}
