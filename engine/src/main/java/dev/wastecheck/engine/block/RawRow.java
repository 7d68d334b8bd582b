package dev.wastecheck.engine.block;

/**
 * One tuple's values as the block stores them: per column the value (or a {@link
 * dev.wastecheck.layouts.arrow.VarlenEntry}'s two words) and its validity. What a transactional read
 * copies out of the block and then rolls back along the version chain; reused, allocates nothing.
 */
final class RawRow {
    final long[] w0;
    final long[] w1;
    final boolean[] valid;
    boolean present;

    RawRow(int columns) {
        w0 = new long[columns];
        w1 = new long[columns];
        valid = new boolean[columns];
    }
}
