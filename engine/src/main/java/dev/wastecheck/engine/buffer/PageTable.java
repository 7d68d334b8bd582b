package dev.wastecheck.engine.buffer;

import java.util.Arrays;

/**
 * The buffer pool's map from page number to frame index: open addressing with linear
 * probing over primitive arrays, so a lookup allocates nothing (a {@code HashMap<Long,...>}
 * would box every page number). Deletion uses backward-shift, so no tombstones accumulate.
 * Not thread-safe; the pool guards it.
 */
final class PageTable {
    private static final long EMPTY = -1;
    private final long[] keys;
    private final int[] values;
    private final int mask;

    PageTable(int expectedEntries) {
        int cap = Integer.highestOneBit(Math.max(4, expectedEntries * 2 - 1)) << 1;
        keys = new long[cap];
        values = new int[cap];
        mask = cap - 1;
        Arrays.fill(keys, EMPTY);
    }

    private int home(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    int get(long key) {
        for (int i = home(key); ; i = (i + 1) & mask) {
            long k = keys[i];
            if (k == key) return values[i];
            if (k == EMPTY) return -1;
        }
    }

    void put(long key, int value) {
        for (int i = home(key); ; i = (i + 1) & mask) {
            if (keys[i] == EMPTY || keys[i] == key) { keys[i] = key; values[i] = value; return; }
        }
    }

    void remove(long key) {
        int i = home(key);
        while (keys[i] != key) {
            if (keys[i] == EMPTY) return;
            i = (i + 1) & mask;
        }
        // backward-shift deletion: pull later entries of the probe run into the hole
        int hole = i;
        for (int j = (hole + 1) & mask; keys[j] != EMPTY; j = (j + 1) & mask) {
            int h = home(keys[j]);
            boolean movable = hole <= j ? (h <= hole || h > j) : (h <= hole && h > j);
            if (movable) { keys[hole] = keys[j]; values[hole] = values[j]; hole = j; }
        }
        keys[hole] = EMPTY;
    }
}
