package dev.wastecheck.engine.index;

import dev.wastecheck.engine.buffer.Frame;
import dev.wastecheck.engine.file.TupleId;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * The index cache of "No Bits Left Behind" §2.1: field values of hot tuples kept in the unused
 * space of a B+tree's leaves ({@link CacheRegion}), so that a lookup whose projection is the key
 * plus cached fields is answered from the leaf and never touches the heap.
 *
 * <p><b>It costs nothing to keep.</b> Cache writes never dirty a page: an evicted leaf simply
 * loses the items written since it was last written back. Key inserts overwrite the periphery
 * of the free space without asking; deletes return zeroed space.
 *
 * <p><b>Consistency.</b> Writers update the heap first and then log the update's predicate in
 * the {@link UpdateLog}, which advances the index's cache sequence number (CSN). Each leaf
 * keeps in its header the CSN its items are current to; before a leaf's cache is read or
 * written, the predicates logged since are applied to it. A reader that missed records the
 * CSN before it reads the heap and, when it comes to store what it read, stores it only if no
 * predicate logged since then matches the tuple; so a value read before an update can never
 * be cached after it.
 *
 * <p><b>Latching.</b> Every cache access takes the leaf frame's latch with {@code tryLatch()} and
 * gives up when it is busy: a lookup then goes to the heap and does not cache. Lookups hold
 * the tree's read lock, key inserts and deletes its write lock.
 */
public final class IndexCache {
    private final BTree tree;
    private final int fieldBytes;
    private final int itemSize;
    private final CachePolicy policy;
    private final double cacheSize;
    private final UpdateLog log;
    private volatile int shrinkPeriod = 10;
    private final LongAdder hits = new LongAdder(),
            misses = new LongAdder(),
            busy = new LongAdder(),
            notFound = new LongAdder();

    /** Per-thread flyweights, so a lookup allocates nothing. */
    private static final class Scratch {
        final Thread owner = Thread.currentThread();
        final BTreePage page = new BTreePage();
        final CacheRegion region = new CacheRegion();
        final Pending pending = new Pending();
        /**
         * Where items go and which periphery slot Shrink overwrites: seeded, so that one thread's
         * replay of the same events places the same items (autotune picks the same design twice).
         */
        final SplittableRandom random = new SplittableRandom(0x9E3779B97F4A7C15L);
    }

    private final ThreadLocal<Scratch> scratch = ThreadLocal.withInitial(Scratch::new);
    /**
     * The last thread's scratch: a ThreadLocal lookup that misses its home slot (many
     * ThreadLocals in one thread) cost 15% of a lookup in profiles; the common case of one
     * thread per index in a row skips it. Final fields make the holder safe to publish racily.
     */
    private Scratch lastScratch;

    private Scratch scratch() {
        Scratch s = lastScratch;
        if (s != null && s.owner == Thread.currentThread()) return s;
        s = scratch.get();
        lastScratch = s;
        return s;
    }

    /**
     * @param fieldBytes the cached projection's width (the item is 8 bytes of tid plus this)
     * @param cacheSize  at most this fraction of each leaf's tuples is cached (replay's {@code cache_size=})
     */
    public IndexCache(BTree tree, int fieldBytes, CachePolicy policy, double cacheSize) {
        if (tree.packedKeyWidth() > 0)
            throw new IllegalArgumentException("the index cache lives in BTreePage leaves; this tree's are packed");
        if (!tree.unique()) throw new IllegalArgumentException("the index cache serves unique indexes");
        if (fieldBytes < 1 || fieldBytes > 248) throw new IllegalArgumentException("field bytes " + fieldBytes);
        if (!(cacheSize >= 0 && cacheSize <= 1)) throw new IllegalArgumentException("cache_size " + cacheSize);
        this.tree = tree;
        this.fieldBytes = fieldBytes;
        this.itemSize = CacheRegion.ITEM_FIELDS + fieldBytes;
        this.policy = policy;
        this.cacheSize = cacheSize;
        this.log = new UpdateLog(4096);
        tree.slotAlign(itemSize);
    }

    public BTree tree() {
        return tree;
    }

    public CachePolicy policy() {
        return policy;
    }

    public int fieldBytes() {
        return fieldBytes;
    }

    public int itemSize() {
        return itemSize;
    }

    public UpdateLog log() {
        return log;
    }
    /** Shrink: one peripheral slot of a leaf is overwritten every this many accesses to it (on average). */
    public void shrinkPeriod(int accesses) {
        this.shrinkPeriod = Math.max(1, accesses);
    }

    /**
     * Looks up {@code key} and fills {@code out} with the tuple's cached fields, from the leaf
     * when it holds them, else from {@code heap}. Returns the tuple id, or {@link TupleId#NONE}
     * if the key is absent (then {@code out} is untouched).
     */
    public long lookup(byte[] key, FieldSource heap, byte[] out) {
        Scratch sc = scratch();
        BTreePage leaf = sc.page;
        tree.lock().readLock().lock();
        try {
            Frame f = tree.descend(key, 0, leaf);
            try {
                leaf.wrap(f.buffer());
                int pos = leaf.lowerBound(key, 0, true);
                if (pos >= leaf.keyCount() || leaf.compare(pos, key, 0, true) != 0) {
                    notFound.increment();
                    return TupleId.NONE;
                }
                long tid = leaf.tid(pos);
                if (policy == CachePolicy.OFF) {
                    heap.read(tid, out);
                    return tid;
                }
                int stamp = -1; // the leaf's placement count when this lookup found tid absent
                int trim = -1; // and its Shrink trim: the window sc.region frames unless it moved
                if (f.tryLatch()) {
                    try {
                        catchUp(leaf, sc.region);
                        CacheRegion r = sc.region.wrapLeaf(leaf, itemSize, cacheSize);
                        int slot = r.find(tid);
                        stamp = r.stamp();
                        trim = leaf.cacheTrim();
                        if (policy == CachePolicy.SHRINK) shrinkTick(leaf, r, sc.random);
                        if (slot >= 0 && !r.isEmpty(slot) && r.tidAt(slot) == tid) {
                            r.readFields(slot, out);
                            r.promote(slot);
                            hits.increment();
                            return tid;
                        }
                    } finally {
                        f.unlatch();
                    }
                } else {
                    busy.increment();
                }
                misses.increment();
                long readCsn = log.current(); // before the heap read: see the class comment
                heap.read(tid, out);
                if (f.tryLatch()) {
                    try {
                        boolean reframed = catchUp(leaf, sc.region);
                        if (unchangedSince(readCsn, tid, leaf)) {
                            // keys cannot move under the tree's read lock: only a catch-up or a
                            // Shrink trim since the first latch changes the window's frame
                            CacheRegion r = reframed || trim < 0 || trim != leaf.cacheTrim()
                                    ? sc.region.wrapLeaf(leaf, itemSize, cacheSize)
                                    : sc.region;
                            r.place(tid, out, sc.random, stamp < 0 || stamp != r.stamp());
                        }
                    } finally {
                        f.unlatch();
                    }
                } else {
                    busy.increment();
                }
                return tid;
            } finally {
                tree.pool().unpin(f, false);
            }
        } finally {
            tree.lock().readLock().unlock();
        }
    }

    private void shrinkTick(BTreePage leaf, CacheRegion r, SplittableRandom random) {
        if (random.nextInt(shrinkPeriod) == 0) {
            leaf.setCacheTrim(r.trimOne(leaf.cacheTrim()));
            r.wrapLeaf(leaf, itemSize, cacheSize);
        }
    }

    /**
     * Brings the leaf's cache up to the index CSN. Caller holds the leaf latch. Returns whether
     * it had to, in which case {@code region} frames the whole free space, not the window.
     *
     * <p>The predicates logged since the leaf's CSN are applied in one sweep of its free space:
     * the tuple ids they name are gathered, sorted and looked up for each cached item. Applying
     * them one by one swept the free space once per predicate, and a leaf that had missed a few
     * hundred updates of its table paid a few hundred sweeps on its next access (in a replay of
     * the generated wiki with `cache=swap`, that was most of the replay's time).
     */
    private boolean catchUp(BTreePage leaf, CacheRegion region) {
        long g = log.current();
        long pc = leaf.cacheCsn();
        if (pc == g) return false;
        CacheRegion r = region.wrapLeaf(leaf, itemSize, 1.0);
        Pending pending = scratch().pending.reset(leaf);
        if (pc > g || !log.forEach(pc, g, pending) || pending.clear) r.clearAll();
        else if (pending.count > 0) r.invalidateAll(pending.tids, pending.count);
        leaf.setCacheCsn(g);
        return true;
    }

    /** What a leaf must drop to catch up: the tuple ids named since its CSN, or everything. */
    private static final class Pending implements UpdateLog.Visitor {
        long[] tids = new long[64];
        int count;
        boolean clear;
        private BTreePage leaf;

        Pending reset(BTreePage leaf) {
            this.leaf = leaf;
            count = 0;
            clear = false;
            return this;
        }

        @Override
        public void visit(UpdateLog.Predicate p) {
            if (clear) return;
            if (p instanceof UpdateLog.TupleUpdated t) {
                if (count == tids.length) tids = Arrays.copyOf(tids, 2 * count);
                tids[count++] = t.tid();
            } else if (!(p instanceof UpdateLog.KeyRangeUpdated k) || overlaps(leaf, k)) {
                clear = true;
            }
        }
    }

    private static boolean overlaps(BTreePage leaf, UpdateLog.KeyRangeUpdated k) {
        int n = leaf.keyCount();
        if (n == 0) return false;
        if (k.hi() != null && KeyEncoder.compare(leaf.key(0), k.hi()) > 0) return false;
        return k.lo() == null || KeyEncoder.compare(leaf.key(n - 1), k.lo()) >= 0;
    }

    /** Whether no predicate logged after {@code readCsn} may concern {@code tid} in this leaf. */
    private boolean unchangedSince(long readCsn, long tid, BTreePage leaf) {
        long g = log.current();
        if (g == readCsn) return true;
        boolean[] hit = {false};
        boolean complete = log.forEach(readCsn, g, p -> {
            if (p instanceof UpdateLog.TupleUpdated t) {
                if (t.tid() == tid) hit[0] = true;
            } else if (p instanceof UpdateLog.KeyRangeUpdated k) {
                if (overlaps(leaf, k)) hit[0] = true;
            } else hit[0] = true;
        });
        return complete && !hit[0];
    }

    /** Call after a tuple's cached fields changed in the heap, or the tuple was deleted. */
    public void tupleUpdated(long tid) {
        log.append(new UpdateLog.TupleUpdated(tid));
    }

    /** Call after an update of the tuples whose key lies in [lo, hi]. */
    public void keyRangeUpdated(byte[] lo, byte[] hi) {
        log.append(new UpdateLog.KeyRangeUpdated(lo, hi));
    }

    /** Call after an update whose predicate the cache cannot evaluate. */
    public void anyUpdated() {
        log.append(new UpdateLog.AnyUpdated());
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }
    /** Cache accesses skipped because the leaf latch was busy. */
    public long latchBusy() {
        return busy.sum();
    }

    public double hitRate() {
        long h = hits.sum(), t = h + misses.sum();
        return t == 0 ? 0 : (double) h / t;
    }

    public void resetCounters() {
        hits.reset();
        misses.reset();
        busy.reset();
        notFound.reset();
    }

    /** Items currently cached, and the most the windows could hold, over all leaves. */
    public record Occupancy(long items, long capacitySlots, long leaves) {}

    public Occupancy occupancy() {
        tree.lock().writeLock().lock(); // no concurrent cache writes while counting
        try {
            BTreePage leaf = new BTreePage();
            CacheRegion r = new CacheRegion();
            Frame f = tree.descend(new byte[0], -1);
            long items = 0, cap = 0, leaves = 0;
            while (true) {
                leaf.wrap(f.buffer());
                catchUp(leaf, r);
                r.wrapLeaf(leaf, itemSize, cacheSize);
                items += r.countItems();
                cap += r.windowSlots();
                leaves++;
                long next = leaf.link();
                tree.pool().unpin(f, false);
                if (next == BTreePage.NO_PAGE) break;
                f = tree.pool().pin(next);
            }
            return new Occupancy(items, cap, leaves);
        } finally {
            tree.lock().writeLock().unlock();
        }
    }
}
