package dev.wastecheck.analyzer.semantic;

import java.util.Arrays;

/**
 * Gives each distinct long a dense code 0, 1, 2, ... in order of first appearance: open addressing
 * with linear probing over two parallel arrays, growing at half full. The hot path of turning column
 * values (as 64-bit hashes) and column pairs into partition codes, where a boxed map would allocate
 * per row.
 */
final class LongIntMap {
    private static final int EMPTY = -1;
    private long[] keys;
    private int[] values;
    private int mask;
    private int size;

    LongIntMap(int expected) {
        int cap = Integer.highestOneBit(Math.max(16, expected) * 2 - 1) << 1;
        keys = new long[cap];
        values = new int[cap];
        Arrays.fill(values, EMPTY);
        mask = cap - 1;
    }

    /** The code of {@code key}, a new one (the count so far) when it is new. */
    int codeOf(long key) {
        int i = slot(key);
        while (true) {
            int v = values[i];
            if (v == EMPTY) {
                keys[i] = key;
                values[i] = size;
                if (++size * 2 > keys.length) {
                    grow();
                }
                return size - 1;
            }
            if (keys[i] == key) {
                return v;
            }
            i = (i + 1) & mask;
        }
    }

    int size() {
        return size;
    }

    private int slot(long key) {
        long h = key * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }

    private void grow() {
        long[] oldKeys = keys;
        int[] oldValues = values;
        keys = new long[oldKeys.length * 2];
        values = new int[oldValues.length * 2];
        Arrays.fill(values, EMPTY);
        mask = keys.length - 1;
        for (int j = 0; j < oldKeys.length; j++) {
            if (oldValues[j] != EMPTY) {
                int i = slot(oldKeys[j]);
                while (values[i] != EMPTY) {
                    i = (i + 1) & mask;
                }
                keys[i] = oldKeys[j];
                values[i] = oldValues[j];
            }
        }
    }
}
