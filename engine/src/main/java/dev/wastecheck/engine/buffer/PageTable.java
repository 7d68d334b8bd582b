package dev.wastecheck.engine.buffer;

/**
 * The buffer pool's map from page number to frame index: open addressing with linear
 * probing over one primitive array of (page number, frame index) pairs side by side, so a
 * lookup allocates nothing (a {@code HashMap<Long,...>} would box every page number) and
 * finds key and value in the same cache line. Deletion uses backward-shift, so no tombstones
 * accumulate.
 *
 * <pre>
 *  slots: | key 0 | value 0 | key 1 | value 1 | ... |   key = page number or EMPTY, value = frame index
 * </pre>
 * Writes need the pool's monitor. {@link #probe} may run concurrently with them: it can miss
 * an entry or return a wrong frame index, never loop forever, and the pool validates its answer.
 */
final class PageTable {
    private static final long EMPTY = -1;
    private final long[] slots;
    private final int mask;

    PageTable(int expectedEntries) {
        int cap = Integer.highestOneBit(Math.max(4, expectedEntries * 2 - 1)) << 1;
        slots = new long[2 * cap];
        mask = cap - 1;
        for (int i = 0; i < cap; i++) slots[2 * i] = EMPTY;
    }

    private int home(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private long key(int i) {
        return slots[2 * i];
    }

    int get(long key) {
        for (int i = home(key); ; i = (i + 1) & mask) {
            long k = key(i);
            if (k == key) return (int) slots[2 * i + 1];
            if (k == EMPTY) return -1;
        }
    }

    /**
     * {@link #get} without the monitor: the frame index last stored with {@code key}, or -1. A
     * concurrent write can make it miss or return another frame; the caller checks the frame.
     */
    int probe(long key) {
        for (int i = home(key), n = 0; n <= mask; i = (i + 1) & mask, n++) {
            long k = key(i);
            if (k == key) return (int) slots[2 * i + 1];
            if (k == EMPTY) return -1;
        }
        return -1;
    }

    void put(long key, int value) {
        for (int i = home(key); ; i = (i + 1) & mask) {
            long k = key(i);
            if (k == EMPTY || k == key) {
                slots[2 * i + 1] = value;
                slots[2 * i] = key;
                return;
            }
        }
    }

    void remove(long key) {
        int i = home(key);
        while (key(i) != key) {
            if (key(i) == EMPTY) return;
            i = (i + 1) & mask;
        }
        // backward-shift deletion: pull later entries of the probe run into the hole
        int hole = i;
        for (int j = (hole + 1) & mask; key(j) != EMPTY; j = (j + 1) & mask) {
            int h = home(key(j));
            boolean movable = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
            if (movable) {
                slots[2 * hole + 1] = slots[2 * j + 1];
                slots[2 * hole] = key(j);
                hole = j;
            }
        }
        slots[2 * hole] = EMPTY;
    }
}
