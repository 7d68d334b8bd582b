package dev.wastecheck.traces.generate;

/**
 * Remaining revisions per page, for drawing the next page to edit with probability proportional
 * to what it has left: the uniform interleaving of every page's revisions in time order, in
 * O(log pages) per draw and one long per page.
 */
final class Fenwick {
    private final long[] tree;
    private final int highBit;
    private long total;

    Fenwick(int[] counts) {
        int n = counts.length;
        tree = new long[n + 1];
        for (int i = 0; i < n; i++) {
            tree[i + 1] += counts[i];
            int parent = (i + 1) + ((i + 1) & -(i + 1));
            if (parent <= n) {
                tree[parent] += tree[i + 1];
            }
            total += counts[i];
        }
        highBit = Integer.highestOneBit(Math.max(1, n));
    }

    long total() {
        return total;
    }

    /** The index whose cumulative range holds {@code target} in [0, total), decremented by one. */
    int takeAt(long target) {
        int pos = 0;
        for (int step = highBit; step > 0; step >>= 1) {
            int next = pos + step;
            if (next < tree.length && tree[next] <= target) {
                pos = next;
                target -= tree[next];
            }
        }
        for (int i = pos + 1; i < tree.length; i += i & -i) {
            tree[i]--;
        }
        total--;
        return pos;
    }
}
