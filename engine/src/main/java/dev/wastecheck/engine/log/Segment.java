package dev.wastecheck.engine.log;

/**
 * One redo buffer segment (Li et al., VLDB 2020, §3.4): {@link #bytes} holds whole log records back to
 * back in {@link LogFormat}'s framing, {@code [0, used)} of it written, every CHECKSUM left for the
 * log manager to compute in its copy. Segments of one flush-queue entry are chained through {@link
 * #next}, oldest first.
 */
final class Segment {
    final byte[] bytes;
    /** Bytes written: set when the segment leaves its transaction. */
    int used;
    /** The next segment of the same flush-queue entry, or null. */
    Segment next;
    /** On the top of the pool's shared stack: the segments in that stack, this one included. */
    int depth;

    Segment(int size) {
        bytes = new byte[size];
    }
}
