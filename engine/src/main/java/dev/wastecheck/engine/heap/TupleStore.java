package dev.wastecheck.engine.heap;

import dev.wastecheck.engine.index.FieldSource;
import dev.wastecheck.layouts.Record;

/**
 * Where a table partition keeps its tuples, addressed by 64-bit tuple ids its indexes store:
 * a {@link HeapFile} of pages in the buffer pool (NSM, PAX, HPL), or
 * Arrow-native blocks in memory ({@code dev.wastecheck.engine.block.ArrowStore}).
 */
public interface TupleStore {
    long rows();

    /** Appends a tuple; returns its id. */
    long insert(Record r);

    void read(long tid, Record into);

    /** Reads at least {@code fields} of a tuple into {@code into}. */
    void project(long tid, int[] fields, Record into, byte[] scratch);

    void delete(long tid);

    void setLongs(long tid, int[] fields, long[] values);

    void setNull(long tid, int field);

    /**
     * Sets {@code fields} of a tuple to {@code values}' values in place, variable-length ones
     * included, keeping its id; false when the store cannot (the table then rewrites the tuple).
     */
    default boolean updateInPlace(long tid, int[] fields, Record values) {
        return false;
    }

    /** Bytes an index cache item needs for these fixed-width fields. */
    int fieldBytes(int... fields);

    /** The index cache's view of the store: {@code fields} of a tuple as little-endian bytes of their widths. */
    FieldSource fieldSource(int... fields);

    /** Memory the store takes. */
    long bytes();

    /** Its buffer-pool pages (none for a store outside the pool). */
    long[] pageNumbers();

    /** Bytes of the store the measured events touched, when it is outside the pool (the pool counts its own pages). */
    default long touchedBytes() {
        return 0;
    }
}
