package dev.wastecheck.engine.block;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Li et al., VLDB 2020, §6.2, Fig. 12 and Fig. 14, counted with our compaction planner ({@link
 * CompactionPlanner}, Alg. 1), which is what {@link BlockTransformer} runs per group. 500 blocks of
 * {@code slots} slots (32,768 by default: an 8-byte key and a 16-byte varlen entry per tuple, about
 * what a 1 MB block holds of the paper's microbenchmark rows), each with the same share of its slots
 * empty at seeded random places.
 *
 * <ul>
 * <li>Fig. 12, write amplification: tuple movements (each one an index update) to compact the 500
 * blocks as one group: Snapshot (copies every tuple), the optimum ({@link
 * CompactionPlanner#optimalMoves}), and the approximation of Alg. 1.</li>
 * <li>Fig. 14, group size: one pass over the 500 blocks in arrival order, groups of 1 to 500 blocks;
 * blocks freed (a), and the write set of a compaction transaction (b): its moves, each an insert and
 * a delete (2 records), on average per group.</li>
 * </ul>
 *
 * <p>These are counts, not timings: the machine's load does not move them. Run: {@code ./bench arrow
 * compaction [SLOTS] [SEED]}.
 */
public final class CompactionFigures {
    static final int BLOCKS = 500;
    static final double[] EMPTY = {0.001, 0.01, 0.05, 0.10, 0.20, 0.40, 0.60, 0.80};
    static final int[] GROUPS = {1, 10, 50, 100, 250, 500};

    public static void main(String[] args) {
        int slots = args.length > 0 ? Integer.parseInt(args[0]) : 32_768;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 12;
        System.out.printf(Locale.ROOT, "%d blocks of %d slots, seed %d%n%n", BLOCKS, slots, seed);
        System.out.println("Fig. 12: tuple movements to compact all 500 blocks as one group");
        System.out.printf(
                Locale.ROOT, "%8s %12s %12s %12s %10s%n", "% empty", "Snapshot", "optimal", "Alg. 1", "extra");
        for (double e : EMPTY) {
            BitSet[] blocks = blocks(slots, e, new SplittableRandom(seed));
            int t = 0;
            for (BitSet b : blocks) t += b.cardinality();
            int optimal = CompactionPlanner.optimalMoves(blocks, slots);
            int approx = CompactionPlanner.plan(blocks, slots).moves().size();
            System.out.printf(
                    Locale.ROOT, "%7.1f%% %12d %12d %12d %10d%n", 100 * e, t, optimal, approx, approx - optimal);
        }
        System.out.println();
        System.out.println("Fig. 14a: blocks freed in one pass / 14b: moves per compaction transaction (mean)");
        StringBuilder head = new StringBuilder(String.format(Locale.ROOT, "%8s", "% empty"));
        for (int g : GROUPS) head.append(String.format(Locale.ROOT, " %17s", "group " + g));
        System.out.println(head);
        for (double e : EMPTY) {
            BitSet[] blocks = blocks(slots, e, new SplittableRandom(seed));
            StringBuilder row = new StringBuilder(String.format(Locale.ROOT, "%7.1f%%", 100 * e));
            for (int g : GROUPS) {
                int freed = 0, groups = 0;
                long moves = 0;
                for (int from = 0; from < BLOCKS; from += g) {
                    BitSet[] group = new BitSet[Math.min(g, BLOCKS - from)];
                    System.arraycopy(blocks, from, group, 0, group.length);
                    CompactionPlanner.Plan p = CompactionPlanner.plan(group, slots);
                    freed += p.emptied().length;
                    moves += p.moves().size();
                    groups++;
                }
                row.append(String.format(Locale.ROOT, " %6d / %8.0f", freed, moves / (double) groups));
            }
            System.out.println(row);
        }
    }

    /** 500 occupancy bitmaps, each with round(slots * empty) empty slots at random places. */
    static BitSet[] blocks(int slots, double empty, SplittableRandom r) {
        BitSet[] out = new BitSet[BLOCKS];
        int gaps = (int) Math.round(slots * empty);
        List<Integer> order = new ArrayList<>(slots);
        for (int i = 0; i < slots; i++) order.add(i);
        for (int b = 0; b < BLOCKS; b++) {
            BitSet o = new BitSet(slots);
            o.set(0, slots);
            // a partial Fisher-Yates shuffle picks the empty slots
            for (int i = 0; i < gaps; i++) {
                int j = i + r.nextInt(slots - i);
                int x = order.get(i);
                order.set(i, order.get(j));
                order.set(j, x);
                o.clear(order.get(i));
            }
            out[b] = o;
        }
        return out;
    }
}
