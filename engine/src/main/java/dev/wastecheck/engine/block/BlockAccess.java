package dev.wastecheck.engine.block;

import dev.wastecheck.layouts.arrow.ArrowBlock;
import java.util.concurrent.atomic.LongAdder;

/**
 * The coarse "lock" of a block among transactional writers, in-place Arrow readers and the
 * transformation (Li et al., VLDB 2020, §4.3). The block's control word holds its state and the
 * number of in-place readers together, and every change is one compare-and-swap of the whole word:
 *
 * <ul>
 * <li>An in-place reader enters only while the block is FROZEN, incrementing the counter in the
 * same compare-and-swap that checks the state. The paper's check-and-miss race (a reader sees
 * FROZEN, a writer flips the block hot and finds no reader, then the reader counts itself in and
 * reads a block being written) cannot happen: if the state changed between the reader's check and
 * its increment, the swap fails, the reader looks again, sees HOT and misses: it falls back to a
 * transactional read.</li>
 * <li>A writer flips FROZEN or COOLING to HOT (preempting a transformation) and then waits for the
 * readers already inside to leave; it waits while the block is FREEZING (gathering is short and
 * cannot be interrupted halfway).</li>
 * </ul>
 */
public final class BlockAccess {
    private BlockAccess() {}

    private static final LongAdder STALLS = new LongAdder();

    /**
     * Writes that had to wait, since the JVM started, for a block being frozen or for in-place
     * readers to leave (§6.1 counts the transactions the transformation stalls).
     */
    public static long stalls() {
        return STALLS.sum();
    }

    /** Enters an in-place read of a frozen block; false (a miss) when the block is not frozen. */
    public static boolean tryEnterInPlace(Block b) {
        return tryEnterInPlace(b, null);
    }

    /** As {@link #tryEnterInPlace(Block)}, running {@code betweenCheckAndCount} after the state check (tests force the race with it). */
    static boolean tryEnterInPlace(Block b, Runnable betweenCheckAndCount) {
        ArrowBlock d = b.data;
        while (true) {
            long c = d.control();
            if (ArrowBlock.state(c) != ArrowBlock.FROZEN) return false;
            if (betweenCheckAndCount != null) {
                betweenCheckAndCount.run();
                betweenCheckAndCount = null;
            }
            if (d.compareAndSetControl(c, ArrowBlock.control(ArrowBlock.FROZEN, ArrowBlock.readers(c) + 1)))
                return true;
        }
    }

    /** Leaves an in-place read. */
    public static void exitInPlace(Block b) {
        ArrowBlock d = b.data;
        while (true) {
            long c = d.control();
            if (ArrowBlock.readers(c) <= 0) throw new IllegalStateException(b + ": no in-place reader to leave");
            if (d.compareAndSetControl(c, c - 1)) return;
        }
    }

    /** In-place readers inside right now. */
    public static int readers(Block b) {
        return ArrowBlock.readers(b.data.control());
    }

    /**
     * Makes the block writable: FROZEN or COOLING becomes HOT, FREEZING is waited out, and the
     * in-place readers that entered while it was frozen are waited for.
     */
    static void thaw(Block b) {
        ArrowBlock d = b.data;
        int spins = 0;
        boolean stalled = false;
        while (true) {
            long c = d.control();
            int s = ArrowBlock.state(c);
            if (s == ArrowBlock.HOT) {
                if (ArrowBlock.readers(c) == 0) return;
            } else if (s == ArrowBlock.FROZEN || s == ArrowBlock.COOLING) {
                if (d.compareAndSetControl(c, ArrowBlock.control(ArrowBlock.HOT, ArrowBlock.readers(c)))) {
                    // Its Arrow metadata is stale from here on; in-place readers can no longer enter.
                    b.frozen = null;
                }
                continue;
            }
            if (!stalled) {
                stalled = true;
                STALLS.increment();
            }
            if (++spins > 64) Thread.yield();
            else Thread.onSpinWait();
        }
    }

    /** COOLING to FREEZING, if no writer preempted the transformation; only the transformation calls it. */
    static boolean startFreezing(Block b) {
        return b.data.compareAndSetControl(
                ArrowBlock.control(ArrowBlock.COOLING, 0), ArrowBlock.control(ArrowBlock.FREEZING, 0));
    }

    /** HOT to COOLING (the transformation marks a block it has compacted). */
    static boolean startCooling(Block b) {
        return b.data.compareAndSetControl(
                ArrowBlock.control(ArrowBlock.HOT, 0), ArrowBlock.control(ArrowBlock.COOLING, 0));
    }

    /** COOLING back to HOT (the transformation found the block not ready to freeze after all). */
    static boolean stopCooling(Block b) {
        return b.data.compareAndSetControl(
                ArrowBlock.control(ArrowBlock.COOLING, 0), ArrowBlock.control(ArrowBlock.HOT, 0));
    }

    /** FREEZING to FROZEN: in-place readers may enter. */
    static void finishFreezing(Block b) {
        if (!b.data.compareAndSetControl(
                ArrowBlock.control(ArrowBlock.FREEZING, 0), ArrowBlock.control(ArrowBlock.FROZEN, 0))) {
            throw new IllegalStateException(b + ": left FREEZING while being gathered");
        }
    }
}
