package dev.wastecheck.analyzer.semantic;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;

/**
 * The search for exact functional dependencies X -> Y with |X| <= 2 over one table's columns, each
 * column given as dense integer codes (equal values, NULL included, share a code). "No Bits Left
 * Behind" §4.2: "if there is a functional dependency X -> Y and the semantic properties of Y can be
 * directly inferred from X, then Y can be dropped."
 *
 * <p>A level-wise walk of the attribute lattice with TANE's pruning (Huhtala et al., 1999): level 1
 * tries every single column X against every Y, level 2 every pair {a, b}. X -> Y holds iff every
 * group of rows equal on X is equal on Y, i.e. |π_X| = |π_XY|; the check is one pass over the rows
 * with the group's first Y in an array indexed by X's code (partition refinement without building
 * the partitions). Pruning, each sound:
 *
 * <ul>
 *   <li>a key on the left (declared, or unique in the data: |π_X| = rows) determines everything and
 *       says nothing: never an X, and a pair that is unique is a key too;</li>
 *   <li>minimality: {a, b} -> Y is left out when a -> Y or b -> Y holds, and the pair {a, b} is not
 *       tried at all when a -> b or b -> a (then {a, b} has the partition of a single column);</li>
 *   <li>near-dependencies: {a, b} -> Y is left out when a handful of rows break a -> Y or b -> Y
 *       (the pair would only set those rows apart);</li>
 *   <li>cardinality: X -> Y needs |π_Y| <= |π_X|, so Y is tried only under an X with at least as many
 *       groups; a constant Y (one group) is left to the {@code constant} finding.</li>
 * </ul>
 *
 * Near-dependencies, those a handful of rows break ({@link #NEAR_MAX_ROWS}), are counted apart
 * with the number of rows that break them (g3: the fewest rows to delete for X -> Y to hold).
 *
 * <p>The search stops at a deadline, between checks, and says where ({@link Result#stoppedAt()}).
 */
public final class DependencySearch {
    /** A near-dependency is broken by at most this many rows, and by at most 1% of them. */
    public static final long NEAR_MAX_ROWS = 5;
    /**
     * A near-dependency must explain Y far better than Y's most common value does: the rows off
     * that value are at least this many times the rows breaking X -> Y. Else any X "nearly"
     * determines a column that is nearly constant ({@code last_update} stamped once, but for one row).
     */
    public static final long NEAR_CONTRAST = 10;

    private DependencySearch() {}

    /**
     * One column's codes.
     *
     * @param codes      per row, a code in [0, groups)
     * @param groups     distinct values (NULL counts as one)
     * @param lhs        may stand on the left (not part of a key)
     * @param rhs        may stand on the right (not part of a declared key)
     */
    public record Column(String name, int[] codes, int groups, boolean lhs, boolean rhs) {}

    /** X -> Y, exact: {@code violatingRows} 0; near: the rows (g3) that break it. */
    public record Dependency(
            List<String> lhs, String rhs, long rows, long lhsGroups, long rhsGroups, long violatingRows) {
        public boolean exact() {
            return violatingRows == 0;
        }
    }

    /**
     * @param stoppedAt null when the search finished; else where the deadline stopped it
     * @param checks    X -> Y checks run (a check is one pass over the rows)
     */
    public record Result(List<Dependency> exact, List<Dependency> near, String stoppedAt, long checks) {}

    /**
     * @param deadlineNanos {@link System#nanoTime()} past which the search stops
     */
    public static Result search(List<Column> columns, int rows, long deadlineNanos) {
        int n = columns.size();
        List<Dependency> exact = new ArrayList<>();
        List<Dependency> near = new ArrayList<>();
        boolean[][] determines = new boolean[n][n]; // single-column exact dependencies, for pruning
        boolean[][] nearly = new boolean[n][n];
        long checks = 0;
        int[] first = new int[0];
        long nearMax = Math.min(NEAR_MAX_ROWS, rows / 100);
        long[] offMode = new long[n];
        for (int c = 0; c < n; c++) {
            offMode[c] = rows - modeRows(columns.get(c));
        }
        // level 1
        for (int x = 0; x < n; x++) {
            Column cx = columns.get(x);
            if (!leftSide(cx, rows)) {
                continue;
            }
            for (int y = 0; y < n; y++) {
                Column cy = columns.get(y);
                if (y == x || !rightSide(cy) || cy.groups() > cx.groups()) {
                    continue;
                }
                if (System.nanoTime() > deadlineNanos) {
                    return new Result(
                            exact,
                            near,
                            "single-column determinants, at " + cx.name() + " of " + n + " columns; pairs not tried",
                            checks);
                }
                if (first.length < cx.groups()) {
                    first = new int[cx.groups()];
                }
                checks++;
                long conflicts = conflicts(cx.codes(), cy.codes(), rows, first, cx.groups());
                if (conflicts == 0) {
                    determines[x][y] = true;
                    exact.add(new Dependency(List.of(cx.name()), cy.name(), rows, cx.groups(), cy.groups(), 0));
                } else if (nearMax > 0 && conflicts <= nearMax) {
                    long g3 = g3(new int[][] {cx.codes()}, cy.codes(), rows);
                    if (g3 <= nearMax && offMode[y] >= NEAR_CONTRAST * g3) {
                        nearly[x][y] = true;
                        near.add(new Dependency(List.of(cx.name()), cy.name(), rows, cx.groups(), cy.groups(), g3));
                    }
                }
            }
        }
        // level 2
        int pairs = 0;
        int tried = 0;
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (pairUsable(columns, determines, a, b, rows)) {
                    pairs++;
                }
            }
        }
        int[] pairCodes = new int[rows];
        for (int a = 0; a < n; a++) {
            for (int b = a + 1; b < n; b++) {
                if (!pairUsable(columns, determines, a, b, rows)) {
                    continue;
                }
                if (System.nanoTime() > deadlineNanos) {
                    return new Result(
                            exact, near, "pairs, after " + tried + " of " + pairs + " (single columns done)", checks);
                }
                tried++;
                Column ca = columns.get(a);
                Column cb = columns.get(b);
                int groups = combine(ca.codes(), cb.codes(), cb.groups(), rows, pairCodes);
                if (groups >= rows) {
                    continue; // a key
                }
                if (first.length < groups) {
                    first = new int[groups];
                }
                for (int y = 0; y < n; y++) {
                    Column cy = columns.get(y);
                    // a pair that holds only because it sets apart the rows breaking a -> Y nearly says
                    // nothing more than the near-dependency
                    if (y == a
                            || y == b
                            || !rightSide(cy)
                            || cy.groups() > groups
                            || determines[a][y]
                            || determines[b][y]
                            || nearly[a][y]
                            || nearly[b][y]) {
                        continue;
                    }
                    checks++;
                    long conflicts = conflicts(pairCodes, cy.codes(), rows, first, groups);
                    List<String> lhs = List.of(ca.name(), cb.name());
                    if (conflicts == 0) {
                        exact.add(new Dependency(lhs, cy.name(), rows, groups, cy.groups(), 0));
                    } else if (nearMax > 0 && conflicts <= nearMax) {
                        long g3 = g3(new int[][] {ca.codes(), cb.codes()}, cy.codes(), rows);
                        if (g3 <= nearMax && offMode[y] >= NEAR_CONTRAST * g3) {
                            near.add(new Dependency(lhs, cy.name(), rows, groups, cy.groups(), g3));
                        }
                    }
                }
            }
        }
        return new Result(exact, near, null, checks);
    }

    private static boolean leftSide(Column c, int rows) {
        return c.lhs() && c.groups() >= 2 && c.groups() < rows;
    }

    private static boolean rightSide(Column c) {
        return c.rhs() && c.groups() >= 2;
    }

    private static boolean pairUsable(List<Column> columns, boolean[][] determines, int a, int b, int rows) {
        return leftSide(columns.get(a), rows)
                && leftSide(columns.get(b), rows)
                && !determines[a][b]
                && !determines[b][a];
    }

    /**
     * Groups of X whose rows do not all share the group's first Y: 0 iff X -> Y. Counting stops past
     * {@link #NEAR_MAX_ROWS}, since beyond it the number is not used.
     */
    static long conflicts(int[] x, int[] y, int rows, int[] first, int groups) {
        Arrays.fill(first, 0, groups, -1);
        long conflicts = 0;
        for (int r = 0; r < rows; r++) {
            int g = x[r];
            int f = first[g];
            if (f == -1) {
                first[g] = y[r];
            } else if (f != y[r] && f != -2) {
                first[g] = -2; // counted once per group
                if (++conflicts > NEAR_MAX_ROWS) {
                    return conflicts;
                }
            }
        }
        return conflicts;
    }

    /**
     * Rows to delete for X -> Y to hold: the rows minus, per group of X, the size of its largest
     * group of equal Y (Kivinen and Mannila's g3).
     */
    static long g3(int[][] x, int[] y, int rows) {
        HashMap<List<Integer>, HashMap<Integer, Integer>> groups = new HashMap<>();
        for (int r = 0; r < rows; r++) {
            List<Integer> key = x.length == 1 ? List.of(x[0][r]) : List.of(x[0][r], x[1][r]);
            groups.computeIfAbsent(key, k -> new HashMap<>()).merge(y[r], 1, Integer::sum);
        }
        long keep = 0;
        for (var ys : groups.values()) {
            keep += ys.values().stream().mapToInt(Integer::intValue).max().orElse(0);
        }
        return rows - keep;
    }

    private static long modeRows(Column c) {
        int[] counts = new int[c.groups()];
        int max = 0;
        for (int code : c.codes()) {
            max = Math.max(max, ++counts[code]);
        }
        return max;
    }

    /** The codes of the pair (a, b), dense from 0, into {@code out}; returns the number of groups. */
    static int combine(int[] a, int[] b, int bGroups, int rows, int[] out) {
        LongIntMap codes = new LongIntMap(Math.min(rows, 1 << 20));
        for (int r = 0; r < rows; r++) {
            out[r] = codes.codeOf((long) a[r] * bGroups + b[r]);
        }
        return codes.size();
    }
}
