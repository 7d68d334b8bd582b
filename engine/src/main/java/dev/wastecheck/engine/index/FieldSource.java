package dev.wastecheck.engine.index;

/**
 * Where the index cache gets the fields it caches when it misses: the heap. Implementations
 * read the cached projection of tuple {@code tid} into {@code out} (exactly the index's
 * field bytes), consistently with concurrent updates (under the heap page's latch).
 */
@FunctionalInterface
public interface FieldSource {
    void read(long tid, byte[] out);
}
