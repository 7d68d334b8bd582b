package dev.wastecheck.engine.file;

/**
 * A tuple id (page, slot) packed into a long, so that indexes store and compare it as
 * one 8-byte value: the page number in the high 48 bits, the slot in the low 16.
 * Static helpers only; nothing is allocated per tuple.
 */
public final class TupleId {
    public static final int SLOT_BITS = 16;
    public static final long NONE = -1L;

    private TupleId() {}

    public static long of(long page, int slot) {
        if (page < 0 || page >= (1L << (64 - SLOT_BITS - 1))) throw new IllegalArgumentException("page " + page);
        if (slot < 0 || slot >= (1 << SLOT_BITS)) throw new IllegalArgumentException("slot " + slot);
        return (page << SLOT_BITS) | slot;
    }

    public static long page(long tid) {
        return tid >>> SLOT_BITS;
    }

    public static int slot(long tid) {
        return (int) (tid & ((1 << SLOT_BITS) - 1));
    }

    public static String toString(long tid) {
        return "(" + page(tid) + "," + slot(tid) + ")";
    }
}
