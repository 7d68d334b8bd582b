package dev.wastecheck.autotune;

import java.util.Locale;

/**
 * The dimensions of a table's design the search chooses, in the order of its coordinate descent
 * ("No Bits Left Behind": clustering and hot partitions §3.1, tight types §2, vertical
 * partitioning §3.2, compressed fields §4.1, the index cache §2.1; the page layout, HPL-2012-240).
 */
enum Dimension {
    CLUSTER,
    TIGHT,
    SPLIT,
    COMPRESS,
    CACHE,
    LAYOUT;

    /** The dimension as the report's {@code step} and {@code replay --config} name it. */
    String key() {
        return name().toLowerCase(Locale.ROOT);
    }
}
