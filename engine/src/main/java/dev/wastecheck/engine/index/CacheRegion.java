package dev.wastecheck.engine.index;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The index cache inside one leaf's free space (§2.1): a flyweight over the bytes between the
 * key area and the directory, cut into slots of the item size at page offsets that are
 * multiples of it.
 *
 * <pre>
 *  item = | TID+1 u64 (0 = empty slot) | FIELDS (fieldBytes) |        ITEM_SIZE = 8 + fieldBytes
 *
 *  KEY_AREA_END                      S = K/(K+D)                                 DIR_START
 *     |..live slots....[ window: at most cap slots around S ].........live slots..|
 *                      [periph.|      core      |periph.]
 * </pre>
 *
 * <ul>
 *   <li>Key inserts grow the key area up and the directory down at rates K and D, so they meet
 *       last at the stable point S = K/(K+D) of the page: items near S survive longest.</li>
 *   <li>The window is the {@code cap} slots nearest S (cap = cache_size x keys in the leaf);
 *       placement, lookup and eviction use only the window, but invalidation sweeps every live
 *       slot, so an item that leaves the window can never come back stale.</li>
 *   <li>New items go to a random slot of the window if it is empty (or else its neighbour, if
 *       that is empty); when both are taken, to a random slot of the peripheral buckets (the
 *       outer eighth at each end), evicting what was there. A placement thus touches one or two
 *       cache lines of the window, not all of them. The price: a placement that finds both
 *       probes taken evicts although empty slots may remain, while a window fills and after
 *       invalidations leave holes (a hole is refilled only when a probe lands on it).</li>
 *   <li>A hit swaps the item with its neighbour one slot closer to S (the transposition rule,
 *       whose steady state orders items by frequency: hot items end in the core, cold ones in
 *       the periphery). Jumping halfway to S was tried: it ended 1-4 points further from the
 *       oracle on Fig. 2a (docs/benchmarks.md (engine)).</li>
 *   <li>A lookup scans outward from S, alternating sides, so hot items are found first.</li>
 *   <li>In a B+tree leaf, a 256-bit filter in the header (CACHE_FILTER) has a bit set for the
 *       hash of every cached tuple id; a lookup whose bit is clear is a miss without a scan.
 *       A placement sets its item's bit; an evicted or cleared item's bit stays set (a false
 *       positive costs a scan, never a wrong answer), and every scan that misses rebuilds the
 *       filter exactly from the items it saw, so stale bits are swept by the scans they cause.
 *       Scanning the window touches ~11 cache lines: the filter keeps most misses from it.</li>
 *   <li>CACHE_STAMP, a header byte, counts placements (mod 256): a reader that missed and comes
 *       back to place what it read checks for a copy placed meanwhile only if the stamp moved.</li>
 * </ul>
 * Callers hold the leaf's latch. Nothing is allocated per call.
 */
public final class CacheRegion {
    public static final int ITEM_TID = 0;
    public static final int ITEM_FIELDS = 8;

    private ByteBuffer b;
    private byte[] a;
    private int itemSize;
    private int liveLo, liveHi; // slot indices, [liveLo, liveHi)
    private int first, end; // window after trim, [first, end)
    private int baseFirst, baseEnd; // window before trim
    private int stable;
    private int filter = -1; // byte offset of the 256-bit filter, or -1 for none

    /**
     * Frames the region [lo, hi) of {@code page} with stable point {@code stableOffset} (a byte
     * offset), at most {@code cap} slots in the window, of which {@code trim} peripheral slots
     * are currently overwritten (Shrink).
     */
    public CacheRegion wrap(ByteBuffer page, int itemSize, int lo, int hi, double stableOffset, int cap, int trim) {
        this.filter = -1;
        this.b = page;
        this.a = page.array();
        this.itemSize = itemSize;
        liveLo = (lo + itemSize - 1) / itemSize;
        liveHi = hi / itemSize;
        if (liveHi <= liveLo || cap <= 0) {
            liveHi = Math.max(liveHi, liveLo);
            first = end = baseFirst = baseEnd = stable = liveLo;
            return this;
        }
        int n = liveHi - liveLo;
        stable = Math.max(liveLo, Math.min(liveHi - 1, (int) (stableOffset / itemSize)));
        int w = Math.min(cap, n);
        int f = Math.max(liveLo, Math.min(liveHi - w, stable - w / 2));
        baseFirst = f;
        baseEnd = f + w;
        int t = Math.min(trim, w / 2);
        first = baseFirst + (t + 1) / 2;
        end = baseEnd - t / 2;
        stable = Math.max(first, Math.min(end - 1, stable));
        return this;
    }

    /** Frames a B+tree leaf's free space. */
    public CacheRegion wrapLeaf(BTreePage leaf, int itemSize, double cacheSize) {
        int lo = leaf.keyAreaEnd(), hi = leaf.dirStart();
        int k = leaf.keyAreaBytes(), d = leaf.directoryBytes();
        double s = k + d == 0
                ? (lo + hi) / 2.0
                : BTreePage.HEADER_SIZE + (leaf.pageSize() - BTreePage.HEADER_SIZE) * (double) k / (k + d);
        int cap = (int) Math.ceil(cacheSize * Math.max(1, leaf.keyCount()));
        wrap(leaf.buffer(), itemSize, lo, hi, s, cap, leaf.cacheTrim());
        this.filter = BTreePage.CACHE_FILTER;
        return this;
    }

    private static final int FILTER_BITS_LOG2 = Integer.numberOfTrailingZeros(BTreePage.CACHE_FILTER_SIZE * 8);
    /** Filter words accumulated by a scan (per flyweight, so nothing is allocated per call). */
    private final long[] acc = new long[BTreePage.CACHE_FILTER_SIZE / 8];

    private static int filterBit(long tid) {
        return (int) ((tid * 0x9E3779B97F4A7C15L) >>> (64 - FILTER_BITS_LOG2));
    }

    /** False if {@code tid} is certainly not cached (its filter bit is clear). */
    public boolean mayContain(long tid) {
        if (filter < 0) return true;
        int bit = filterBit(tid);
        return (b.getLong(filter + ((bit >>> 6) << 3)) & (1L << bit)) != 0;
    }

    public int windowSlots() {
        return end - first;
    }

    public int baseWindowSlots() {
        return baseEnd - baseFirst;
    }

    public int stableSlot() {
        return stable;
    }

    public int liveSlots() {
        return liveHi - liveLo;
    }

    private int off(int slot) {
        return slot * itemSize;
    }

    public long tidAt(int slot) {
        return b.getLong(off(slot) + ITEM_TID) - 1;
    }

    public boolean isEmpty(int slot) {
        return b.getLong(off(slot) + ITEM_TID) == 0;
    }

    /**
     * The slot holding {@code tid} in the window, scanning outward from S; -1 if absent. A scan
     * that finds nothing has seen every item of the window and rewrites the filter from them.
     */
    public int find(long tid) {
        // An empty window (no whole slot left in a full leaf) frames first = end = stable =
        // liveLo, a slot that is not live: what it held may be torn by the directory and is no
        // longer swept by invalidate(), so it must never be read.
        if (first >= end || !mayContain(tid)) return -1;
        long tag = tid + 1;
        long[] f = acc;
        Arrays.fill(f, 0);
        int lo = stable, hi = stable + 1;
        while (lo >= first || hi < end) {
            if (lo >= first) {
                long t = b.getLong(off(lo));
                if (t == tag) return lo;
                if (t != 0) {
                    int bit = filterBit(t - 1);
                    f[bit >>> 6] |= 1L << bit;
                }
                lo--;
            }
            if (hi < end) {
                long t = b.getLong(off(hi));
                if (t == tag) return hi;
                if (t != 0) {
                    int bit = filterBit(t - 1);
                    f[bit >>> 6] |= 1L << bit;
                }
                hi++;
            }
        }
        if (filter >= 0) for (int i = 0; i < f.length; i++) b.putLong(filter + 8 * i, f[i]);
        return -1;
    }

    /** Copies the fields of the item in {@code slot} into {@code out}. */
    public void readFields(int slot, byte[] out) {
        System.arraycopy(a, off(slot) + ITEM_FIELDS, out, 0, itemSize - ITEM_FIELDS);
    }

    /** On a hit: swap the item one slot toward S. Returns the item's new slot. */
    public int promote(int slot) {
        if (slot == stable) return slot;
        int to = slot < stable ? slot + 1 : slot - 1;
        int o1 = off(slot), o2 = off(to);
        for (int i = 0; i < itemSize; i++) {
            byte t = a[o1 + i];
            a[o1 + i] = a[o2 + i];
            a[o2 + i] = t;
        }
        return to;
    }

    /**
     * Places (tid, fields): in a random slot of the window if it is empty, else in the slot after
     * it if that one is, else over a random peripheral slot. With {@code checkDuplicate}, first
     * returns the slot of a copy of tid already cached (another reader placed it meanwhile).
     * Returns the slot, or -1 if the window is empty.
     */
    public int place(long tid, byte[] fields, RandomGenerator rnd, boolean checkDuplicate) {
        int w = end - first;
        if (w <= 0) return -1;
        if (checkDuplicate) {
            int s = find(tid);
            if (s >= 0) return s;
        }
        int chosen = first + rnd.nextInt(w);
        if (b.getLong(off(chosen)) != 0) {
            int next = chosen + 1 == end ? first : chosen + 1;
            chosen = b.getLong(off(next)) == 0 ? next : peripheralSlot(rnd); // an evicted item's bit stays
        }
        int o = off(chosen);
        b.putLong(o + ITEM_TID, tid + 1);
        System.arraycopy(fields, 0, a, o + ITEM_FIELDS, itemSize - ITEM_FIELDS);
        if (filter >= 0) {
            int bit = filterBit(tid);
            int at = filter + ((bit >>> 6) << 3);
            b.putLong(at, b.getLong(at) | (1L << bit));
            a[BTreePage.CACHE_STAMP]++;
        }
        return chosen;
    }

    /** The leaf's placement count (mod 256); see {@link #place}'s checkDuplicate. 0 outside a leaf. */
    public int stamp() {
        return filter >= 0 ? a[BTreePage.CACHE_STAMP] & 0xFF : 0;
    }

    /** A random slot of the peripheral buckets: the outer eighth of the window at each end. */
    int peripheralSlot(RandomGenerator rnd) {
        int w = end - first;
        int edge = Math.max(1, w / 8);
        int r = rnd.nextInt(2 * edge);
        return r < edge ? first + r : end - 1 - (r - edge);
    }

    public void clear(int slot) {
        b.putLong(off(slot) + ITEM_TID, 0);
    }

    /** Empties every live slot, and the filter with them (it is exact for an empty cache). */
    public void clearAll() {
        for (int s = liveLo; s < liveHi; s++) b.putLong(off(s) + ITEM_TID, 0);
        if (filter >= 0) for (int i = 0; i < acc.length; i++) b.putLong(filter + 8 * i, 0);
    }

    /** Empties every live slot holding {@code tid} (the whole free space, not just the window). */
    public void invalidate(long tid) {
        long tag = tid + 1;
        for (int s = liveLo; s < liveHi; s++) if (b.getLong(off(s)) == tag) b.putLong(off(s), 0);
    }

    /**
     * Empties every live slot holding one of the first {@code n} tuple ids of {@code tids} (which
     * it sorts): one sweep of the free space for any number of them.
     */
    public void invalidateAll(long[] tids, int n) {
        if (n == 1) {
            invalidate(tids[0]);
            return;
        }
        Arrays.sort(tids, 0, n);
        for (int s = liveLo; s < liveHi; s++) {
            long t = b.getLong(off(s));
            if (t != 0 && Arrays.binarySearch(tids, 0, n, t - 1) >= 0) b.putLong(off(s), 0);
        }
    }

    /**
     * Shrink: overwrite the next peripheral slot of the base window (alternating ends, moving
     * inward), as a key insert would. Returns the new trim, which stops at half the window.
     */
    public int trimOne(int trim) {
        int w = baseEnd - baseFirst;
        int t = trim + 1;
        if (t > w / 2) return trim;
        int slot = (t % 2 == 1) ? baseFirst + (t - 1) / 2 : baseEnd - t / 2;
        clear(slot);
        return t;
    }

    public int countItems() {
        int n = 0;
        for (int s = first; s < end; s++) if (!isEmpty(s)) n++;
        return n;
    }
}
