package dev.wastecheck.engine.table;

import dev.wastecheck.engine.file.TupleId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The entries of one cold index that wait for their B+tree ({@link Table#deferColdIndexes}): tuples
 * that entered the cold partition lately, by key. Packed, so that what the working set counts is what
 * they hold: a sorted run of the keys one after another with their tuple ids, and a short tail of the
 * latest entries in the order they came, merged into the run when it fills.
 *
 * <pre>
 *   header (16 B):  | count n u32 | tid base u64 | key width u8 | offset width u8 | tid width u8 | pad u8 |
 *   keys:           | key 0 bytes | key 1 bytes | ... | key n-1 bytes |          (ascending, unsigned bytes)
 *   offsets:        | end 0 | end 1 | ... | end n-1 |                           (only when the keys' lengths differ:
 *                                                                                 offset width bytes each, big-endian)
 *   tids:           | tid 0 - base | tid 1 - base | ... | tid n-1 - base |       (tid width bytes each, big-endian)
 *   tail: up to {@value #TAIL} (key, tid) pairs in arrival order, counted as key + 4 + 8 bytes each
 * </pre>
 *
 * The key width is the keys' one length when they all have it (a fixed-width integer key, most cold indexes):
 * key i is then at i x width and no offset is stored; otherwise it is 0 and the offsets are stored in the fewest
 * whole bytes that hold the keys' total length. The tuple ids are stored as their distance from the run's least
 * one in the fewest whole bytes that hold the largest distance (§4.1's "tight" types, as {@link
 * dev.wastecheck.engine.index.PackedLeafPage} stores a leaf's): tuples demoted one after another are appended to
 * the cold heap's last pages, so a run's tuple ids lie a few pages apart and take 3 bytes where a {@code long}
 * takes 8.
 *
 * <p>Equal keys keep their arrival order (the run is older than the tail and a merge is stable), so a
 * unique key's first entry is the one that came first, as with a map of lists. A note in the run costs its
 * key plus its tuple id's width (plus an offset's width when the keys' lengths differ), where the map of lists
 * it first replaced was counted at its key plus 56 and the run of {@code int} offsets and {@code long} tuple
 * ids at its key plus 12 (docs/benchmarks.md, issue 27, "Packed notes" and "Notes in the fewest bytes").
 */
final class ColdNotes {
    /** Entries the tail holds before it is merged into the run. */
    static final int TAIL = 64;
    /** The run's header: its count, tuple-id base and three widths. */
    static final int HEADER = 16;

    private byte[] runKeys = new byte[0];
    /** Every run key's length when they all have one; 0 when the offsets are stored. */
    private int keyWidth;

    private byte[] runOff = new byte[0];
    private int offWidth;
    private byte[] runTid = new byte[0];
    private long tidBase;
    private int tidWidth;
    private int runCount;
    private final byte[][] tailKeys = new byte[TAIL][];
    private final long[] tailTid = new long[TAIL];
    private int tail;
    private long tailKeyBytes;

    /** Notes held. */
    int size() {
        return runCount + tail;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** Memory of the notes: the run as stored (header, keys, offsets, tuple ids) and the tail at key + 12 a note. */
    long bytes() {
        if (isEmpty()) return 0;
        long run = runCount == 0 ? 0 : HEADER + runKeys.length + runOff.length + runTid.length;
        return run + tailKeyBytes + 12L * tail;
    }

    void add(byte[] key, long tid) {
        if (tail == TAIL) merge();
        tailKeys[tail] = key;
        tailTid[tail++] = tid;
        tailKeyBytes += key.length;
    }

    /** Removes (key, tid) if noted; false if it is not. */
    boolean remove(byte[] key, long tid) {
        for (int i = 0; i < tail; i++) {
            if (tailTid[i] == tid && Arrays.equals(tailKeys[i], key)) {
                tailKeyBytes -= key.length;
                System.arraycopy(tailKeys, i + 1, tailKeys, i, tail - i - 1);
                System.arraycopy(tailTid, i + 1, tailTid, i, tail - i - 1);
                tailKeys[--tail] = null;
                return true;
            }
        }
        for (int i = lowerBound(key); i < runCount && compareRun(i, key) == 0; i++) {
            if (tid(i) != tid) continue;
            int n = runCount;
            byte[][] keys = new byte[n - 1][];
            long[] tids = new long[n - 1];
            for (int j = 0, o = 0; j < n; j++) {
                if (j == i) continue;
                keys[o] = key(j);
                tids[o++] = tid(j);
            }
            encode(keys, tids);
            return true;
        }
        return false;
    }

    /** The first tuple noted for {@code key}, or {@link TupleId#NONE} if none. */
    long first(byte[] key) {
        int i = lowerBound(key);
        if (i < runCount && compareRun(i, key) == 0) return tid(i);
        for (int j = 0; j < tail; j++) if (Arrays.equals(tailKeys[j], key)) return tailTid[j];
        return TupleId.NONE;
    }

    /** The tuples whose key starts with {@code prefix}, in key order (equal keys in arrival order). */
    List<Long> withPrefix(byte[] prefix) {
        List<byte[]> keys = new ArrayList<>();
        List<Long> tids = new ArrayList<>();
        for (int i = lowerBound(prefix); i < runCount && startsWith(i, prefix); i++) {
            keys.add(key(i));
            tids.add(tid(i));
        }
        int fromRun = tids.size();
        for (int j = 0; j < tail; j++) {
            byte[] k = tailKeys[j];
            if (k.length >= prefix.length && Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length)) {
                keys.add(k);
                tids.add(tailTid[j]);
            }
        }
        if (tids.size() == fromRun) return tids;
        Integer[] order = new Integer[tids.size()];
        for (int i = 0; i < order.length; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(keys.get(a), keys.get(b))); // stable: run first
        List<Long> out = new ArrayList<>(order.length);
        for (int i : order) out.add(tids.get(i));
        return out;
    }

    /** Visits every note in key order (equal keys in arrival order). */
    void forEach(NoteVisitor v) {
        merge();
        for (int i = 0; i < runCount; i++) v.visit(key(i), tid(i));
    }

    interface NoteVisitor {
        void visit(byte[] key, long tid);
    }

    /** Merges the tail into the run: a new run of exactly the notes' bytes. */
    private void merge() {
        if (tail == 0) return;
        Integer[] order = new Integer[tail];
        for (int i = 0; i < tail; i++) order[i] = i;
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(tailKeys[a], tailKeys[b])); // stable
        int n = runCount + tail;
        byte[][] keys = new byte[n][];
        long[] tids = new long[n];
        int r = 0, t = 0;
        for (int o = 0; o < n; o++) {
            boolean fromRun =
                    t == tail || r < runCount && compareRun(r, tailKeys[order[t]]) <= 0; // run first on equal keys
            if (fromRun) {
                keys[o] = key(r);
                tids[o] = tid(r++);
            } else {
                keys[o] = tailKeys[order[t]];
                tids[o] = tailTid[order[t++]];
            }
        }
        encode(keys, tids);
        Arrays.fill(tailKeys, 0, tail, null);
        tail = 0;
        tailKeyBytes = 0;
    }

    /** Stores {@code keys} (in order) and their {@code tids} as the run, in the fewest bytes (the class comment). */
    private void encode(byte[][] keys, long[] tids) {
        int n = keys.length;
        long total = 0, min = Long.MAX_VALUE, max = Long.MIN_VALUE;
        int width = n == 0 ? 0 : keys[0].length;
        for (int i = 0; i < n; i++) {
            total += keys[i].length;
            if (keys[i].length != width) width = 0;
            min = Math.min(min, tids[i]);
            max = Math.max(max, tids[i]);
        }
        byte[] k = new byte[(int) total];
        keyWidth = width;
        offWidth = width > 0 || n == 0 ? 0 : bytesFor(total);
        byte[] off = new byte[offWidth * n];
        tidBase = n == 0 ? 0 : min;
        tidWidth = n == 0 ? 0 : bytesFor(max - min);
        byte[] t = new byte[tidWidth * n];
        for (int i = 0, at = 0; i < n; i++) {
            System.arraycopy(keys[i], 0, k, at, keys[i].length);
            at += keys[i].length;
            if (offWidth > 0) write(off, i * offWidth, offWidth, at);
            write(t, i * tidWidth, tidWidth, tids[i] - tidBase);
        }
        runKeys = k;
        runOff = off;
        runTid = t;
        runCount = n;
    }

    /** The fewest whole bytes that hold {@code v} (0 for 0), unsigned. */
    static int bytesFor(long v) {
        return v == 0 ? 0 : (64 - Long.numberOfLeadingZeros(v) + 7) / 8;
    }

    private static void write(byte[] a, int off, int n, long v) {
        for (int i = n - 1; i >= 0; i--) {
            a[off + i] = (byte) v;
            v >>>= 8;
        }
    }

    private static long read(byte[] a, int off, int n) {
        long v = 0;
        for (int i = 0; i < n; i++) v = (v << 8) | (a[off + i] & 0xFF);
        return v;
    }

    private int keyStart(int i) {
        if (keyWidth > 0) return i * keyWidth;
        return i == 0 ? 0 : (int) read(runOff, (i - 1) * offWidth, offWidth);
    }

    private int keyEnd(int i) {
        if (keyWidth > 0) return (i + 1) * keyWidth;
        return (int) read(runOff, i * offWidth, offWidth);
    }

    private byte[] key(int i) {
        return Arrays.copyOfRange(runKeys, keyStart(i), keyEnd(i));
    }

    private long tid(int i) {
        return tidBase + read(runTid, i * tidWidth, tidWidth);
    }

    private int compareRun(int i, byte[] key) {
        return Arrays.compareUnsigned(runKeys, keyStart(i), keyEnd(i), key, 0, key.length);
    }

    private boolean startsWith(int i, byte[] prefix) {
        int from = keyStart(i);
        return keyEnd(i) - from >= prefix.length
                && Arrays.equals(runKeys, from, from + prefix.length, prefix, 0, prefix.length);
    }

    /** The first run entry whose key is not below {@code key}. */
    private int lowerBound(byte[] key) {
        int lo = 0, hi = runCount;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareRun(mid, key) < 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
