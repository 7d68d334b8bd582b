package dev.wastecheck.autotune;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The modeled charge of a page touched ({@link Autotune#pinUs}): by the kind of page and the page size, each the
 * {@code PinBenchmark} figure for that kind and size; a size the search does not try takes the nearest measured one.
 */
class PageChargeTest {
    @Test
    void eachKindIsChargedItsMeasurementAtEachPageSize() {
        int[] sizes = Autotune.CHARGED_PAGE_SIZES;
        for (int i = 0; i < sizes.length; i++) {
            assertThat(Autotune.pinUs("index_packed", sizes[i])).isEqualTo(Autotune.INDEX_PACKED_US[i]);
            assertThat(Autotune.pinUs("index", sizes[i])).isEqualTo(Autotune.INDEX_US[i]);
            assertThat(Autotune.pinUs("heap_nsm", sizes[i])).isEqualTo(Autotune.HEAP_NSM_US[i]);
            assertThat(Autotune.pinUs("heap_pax", sizes[i])).isEqualTo(Autotune.HEAP_PAX_US[i]);
        }
    }

    @Test
    void aPackedLeafOf16KibCostsMoreThanOneOf4KibButSavesTheRoot() {
        // one 16 KiB leaf's binary search covers the whole hot index: dearer than a 4 KiB page, cheaper than two
        assertThat(Autotune.pinUs("index_packed", 16 << 10)).isGreaterThan(Autotune.pinUs("index_packed", 4 << 10));
        assertThat(Autotune.pinUs("index_packed", 16 << 10)).isLessThan(2 * Autotune.pinUs("index_packed", 4 << 10));
    }

    @Test
    void kindsAndSizesNotMeasuredTakeTheNearestCharge() {
        assertThat(Autotune.pinUs("index", 32 << 10)).isEqualTo(Autotune.pinUs("index", 16 << 10));
        assertThat(Autotune.pinUs("index", 2 << 10)).isEqualTo(Autotune.pinUs("index", 4 << 10));
        assertThat(Autotune.pinUs("heap_hpl", 8 << 10)).isEqualTo(Autotune.pinUs("heap_pax", 8 << 10));
        assertThat(Autotune.pinUs("overflow", 8 << 10)).isEqualTo(Autotune.pinUs("heap_nsm", 8 << 10));
    }
}
