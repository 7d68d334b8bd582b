package dev.wastecheck.engine.index;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.buffer.Frame;
import dev.wastecheck.engine.file.TupleId;
import java.util.ArrayList;
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
 * <p>Concurrency: one read-write lock per tree. Lookups and scans share it; inserts and
 * deletes take it exclusively. The index cache writes inside leaves under the read lock,
 * guarded by each frame's short latch.
 */
public final class BTree {
    private final BufferPool pool;
    private final boolean unique;
    private final int maxKeyLength;
    private final ReentrantReadWriteLock lock = new ReentrantReadWriteLock();
    private final BTreePage node = new BTreePage(); // used only under the write lock
    private volatile long root;
    private volatile int height = 1;
    private long entries;
    private int slotAlign = 1;

    public BTree(BufferPool pool, boolean unique) {
        this.pool = pool;
        this.unique = unique;
        int quarter = (pool.pageSize() - BTreePage.HEADER_SIZE) / 4;
        this.maxKeyLength = quarter - BTreePage.cellSize(0, false) - BTreePage.DIR_ENTRY_SIZE;
        Frame f = newNode();
        node.wrap(f.buffer()).init(BTreePage.TYPE_LEAF, BTreePage.NO_PAGE);
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
        lock.writeLock().lock();
        try {
            long[] path = new long[height];
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
            Split s = split(f, pos, key, tid, 0);
            while (s != null) {
                if (depth == 0) {
                    newRoot(s);
                    return true;
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
            return true;
        } finally {
            lock.writeLock().unlock();
        }
    }

    /** A separator (key, tid) to post in the parent, pointing at the new right node. */
    private record Split(byte[] key, long tid, long right) {}

    /** Splits the pinned node {@code f} while inserting (key, tid, child) at {@code pos}; unpins f. */
    private Split split(Frame f, int pos, byte[] key, long tid, long child) {
        boolean leaf = node.isLeaf();
        int n = node.keyCount();
        byte[][] keys = new byte[n + 1][];
        long[] tids = new long[n + 1];
        long[] children = new long[n + 1];
        for (int i = 0, j = 0; i <= n; i++) {
            if (i == pos) {
                keys[i] = key;
                tids[i] = tid;
                children[i] = child;
                continue;
            }
            keys[i] = node.key(j);
            tids[i] = node.tid(j);
            children[i] = leaf ? 0 : node.child(j);
            j++;
        }
        long link = node.link();
        Frame rf = newNode();
        BTreePage right = new BTreePage().wrap(rf.buffer()).slotAlign(slotAlign);
        Split result;
        if (leaf) {
            int m;
            if (pos == n && link == BTreePage.NO_PAGE) {
                m = n; // ascending append at the rightmost leaf: keep this leaf full
            } else {
                int total = 0;
                for (byte[] k : keys) total += BTreePage.cellSize(k.length, true) + BTreePage.DIR_ENTRY_SIZE;
                int acc = 0;
                m = 0;
                while (m < n
                        && acc + (BTreePage.cellSize(keys[m].length, true) + BTreePage.DIR_ENTRY_SIZE) / 2
                                < total / 2) {
                    acc += BTreePage.cellSize(keys[m].length, true) + BTreePage.DIR_ENTRY_SIZE;
                    m++;
                }
                m = Math.max(1, Math.min(m, n));
            }
            node.init(BTreePage.TYPE_LEAF, rf.pageNo());
            for (int i = 0; i < m; i++) node.insertAt(i, keys[i], tids[i], 0);
            right.init(BTreePage.TYPE_LEAF, link);
            for (int i = m; i <= n; i++) right.insertAt(i - m, keys[i], tids[i], 0);
            result = new Split(keys[m], tids[m], rf.pageNo());
        } else {
            int m = (n + 1) / 2;
            node.init(BTreePage.TYPE_INTERIOR, link);
            for (int i = 0; i < m; i++) node.insertAt(i, keys[i], tids[i], children[i]);
            right.init(BTreePage.TYPE_INTERIOR, children[m]);
            for (int i = m + 1; i <= n; i++) right.insertAt(i - m - 1, keys[i], tids[i], children[i]);
            result = new Split(keys[m], tids[m], rf.pageNo());
        }
        pool.unpin(rf, true);
        pool.unpin(f, true);
        return result;
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

    /** Unique lookup: the tuple id of {@code key}, or {@link TupleId#NONE}. In a non-unique tree, the first one. */
    public long lookup(byte[] key) {
        // scan(key, key, true, ...) without its visitor, key copies and capturing lambda
        lock.readLock().lock();
        try {
            BTreePage n = new BTreePage();
            Frame f = descend(key, -1, n);
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

    /** Receives scanned entries; returns false to stop. */
    @FunctionalInterface
    public interface EntryVisitor {
        boolean visit(byte[] key, long tid);
    }

    /**
     * Visits entries with lo <= key < hi (or <= hi if {@code hiInclusive}) in order; a null bound
     * is unbounded. The key passed to the visitor is a fresh copy.
     */
    public void scan(byte[] lo, byte[] hi, boolean hiInclusive, EntryVisitor visitor) {
        lock.readLock().lock();
        try {
            BTreePage n = new BTreePage();
            byte[] start = lo == null ? new byte[0] : lo;
            Frame f = descend(start, -1, n);
            int pos = n.lowerBound(start, -1, unique);
            while (true) {
                for (; pos < n.keyCount(); pos++) {
                    byte[] k = n.key(pos);
                    if (hi != null) {
                        int c = KeyEncoder.compare(k, hi);
                        if (c > 0 || (c == 0 && !hiInclusive)) {
                            pool.unpin(f, false);
                            return;
                        }
                    }
                    if (!visitor.visit(k, n.tid(pos))) {
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

    /** Leaf statistics: count, entries, and fill (bytes in use over page bytes). */
    public record LeafStats(int leaves, long entries, double fill, long freeBytes) {}

    public LeafStats leafStats() {
        lock.readLock().lock();
        try {
            BTreePage n = new BTreePage();
            Frame f = descend(new byte[0], -1);
            int leaves = 0;
            long used = 0, free = 0, count = 0;
            while (true) {
                n.wrap(f.buffer());
                leaves++;
                used += n.usedBytes();
                free += n.freeBytes();
                count += n.keyCount();
                long next = n.link();
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
