package dev.wastecheck.layouts.bench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Every performance target of issue 25 in one interleaved run, in HPL-2012-240 §6's setup: one
 * JVM loads TPC-H (Q1, Q6 on PAX and HPL; SF 1 by default, 204 lineitem records a 32 KB page),
 * TPC-C and TPC-B inside the engine (heap files of each layout's pages in a buffer pool, B+trees:
 * the setup of Tables 2-3, Shore-MT's kits in the paper; TPC-B at §6.2's scale 10) and the record
 * operations in cache (single-field update, delete, record construction on NSM, NSM-SHORE and
 * HPL), and {@link PaperRun#measure} runs them round after round, the workloads in an order
 * rotated every round and each workload's formats in an order rotated every round, so load drifts
 * over the run hit every workload and format alike. It prints each workload's table (medians with
 * per-round ratios, then §6's means, standard deviations and Perf.&Delta;) and then one table of
 * the targets: the paper's number, ours as Perf.&Delta; in the paper's convention (mean(base) /
 * mean(HPL) - 1, positive = HPL faster, with both standard deviations) and its 95% interval (a
 * paired bootstrap over the rounds), whether the target holds by that statistic and whether its
 * interval decides it, the median of the per-round speed ratios with its interquartile range (for
 * reference), whether our sign is the paper's, and Perf.&Delta; over every round beside it: a round
 * in which a collection ran inside either format's run of an operation is left out of that
 * target for both formats ({@link #PAUSE_RULE}, printed before the rounds start). It also prints
 * the bytes each format's timed operations allocated. Before the timed rounds, untimed rounds of the
 * same schedule run until the compilers settle ({@code --warm-rounds}, at least), then one full
 * collection ({@link PaperRun#measure(List, int, int)}).
 *
 * <pre>
 * ./bench hpl-targets [--rounds 50] [--sf 1] [--warmup 2] [--tpcb-branches 10] [--warm-rounds 20] [--forks 1]
 * </pre>
 *
 * {@code --forks F} (F > 1) runs all of that in F JVMs one after another, as JMH's forks, and
 * decides each target across them ({@link #FORK_RULE}): the spread between JVMs of the same code
 * is as large as a run's own interval (docs/benchmarks.md, "Between JVMs").
 *
 * {@code --warmup}: seconds of untimed runs a format and operation for TPC-H and the record
 * operations; the engine's TPC-B and TPC-C run three untimed batches of each operation instead,
 * the same count on every format, because their databases run on from batch to batch (every
 * format sees the same transactions only if each runs the same batches).
 */
public final class HplTargets {
    /**
     * One target: HPL's speed on {@code workload}'s {@code op} over {@code base}'s, time(base) /
     * time(HPL), within [{@code low}, {@code high}]; {@code paperA} and {@code paperB} the paper's
     * Perf.&Delta; on machines A and B, in percent, and {@code paper} where it says so.
     */
    record Target(
            String name,
            String workload,
            String op,
            String base,
            double low,
            double high,
            double paperA,
            double paperB,
            String paper) {}

    /**
     * Issue 25's "done when", in its order: name | workload | operation | base format | lowest
     * ratio | highest ratio | the paper's Perf.&Delta; on machine A | on B | where the paper says so.
     */
    static final List<Target> TARGETS = """
            TPC-C mix: HPL >= 0.95x NSM | tpcc-engine | mix | NSM | 0.95 | Infinity | -5 | -6 | Table 3: A -5%, B -6%
            TPC-C New-Order: HPL >= 0.89x NSM | tpcc-engine | new_order | NSM | 0.89 | Infinity | -11 | -11 | Table 3: A -11%, B -11%
            TPC-C Payment: HPL >= 0.89x NSM | tpcc-engine | payment | NSM | 0.89 | Infinity | -11 | -11 | Table 3: A -11%, B -11%
            TPC-B: HPL within +-3% of NSM | tpcb-engine | txn | NSM | 0.97 | 1.03 | -2 | 3 | Table 2: A -2%, B +3%
            TPC-H Q6: HPL >= 0.95x PAX | tpch | q6 | PAX | 0.95 | Infinity | -5.1 | -1.6 | Table 1: A -5.1%, B -1.6%
            TPC-H Q1: HPL >= 0.89x PAX | tpch | q1 | PAX | 0.89 | Infinity | -10.9 | -11.5 | Table 1: A -10.9%, B -11.5%
            single-field update: HPL >= 1.05x NSM-SHORE | record | update | NSM-SHORE | 1.05 | Infinity | 5 | 5 | §6.2: about +5%
            delete: HPL >= 1.15x NSM-SHORE | record | delete | NSM-SHORE | 1.15 | Infinity | 15 | 15 | §6.2, §6.3: about +15%
            """.lines().map(line -> {
        String[] f = line.split(" \\| ");
        return new Target(
                f[0],
                f[1],
                f[2],
                f[3],
                Double.parseDouble(f[4]),
                Double.parseDouble(f[5]),
                Double.parseDouble(f[6]),
                Double.parseDouble(f[7]),
                f[8]);
    }).toList();

    /**
     * What one target measured: means and standard deviations, the per-round ratios' quartiles,
     * and the 95% interval of the ratio of the means (a paired bootstrap over the rounds,
     * {@link #BOOTSTRAP} resamples).
     */
    record Result(
            Target target,
            double meanBase,
            double sdBase,
            double meanHpl,
            double sdHpl,
            double[] ratioQuartiles,
            double[] ratioOfMeansInterval,
            int rounds,
            int dropped,
            double fullRatioOfMeans,
            double[] fullInterval) {
        Result(
                Target target,
                double meanBase,
                double sdBase,
                double meanHpl,
                double sdHpl,
                double[] ratioQuartiles,
                double[] ratioOfMeansInterval) {
            this(
                    target,
                    meanBase,
                    sdBase,
                    meanHpl,
                    sdHpl,
                    ratioQuartiles,
                    ratioOfMeansInterval,
                    0,
                    0,
                    meanBase / meanHpl,
                    ratioOfMeansInterval);
        }

        /** The paper's convention: mean(base) / mean(HPL) - 1, positive = HPL faster. */
        double perfDelta() {
            return meanBase / meanHpl - 1;
        }

        /** The statistic that decides the target: mean(base) / mean(HPL), Perf.&Delta; + 1. */
        double ratioOfMeans() {
            return meanBase / meanHpl;
        }

        private boolean within(double r) {
            return r >= target.low() && r <= target.high();
        }

        /**
         * Whether the target holds, decided by the ratio of the means (the paper's Perf.&Delta;
         * of means, Tables 1-3): "yes" or "no" when its whole 95% interval is on one side of the
         * target's bounds, "yes, not decided" or "no, not decided" (the point estimate's side)
         * when the interval crosses a bound.
         */
        String holds() {
            boolean point = within(ratioOfMeans());
            double lo = ratioOfMeansInterval[0], hi = ratioOfMeansInterval[1];
            boolean inside = within(lo) && within(hi);
            boolean outside = hi < target.low() || lo > target.high();
            return (point ? "yes" : "no")
                    + (point ? (inside ? "" : ", not decided") : (outside ? "" : ", not decided"));
        }

        boolean medianHolds() {
            return within(ratioQuartiles[1]);
        }

        /** Whether Perf.&Delta;, rounded to the printed 0.1%, has the sign of the paper's on machine A or B. */
        boolean signAsPaper() {
            double ours = Math.round(1000 * perfDelta()) / 10.0;
            return Math.signum(ours) == Math.signum(target.paperA())
                    || Math.signum(ours) == Math.signum(target.paperB());
        }
    }

    /** Resamples of the rounds for a ratio of means' interval. */
    static final int BOOTSTRAP = 10_000;

    /**
     * The 2.5th and 97.5th percentiles of sum(base) / sum(hpl) over {@link #BOOTSTRAP} resamples
     * of the rounds with replacement, each round's pair kept together (so what slowed both
     * formats of a round cancels); a fixed seed, so a run's table is reproducible from its times.
     * Rounds with a NaN in either are left out.
     */
    static double[] ratioOfMeansInterval(double[] base, double[] hpl) {
        int n = 0;
        double[] b = new double[base.length], h = new double[base.length];
        for (int r = 0; r < base.length; r++)
            if (!Double.isNaN(base[r]) && !Double.isNaN(hpl[r])) {
                b[n] = base[r];
                h[n++] = hpl[r];
            }
        if (n == 0) return new double[] {Double.NaN, Double.NaN};
        java.util.SplittableRandom random = new java.util.SplittableRandom(25);
        double[] ratios = new double[BOOTSTRAP];
        for (int k = 0; k < BOOTSTRAP; k++) {
            double sb = 0, sh = 0;
            for (int i = 0; i < n; i++) {
                int r = random.nextInt(n);
                sb += b[r];
                sh += h[r];
            }
            ratios[k] = sb / sh;
        }
        java.util.Arrays.sort(ratios);
        return new double[] {ratios[(int) (0.025 * (BOOTSTRAP - 1))], ratios[(int) Math.ceil(0.975 * (BOOTSTRAP - 1))]};
    }

    /** A target's result from its workload's formats and times ({@link PaperRun#measure}'s), every round kept. */
    static Result evaluate(Target t, List<String> formats, Map<String, double[][]> times) {
        return evaluate(t, formats, times, Map.of());
    }

    /**
     * A target's result from its workload's formats and times, by {@link #PAUSE_RULE}: the rounds in
     * which a collection ran inside the base's or HPL's run of the target's operation
     * ({@code paused}, {@link PaperRun#lastPaused}'s {@code [format][round]}) are left out of both
     * formats together, and the statistics over every round are kept beside.
     */
    static Result evaluate(
            Target t, List<String> formats, Map<String, double[][]> times, Map<String, boolean[][]> paused) {
        int hpl = formats.indexOf("HPL"), base = formats.indexOf(t.base());
        double[][] ms = times.get(t.op());
        if (hpl < 0 || base < 0 || ms == null)
            throw new IllegalStateException(t.workload() + " has no " + t.op() + " on HPL and " + t.base());
        boolean[][] p = paused.get(t.op());
        int n = ms[hpl].length, kept = 0;
        double[] b = new double[n], h = new double[n];
        for (int r = 0; r < n; r++) {
            if (p != null && (p[base][r] || p[hpl][r])) continue;
            b[kept] = ms[base][r];
            h[kept++] = ms[hpl][r];
        }
        b = java.util.Arrays.copyOf(b, kept);
        h = java.util.Arrays.copyOf(h, kept);
        double[] ratio = new double[kept];
        for (int r = 0; r < kept; r++) ratio[r] = b[r] / h[r];
        double[] mb = PaperRun.meanSd(b), mh = PaperRun.meanSd(h);
        double full = PaperRun.meanSd(ms[base])[0] / PaperRun.meanSd(ms[hpl])[0];
        return new Result(
                t,
                mb[0],
                mb[1],
                mh[0],
                mh[1],
                PaperRun.quartiles(ratio),
                ratioOfMeansInterval(b, h),
                n,
                n - kept,
                full,
                ratioOfMeansInterval(ms[base], ms[hpl]));
    }

    /**
     * The rule for collector pauses, fixed before the run and printed at its start: a collection
     * pause inside a timed run is the collector's cost, not the layout's, and it falls on one
     * format's run of a round by chance. So a round in which a collection ran inside either
     * format's run of a target's operation is left out for both formats (their pair dropped
     * together), counted and printed; the target is decided by Perf.&Delta; of the means over the
     * rounds left, and Perf.&Delta; over every round is printed beside it.
     */
    static final String PAUSE_RULE = "a round in which a collection ran inside either format's run of a target's "
            + "operation is left out for both formats (the pair dropped together, counted in the last column); "
            + "Perf.Δ of the means over the rounds left decides; Perf.Δ over every round is printed beside it";

    /** The targets' table, markdown. */
    static String table(List<Result> results) {
        StringBuilder s = new StringBuilder();
        s.append("| target | paper (Perf.Δ) | ours: Perf.Δ [95% interval] | ours: base / HPL ms, mean (sd) "
                + "| holds (by Perf.Δ) | per-round ratio, median [25th-75th] | sign as the paper's "
                + "| every round: Perf.Δ [95% interval] (rounds dropped of) |\n");
        s.append("|---|---|---:|---|---|---|---|---|\n");
        for (Result r : results) {
            s.append(String.format(
                    Locale.ROOT,
                    "| %s | %s | %+.1f%% [%+.1f%%, %+.1f%%] | %s %s (%s) / %s (%s) | %s | %.2fx [%.2f-%.2f] | %s "
                            + "| %+.1f%% [%+.1f%%, %+.1f%%] (%d of %d) |%n",
                    r.target().name(),
                    r.target().paper(),
                    100 * r.perfDelta(),
                    100 * (r.ratioOfMeansInterval()[0] - 1),
                    100 * (r.ratioOfMeansInterval()[1] - 1),
                    r.target().base(),
                    ms(r.meanBase()),
                    ms(r.sdBase()),
                    ms(r.meanHpl()),
                    ms(r.sdHpl()),
                    r.holds(),
                    r.ratioQuartiles()[1],
                    r.ratioQuartiles()[0],
                    r.ratioQuartiles()[2],
                    r.signAsPaper() ? "yes" : "no",
                    100 * (r.fullRatioOfMeans() - 1),
                    100 * (r.fullInterval()[0] - 1),
                    100 * (r.fullInterval()[1] - 1),
                    r.dropped(),
                    r.rounds()));
        }
        return s.toString();
    }

    private static String ms(double v) {
        return String.format(Locale.ROOT, v >= 100 ? "%.0f" : v >= 10 ? "%.1f" : v >= 1 ? "%.2f" : "%.3f", v);
    }

    /**
     * The rule across JVMs, fixed before the forks and printed at the start of a {@code --forks F}
     * run. Each fork is one JVM that runs the whole interleaved run as {@code --forks 1} does and
     * gives one Perf.&Delta; a target (over its rounds, by {@link #PAUSE_RULE}); the target is
     * decided by the mean of the F per-fork Perf.&Delta; with a 95% Student t interval over the
     * forks (F - 1 degrees of freedom). Why the forks and not a bootstrap over rounds: the spread
     * that decided runs 4 and 5 and the four JVMs of 2026-12-03 was between JVMs (sd 1.3-2.3 points
     * for TPC-B, New-Order and the mix, as large as a run's own half-width), and a bootstrap over
     * rounds pooled across forks treats 4 x 100 rounds as 400 independent draws, an interval too
     * narrow by the JVM's share; resampling forks and then rounds within them (a two-level
     * bootstrap) with 3-5 forks has too few forks to resample. The t interval over forks takes each
     * JVM as one draw, whatever its rounds: wide with few forks, which is honest.
     */
    static final String FORK_RULE = "each fork (a JVM, the formats interleaved round by round as with --forks 1) "
            + "gives one Perf.Δ a target by the pause rule; the target is decided by the mean of the forks' Perf.Δ "
            + "with a 95% Student t interval over the forks (forks - 1 degrees of freedom)";

    /**
     * The mean of {@code values}, their sample standard deviation and the 95% Student t interval of
     * the mean ({@code values.length - 1} degrees of freedom, commons-math's quantile):
     * {mean, sd, low, high}; the interval is NaN for one value.
     */
    static double[] tInterval(double[] values) {
        int n = values.length;
        double[] ms = PaperRun.meanSd(values);
        if (n < 2) return new double[] {ms[0], Double.NaN, Double.NaN, Double.NaN};
        double t = new org.apache.commons.math3.distribution.TDistribution(null, n - 1)
                .inverseCumulativeProbability(0.975);
        double half = t * ms[1] / Math.sqrt(n);
        return new double[] {ms[0], ms[1], ms[0] - half, ms[0] + half};
    }

    /** One fork's result for one target, as the fork writes it to its {@code --fork-result} file. */
    record ForkResult(String target, double ratio, double meanBase, double meanHpl, int dropped, int rounds) {
        String line() {
            return String.format(
                    Locale.ROOT, "%s\t%.17g\t%.17g\t%.17g\t%d\t%d", target, ratio, meanBase, meanHpl, dropped, rounds);
        }

        static ForkResult parse(String line) {
            String[] f = line.split("\t");
            return new ForkResult(
                    f[0],
                    Double.parseDouble(f[1]),
                    Double.parseDouble(f[2]),
                    Double.parseDouble(f[3]),
                    Integer.parseInt(f[4]),
                    Integer.parseInt(f[5]));
        }
    }

    /**
     * A target decided across forks by {@link #FORK_RULE}: its per-fork results, in fork order, and
     * the mean of their Perf.&Delta; with its t interval.
     */
    record AcrossForks(Target target, List<ForkResult> forks) {
        double[] perfDeltas() {
            return forks.stream().mapToDouble(f -> f.ratio() - 1).toArray();
        }

        /** {mean, sd between forks, low, high} of the per-fork Perf.&Delta;. */
        double[] statistic() {
            return tInterval(perfDeltas());
        }

        private boolean within(double perfDelta) {
            return perfDelta + 1 >= target.low() && perfDelta + 1 <= target.high();
        }

        /** As {@link Result#holds}, on the mean of the forks' Perf.&Delta; and its t interval. */
        String holds() {
            double[] s = statistic();
            boolean point = within(s[0]);
            if (Double.isNaN(s[2])) return (point ? "yes" : "no") + ", not decided (one fork)";
            boolean inside = within(s[2]) && within(s[3]);
            boolean outside = s[3] + 1 < target.low() || s[2] + 1 > target.high();
            return (point ? "yes" : "no")
                    + (point ? (inside ? "" : ", not decided") : (outside ? "" : ", not decided"));
        }
    }

    /** The across-forks table, markdown. */
    static String forksTable(List<AcrossForks> results) {
        StringBuilder s = new StringBuilder("| target | paper (Perf.Δ) |");
        int forks = results.isEmpty() ? 0 : results.get(0).forks().size();
        for (int f = 1; f <= forks; f++) s.append(" fork ").append(f).append(" |");
        s.append(
                " mean of the forks' Perf.Δ [95% t interval] | sd between forks | base / HPL ms, mean of the forks' means "
                        + "| holds (by the mean of the forks) | rounds dropped of |\n|---|---|");
        for (int f = 0; f < forks; f++) s.append("---:|");
        s.append("---:|---:|---|---|---|\n");
        for (AcrossForks r : results) {
            s.append("| ")
                    .append(r.target().name())
                    .append(" | ")
                    .append(r.target().paper())
                    .append(" |");
            for (double d : r.perfDeltas()) s.append(String.format(Locale.ROOT, " %+.1f%% |", 100 * d));
            double[] st = r.statistic();
            double base = r.forks().stream()
                    .mapToDouble(ForkResult::meanBase)
                    .average()
                    .orElse(Double.NaN);
            double hpl = r.forks().stream()
                    .mapToDouble(ForkResult::meanHpl)
                    .average()
                    .orElse(Double.NaN);
            s.append(String.format(
                    Locale.ROOT,
                    " %+.1f%% [%+.1f%%, %+.1f%%] | %.1f | %s %s / %s | %s | %d of %d |%n",
                    100 * st[0],
                    100 * st[2],
                    100 * st[3],
                    100 * st[1],
                    r.target().base(),
                    ms(base),
                    ms(hpl),
                    r.holds(),
                    r.forks().stream().mapToInt(ForkResult::dropped).sum(),
                    r.forks().stream().mapToInt(ForkResult::rounds).sum()));
        }
        return s.toString();
    }

    /**
     * {@code --forks F} with F > 1: runs F JVMs one after another, each this class with the same
     * JVM options and arguments and {@code --forks 1} (its output passed through as it comes), each
     * writing its targets' results to a file; then prints the table across forks by
     * {@link #FORK_RULE}. {@code -Dpaperrun.trace=FILE} becomes FILE.forkN in fork N.
     */
    static void runForks(Settings s, String[] args) throws IOException, InterruptedException {
        System.out.printf(
                Locale.ROOT,
                "# hpl-targets: %d forks (JVMs) one after another, %d rounds each; load average at start: %s%n",
                s.forks(),
                s.rounds(),
                PaperRun.loadAverage());
        System.out.println("# across forks, the rule fixed before the forks: " + FORK_RULE);
        String javaCommand =
                ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> jvm =
                java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments();
        List<String> rest = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--forks")) i++;
            else rest.add(args[i]);
        }
        Map<String, List<ForkResult>> byTarget = new java.util.LinkedHashMap<>();
        for (int f = 1; f <= s.forks(); f++) {
            java.nio.file.Path result = java.nio.file.Files.createTempFile("hpl-targets-fork", ".tsv");
            List<String> command = new ArrayList<>();
            command.add(javaCommand);
            for (String a : jvm) command.add(a.startsWith("-Dpaperrun.trace=") ? a + ".fork" + f : a);
            command.addAll(List.of("-cp", System.getProperty("java.class.path"), HplTargets.class.getName()));
            command.addAll(rest);
            command.addAll(List.of("--forks", "1", "--fork-result", result.toString()));
            System.out.printf(Locale.ROOT, "%n# fork %d of %d%n", f, s.forks());
            System.out.flush();
            int exit = new ProcessBuilder(command).inheritIO().start().waitFor();
            if (exit != 0) throw new IllegalStateException("fork " + f + " exited with " + exit);
            for (String line : java.nio.file.Files.readAllLines(result)) {
                ForkResult r = ForkResult.parse(line);
                byTarget.computeIfAbsent(r.target(), x -> new ArrayList<>()).add(r);
            }
            java.nio.file.Files.delete(result);
        }
        List<AcrossForks> across = new ArrayList<>();
        for (Target t : TARGETS)
            if (byTarget.containsKey(t.name())) across.add(new AcrossForks(t, byTarget.get(t.name())));
        System.out.printf("%n## targets (issue 25) across %d forks%n%n%s%n", s.forks(), forksTable(across));
        System.out.println("(per fork: Perf.Δ = mean(base) / mean(HPL) - 1 over that JVM's rounds by the pause rule, "
                + "positive = HPL faster; across forks: " + FORK_RULE + ")");
        System.out.println("# load average at end: " + PaperRun.loadAverage());
    }

    /** The run's settings, from the command line; bad input is an {@link IllegalArgumentException}. */
    record Settings(
            int rounds, double sf, double warmup, int tpcbBranches, int warmRounds, int forks, String forkResult) {
        Settings(int rounds, double sf, double warmup, int tpcbBranches, int warmRounds) {
            this(rounds, sf, warmup, tpcbBranches, warmRounds, 1, null);
        }

        static Settings parse(String[] args) {
            Map<String, String> o = PaperRun.options(args);
            for (String key : o.keySet())
                if (!Set.of("rounds", "sf", "warmup", "tpcb-branches", "warm-rounds", "forks", "fork-result")
                        .contains(key))
                    throw new IllegalArgumentException("no option --" + key
                            + " (takes --rounds N, --sf F, --warmup SECONDS, --tpcb-branches N, --warm-rounds N,"
                            + " --forks N)");
            Settings s = new Settings(
                    number(o, "rounds", "50", Integer::parseInt),
                    number(o, "sf", "1", Double::parseDouble),
                    number(o, "warmup", "2", Double::parseDouble),
                    number(o, "tpcb-branches", "10", Integer::parseInt),
                    number(o, "warm-rounds", "20", Integer::parseInt),
                    number(o, "forks", "1", Integer::parseInt),
                    o.get("fork-result"));
            if (s.forks() < 1) throw new IllegalArgumentException("--forks must be at least 1, not " + s.forks());
            if (s.rounds() < 1) throw new IllegalArgumentException("--rounds must be at least 1, not " + s.rounds());
            if (!(s.sf() > 0)) throw new IllegalArgumentException("--sf must be above 0, not " + s.sf());
            if (!(s.warmup() >= 0)) throw new IllegalArgumentException("--warmup must be 0 or more, not " + s.warmup());
            if (s.warmRounds() < 0)
                throw new IllegalArgumentException("--warm-rounds must be 0 or more, not " + s.warmRounds());
            if (s.tpcbBranches() < 1)
                throw new IllegalArgumentException("--tpcb-branches must be at least 1, not " + s.tpcbBranches());
            return s;
        }

        private static <T> T number(
                Map<String, String> o, String key, String otherwise, java.util.function.Function<String, T> parse) {
            String v = o.getOrDefault(key, otherwise);
            try {
                return parse.apply(v);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("--" + key + " takes a number, not '" + v + "'");
            }
        }
    }

    public static void main(String[] args) throws Exception {
        if (List.of(args).contains("--help") || List.of(args).contains("-h")) {
            System.out.println(
                    "usage: ./bench hpl-targets [--rounds 50] [--sf 1] [--warmup 2] [--tpcb-branches 10] [--warm-rounds 20] [--forks 1] [--debug]");
            return;
        }
        boolean debug = List.of(args).contains("--debug");
        Settings s;
        try {
            s = Settings.parse(
                    List.of(args).stream().filter(a -> !a.equals("--debug")).toArray(String[]::new));
        } catch (IllegalArgumentException e) {
            System.err.println("hpl-targets: " + e.getMessage());
            if (debug) e.printStackTrace();
            System.exit(2);
            return;
        }
        if (s.forks() > 1) {
            runForks(s, List.of(args).stream().filter(a -> !a.equals("--debug")).toArray(String[]::new));
            return;
        }
        int pageSize = 32768; // §6: "Shore-MT limits the page size of 32 KB"
        System.setProperty("layouts.paper", "true"); // records per page 204/256/199, read by TpchWorkload
        System.setProperty("tpcb.branches", Integer.toString(s.tpcbBranches())); // read by EngineTpcbWorkload
        PaperRun.means = true; // each workload's table with §6's means and Perf.Δ after the medians
        System.out.printf(
                Locale.ROOT,
                "# hpl-targets (HPL-2012-240 §6 setup): TPC-H sf %s with 204 lineitem records a page, TPC-B scale %d "
                        + "and TPC-C inside the engine, record operations in cache; %d-byte pages, %d rounds, "
                        + "workloads and formats interleaved; java %s; %d cpus%n",
                s.sf(),
                s.tpcbBranches(),
                pageSize,
                s.rounds(),
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        System.out.println("# load average at start: " + PaperRun.loadAverage());
        MachineProbe probe = new MachineProbe();
        System.out.println(probe.line("at start"));
        System.out.println("# collector pauses, the rule fixed before the rounds: " + PAUSE_RULE);
        long t0 = System.nanoTime();
        List<PaperRun.Group> groups = new ArrayList<>();
        groups.add(PaperRun.load(
                "tpch", List.of("PAX", "HPL"), s.sf(), pageSize, s.warmup(), false, false, Set.of("q1", "q6")));
        groups.add(PaperRun.load("tpcc-engine", List.of("NSM", "HPL"), s.sf(), pageSize, 0, false, false, null));
        groups.add(PaperRun.load("tpcb-engine", List.of("NSM", "HPL"), s.sf(), pageSize, 0, false, false, null));
        groups.add(PaperRun.load(
                "record",
                List.of("NSM", "NSM-SHORE", "HPL"),
                s.sf(),
                pageSize,
                s.warmup(),
                false,
                false,
                Set.of("update", "delete", "construct")));
        System.out.printf(
                Locale.ROOT,
                "# loaded in %.0f s; load average now %s%n",
                (System.nanoTime() - t0) / 1e9,
                PaperRun.loadAverage());
        System.out.println(probe.line("before the rounds"));
        long t1 = System.nanoTime();
        List<Map<String, double[][]>> times = PaperRun.measure(groups, s.rounds(), s.warmRounds());
        System.out.println(probe.line("after the rounds"));
        System.out.printf(
                Locale.ROOT,
                "# measured in %.0f s; load average now %s%n# in the timed rounds: %s%n",
                (System.nanoTime() - t1) / 1e9,
                PaperRun.loadAverage(),
                PaperRun.lastRun);
        for (int g = 0; g < groups.size(); g++) {
            PaperRun.Group group = groups.get(g);
            PaperRun.report(
                    group.workload(),
                    group.contenders(),
                    times.get(g),
                    group.cold() ? "cold: caches flushed before each operation" : "warm");
        }
        List<Result> results = new ArrayList<>();
        for (Target t : TARGETS)
            for (int g = 0; g < groups.size(); g++)
                if (groups.get(g).workload().equals(t.workload()))
                    results.add(evaluate(
                            t,
                            groups.get(g).contenders().stream()
                                    .map(PaperRun.Contender::format)
                                    .toList(),
                            times.get(g),
                            PaperRun.lastPaused.get(g)));
        System.out.printf(
                "%n## allocation in the timed runs (the measuring thread's bytes)%n%n%s",
                PaperRun.allocationTable(groups, s.rounds()));
        System.out.printf("%n## targets (issue 25), one interleaved run%n%n%s%n", table(results));
        if (s.forkResult() != null) {
            List<String> lines = new ArrayList<>();
            for (Result r : results)
                lines.add(new ForkResult(
                                r.target().name(), r.ratioOfMeans(), r.meanBase(), r.meanHpl(), r.dropped(), r.rounds())
                        .line());
            java.nio.file.Files.write(java.nio.file.Path.of(s.forkResult()), lines);
        }
        System.out.println(
                "(Perf.Δ: mean(base) / mean(HPL) - 1 over the rounds, positive = HPL faster, the convention of "
                        + "HPL-2012-240 Tables 1-3, with the 95% interval of a paired bootstrap over the rounds; holds: "
                        + "decided by Perf.Δ, \"not decided\" when its interval crosses the target's bound; per-round ratio: "
                        + "time(base) / time(HPL) within each round, median over the rounds, for reference; "
                        + "collector pauses: "
                        + PAUSE_RULE
                        + ")");
        System.out.println("# load average at end: " + PaperRun.loadAverage());
    }
}
