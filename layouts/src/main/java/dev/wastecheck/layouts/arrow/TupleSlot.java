package dev.wastecheck.layouts.arrow;

/**
 * A tuple's physical address, block and offset packed into one 64-bit value (Li et al.,
 * "Mainlining Databases", VLDB 2020, §3.2). NoisePage aligns every 1 MB block to 1 MB, so a block's
 * address has twenty zero low bits and the offset fits in them; a Java block has no stable address,
 * so here the high 44 bits hold the block's number in its table instead. Either way an index stores
 * the slot as one 8-byte value and nothing is allocated per tuple.
 *
 * <pre>
 *   63                                         20 19                  0
 *  +---------------------------------------------+---------------------+
 *  |  block number (44 bits)                      | offset (20 bits)    |
 *  +---------------------------------------------+---------------------+
 * </pre>
 */
public final class TupleSlot {
    /** Bits of the offset: a 1 MB block holds fewer than 2^20 slots (at least one bit of data each). */
    public static final int OFFSET_BITS = 20;

    public static final int OFFSET_MASK = (1 << OFFSET_BITS) - 1;
    /** No tuple. */
    public static final long NONE = -1L;

    private TupleSlot() {}

    public static long of(int block, int offset) {
        if (block < 0) throw new IllegalArgumentException("block " + block);
        if (offset < 0 || offset > OFFSET_MASK) throw new IllegalArgumentException("offset " + offset);
        return ((long) block << OFFSET_BITS) | offset;
    }

    public static int block(long slot) {
        return (int) (slot >>> OFFSET_BITS);
    }

    public static int offset(long slot) {
        return (int) (slot & OFFSET_MASK);
    }

    public static String toString(long slot) {
        return slot == NONE ? "NONE" : "(" + block(slot) + "," + offset(slot) + ")";
    }
}
