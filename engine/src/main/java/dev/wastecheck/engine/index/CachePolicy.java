package dev.wastecheck.engine.index;

import java.util.Locale;

/** How an index uses its leaves' free space (replay's {@code cache=} key). */
public enum CachePolicy {
    /** No index cache: every lookup that needs a non-key field reads the heap. */
    OFF,
    /** §2.1: items placed at random, hits swap items toward the stable point, eviction at random in the periphery. */
    SWAP,
    /**
     * SWAP while the cache's periphery is overwritten at a constant rate, as key inserts would
     * do, until half of it is gone (the paper's Fig. 2a "Shrink" experiment).
     */
    SHRINK;

    public static CachePolicy parse(String s) {
        return valueOf(s.trim().toUpperCase(Locale.ROOT));
    }
}
