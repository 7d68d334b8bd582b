package dev.wastecheck.engine.table;

import dev.wastecheck.engine.file.TupleId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The entries of one cold index that wait for their B+tree ({@link Table#deferColdIndexes}): tuples
 * that entered the cold partition lately, by key. Packed, so that what the working set counts is what
 * they hold: a sorted run of the keys one after another with their offsets and tuple ids, and a short
 * tail of the latest entries in the order they came, merged into the run when it fills.
 *
 * <pre>
 *   run:  keys    | key 0 bytes | key 1 bytes | ... | key n-1 bytes |   (ascending, unsigned bytes)
 *         offsets | 0 | end 0 | end 1 | ... | end n-1 |                  (int, n + 1 of them)
 *         tids    | tid 0 | tid 1 | ... | tid n-1 |                       (long)
 *   tail: up to {@value #TAIL} (key, tid) pairs in arrival order, counted as key + 4 + 8 bytes each
 * </pre>
 *
 * Equal keys keep their arrival order (the run is older than the tail and a merge is stable), so a
 * unique key's first entry is the one that came first, as with a map of lists. A note costs its key
 * plus 12 bytes, where the map of lists it replaces was counted at its key plus 56 (docs/benchmarks.md,
 * issue 27, "Packed notes").
 */
final class ColdNotes {
    /** Entries the tail holds before it is merged into the run. */
    static final int TAIL = 64;

    private byte[] runKeys = new byte[0];
    private int[] runOff = {0};
    private long[] runTid = new long[0];
    private final byte[][] tailKeys = new byte[TAIL][];
    private final long[] tailTid = new long[TAIL];
    private int tail;
    private long tailKeyBytes;

    /** Notes held. */
    int size() {
        return runTid.length + tail;
    }

    boolean isEmpty() {
        return size() == 0;
    }

    /** Memory of the notes: every key's bytes, an offset and a tuple id each, and the run's last offset; none if empty. */
    long bytes() {
        return isEmpty() ? 0 : runKeys.length + tailKeyBytes + 12L * size() + 4;
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
        for (int i = lowerBound(key); i < runTid.length && compareRun(i, key) == 0; i++) {
            if (runTid[i] != tid) continue;
            int n = runTid.length, len = runOff[i + 1] - runOff[i];
            byte[] keys = new byte[runKeys.length - len];
            System.arraycopy(runKeys, 0, keys, 0, runOff[i]);
            System.arraycopy(runKeys, runOff[i + 1], keys, runOff[i], runKeys.length - runOff[i + 1]);
            int[] off = new int[n];
            for (int j = 0; j < n; j++) off[j] = j <= i ? runOff[j] : runOff[j + 1] - len;
            long[] tids = new long[n - 1];
            System.arraycopy(runTid, 0, tids, 0, i);
            System.arraycopy(runTid, i + 1, tids, i, n - i - 1);
            runKeys = keys;
            runOff = off;
            runTid = tids;
            return true;
        }
        return false;
    }

    /** The first tuple noted for {@code key}, or {@link TupleId#NONE} if none. */
    long first(byte[] key) {
        int i = lowerBound(key);
        if (i < runTid.length && compareRun(i, key) == 0) return runTid[i];
        for (int j = 0; j < tail; j++) if (Arrays.equals(tailKeys[j], key)) return tailTid[j];
        return TupleId.NONE;
    }

    /** The tuples whose key starts with {@code prefix}, in key order (equal keys in arrival order). */
    List<Long> withPrefix(byte[] prefix) {
        List<byte[]> keys = new ArrayList<>();
        List<Long> tids = new ArrayList<>();
        for (int i = lowerBound(prefix); i < runTid.length && startsWith(i, prefix); i++) {
            keys.add(Arrays.copyOfRange(runKeys, runOff[i], runOff[i + 1]));
            tids.add(runTid[i]);
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
        for (int i = 0; i < runTid.length; i++)
            v.visit(Arrays.copyOfRange(runKeys, runOff[i], runOff[i + 1]), runTid[i]);
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
        int n = runTid.length + tail;
        byte[] keys = new byte[(int) (runKeys.length + tailKeyBytes)];
        int[] off = new int[n + 1];
        long[] tids = new long[n];
        int r = 0, t = 0, at = 0;
        for (int o = 0; o < n; o++) {
            boolean fromRun =
                    t == tail || r < runTid.length && compareRun(r, tailKeys[order[t]]) <= 0; // run first on equal keys
            if (fromRun) {
                int len = runOff[r + 1] - runOff[r];
                System.arraycopy(runKeys, runOff[r], keys, at, len);
                at += len;
                tids[o] = runTid[r++];
            } else {
                byte[] k = tailKeys[order[t]];
                System.arraycopy(k, 0, keys, at, k.length);
                at += k.length;
                tids[o] = tailTid[order[t++]];
            }
            off[o + 1] = at;
        }
        runKeys = keys;
        runOff = off;
        runTid = tids;
        Arrays.fill(tailKeys, 0, tail, null);
        tail = 0;
        tailKeyBytes = 0;
    }

    private int compareRun(int i, byte[] key) {
        return Arrays.compareUnsigned(runKeys, runOff[i], runOff[i + 1], key, 0, key.length);
    }

    private boolean startsWith(int i, byte[] prefix) {
        int len = runOff[i + 1] - runOff[i];
        return len >= prefix.length
                && Arrays.equals(runKeys, runOff[i], runOff[i] + prefix.length, prefix, 0, prefix.length);
    }

    /** The first run entry whose key is not below {@code key}. */
    private int lowerBound(byte[] key) {
        int lo = 0, hi = runTid.length;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareRun(mid, key) < 0) lo = mid + 1;
            else hi = mid;
        }
        return lo;
    }
}
