package dev.wastecheck.engine.block;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.Comparator;
import java.util.List;

/**
 * Which tuples a compaction group moves where (Li et al., VLDB 2020, §4.3, Alg. 1). A group of
 * blocks with s slots each and t tuples in all ends as ⌊t/s⌋ full blocks F, one partial block p
 * whose t mod s tuples fill its first slots (an Arrow batch has no gaps), and emptied blocks E.
 * Every tuple outside F and outside p's first t mod s slots moves; the number of moves is the
 * number of gaps in F plus the gaps in p's prefix.
 *
 * <p>The optimum picks p and F together. The approximation sorts the blocks by their empty slots and
 * takes the fullest ⌊t/s⌋ as F and the next as p: F then has the fewest gaps any choice can have, and
 * p's prefix has at most t mod s gaps, so the plan makes at most t mod s moves more than the optimum
 * (the bound the paper states, checked against {@link #optimalMoves} on random groups in the tests).
 * Gaps are filled in slot order with tuples taken from the emptiest blocks first and from the end
 * of p, so that the moves touch as few blocks as they can.
 */
public final class CompactionPlanner {
    private CompactionPlanner() {}

    /** Move the tuple at (fromBlock, fromOffset) into the gap (toBlock, toOffset); blocks by position in the group. */
    public record Move(int fromBlock, int fromOffset, int toBlock, int toOffset) {}

    /**
     * @param filled  F: the blocks that end full
     * @param partial p: the block that ends with {@code tuples % slots} tuples in its first slots, or -1
     * @param emptied E: the blocks that end empty
     */
    public record Plan(int[] filled, int partial, int[] emptied, List<Move> moves, int tuples, int slots) {
        public int remainder() {
            return tuples % slots;
        }
    }

    /**
     * Plans the compaction of a group.
     *
     * @param occupied per block, the slots that hold a tuple (bits from 0 to slots - 1)
     */
    public static Plan plan(BitSet[] occupied, int slots) {
        int blocks = occupied.length;
        int t = 0;
        for (BitSet o : occupied) t += o.cardinality();
        Integer[] order = new Integer[blocks];
        for (int i = 0; i < blocks; i++) order[i] = i;
        Arrays.sort(
                order,
                Comparator.comparingInt((Integer b) -> slots - occupied[b].cardinality())
                        .thenComparingInt(b -> b));
        int full = t / slots, r = t % slots;
        int[] filled = new int[full];
        for (int i = 0; i < full; i++) filled[i] = order[i];
        int partial = r > 0 ? order[full] : -1;
        int[] emptied = new int[blocks - full - (r > 0 ? 1 : 0)];
        for (int i = 0; i < emptied.length; i++) emptied[i] = order[blocks - 1 - i]; // emptiest first

        // Sources: every tuple of E (emptiest block first, last slot first), then p's tuples past its prefix, from the
        // end.
        List<int[]> sources = new ArrayList<>();
        for (int e : emptied) {
            for (int s = occupied[e].previousSetBit(slots - 1); s >= 0; s = occupied[e].previousSetBit(s - 1))
                sources.add(new int[] {e, s});
        }
        if (partial >= 0) {
            for (int s = occupied[partial].previousSetBit(slots - 1);
                    s >= r;
                    s = occupied[partial].previousSetBit(s - 1)) {
                sources.add(new int[] {partial, s});
            }
        }
        List<Move> moves = new ArrayList<>(sources.size());
        int next = 0;
        for (int f : filled) {
            for (int g = occupied[f].nextClearBit(0); g < slots; g = occupied[f].nextClearBit(g + 1)) {
                int[] src = sources.get(next++);
                moves.add(new Move(src[0], src[1], f, g));
            }
        }
        if (partial >= 0) {
            for (int g = occupied[partial].nextClearBit(0); g < r; g = occupied[partial].nextClearBit(g + 1)) {
                int[] src = sources.get(next++);
                moves.add(new Move(src[0], src[1], partial, g));
            }
        }
        if (next != sources.size())
            throw new AssertionError("gaps and tuples to move differ: " + next + " vs " + sources.size());
        return new Plan(filled, partial, emptied, moves, t, slots);
    }

    /**
     * The fewest moves any choice of F and p needs (brute force over p, for the tests): for a given
     * p, the best F is the ⌊t/s⌋ other blocks with the fewest gaps.
     */
    public static int optimalMoves(BitSet[] occupied, int slots) {
        int blocks = occupied.length;
        int t = 0;
        for (BitSet o : occupied) t += o.cardinality();
        int full = t / slots, r = t % slots;
        int best = Integer.MAX_VALUE;
        for (int p = (r > 0 ? 0 : -1); p < (r > 0 ? blocks : 0); p++) {
            int prefixGaps = 0;
            if (p >= 0) for (int s = 0; s < r; s++) if (!occupied[p].get(s)) prefixGaps++;
            int[] gaps = new int[blocks - (p >= 0 ? 1 : 0)];
            for (int b = 0, k = 0; b < blocks; b++) if (b != p) gaps[k++] = slots - occupied[b].cardinality();
            Arrays.sort(gaps);
            int sum = prefixGaps;
            for (int i = 0; i < full; i++) sum += gaps[i];
            best = Math.min(best, sum);
        }
        return best;
    }
}
