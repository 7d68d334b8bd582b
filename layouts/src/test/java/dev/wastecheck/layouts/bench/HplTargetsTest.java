package dev.wastecheck.layouts.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * {@link HplTargets}: the rounds interleave workloads and formats as its comment says, each
 * target is read in HPL-2012-240's convention, and bad options are refused with a message.
 */
class HplTargetsTest {

    /** A format whose operations write "workload/format/op" to {@code log} when they run. */
    private static PaperRun.Contender logging(String workload, String format, List<String> log, String... ops) {
        Map<String, LongSupplier> m = new LinkedHashMap<>();
        for (String op : ops)
            m.put(op, () -> {
                log.add(workload + "/" + format + "/" + op);
                return 1;
            });
        return new PaperRun.Contender(format, m, format);
    }

    @Test
    void roundsRotateTheWorkloadsAndTheFormatsInsideEach() {
        List<String> log = new ArrayList<>();
        PaperRun.Group a = new PaperRun.Group(
                "a", List.of(logging("a", "NSM", log, "x"), logging("a", "HPL", log, "x")), 0, false, false);
        PaperRun.Group b = new PaperRun.Group(
                "b",
                List.of(
                        logging("b", "NSM", log, "y", "z"),
                        logging("b", "PAX", log, "y", "z"),
                        logging("b", "HPL", log, "y", "z")),
                0,
                false,
                false);
        List<Map<String, double[][]>> times = PaperRun.measure(List.of(a, b), 2);
        // Warm-up: three runs of every operation of every format (warm-up 0), 3 x (2 + 6) entries.
        Map<String, Long> warm = log.subList(0, 24).stream()
                .collect(Collectors.groupingBy(s -> s, LinkedHashMap::new, Collectors.counting()));
        assertThat(warm).hasSize(8).containsEntry("a/NSM/x", 3L).containsEntry("b/HPL/z", 3L);
        assertThat(warm.values()).containsOnly(3L);
        assertThat(log.subList(24, log.size()))
                .containsExactly(
                        // round 0: a then b, formats in their order
                        "a/NSM/x",
                        "a/HPL/x",
                        "b/NSM/y",
                        "b/NSM/z",
                        "b/PAX/y",
                        "b/PAX/z",
                        "b/HPL/y",
                        "b/HPL/z",
                        // round 1: b then a, each workload's formats rotated by one
                        "b/PAX/y",
                        "b/PAX/z",
                        "b/HPL/y",
                        "b/HPL/z",
                        "b/NSM/y",
                        "b/NSM/z",
                        "a/HPL/x",
                        "a/NSM/x");
        assertThat(times).hasSize(2);
        assertThat(times.get(0).keySet()).containsExactly("x");
        assertThat(times.get(1).keySet()).containsExactly("y", "z");
        for (Map<String, double[][]> t : times)
            for (double[][] byFormat : t.values())
                for (double[] rounds : byFormat)
                    assertThat(Arrays.stream(rounds).boxed().toList())
                            .hasSize(2)
                            .allMatch(ms -> ms >= 0);
    }

    private static HplTargets.Target target(String op) {
        return HplTargets.TARGETS.stream()
                .filter(t -> t.op().equals(op))
                .findFirst()
                .orElseThrow();
    }

    private static HplTargets.Result result(String op, String base, double[] baseMs, double[] hplMs) {
        return HplTargets.evaluate(target(op), List.of(base, "HPL"), Map.of(op, new double[][] {baseMs, hplMs}));
    }

    @Test
    void aTargetIsReadInThePapersConvention() {
        // HPL 5% slower per round than NSM on the mix: Perf.Δ 10 / 10.5 - 1 = -4.8%, 0.952x, the paper's sign.
        HplTargets.Result mix = result("mix", "NSM", new double[] {10, 10, 10}, new double[] {10.5, 10.5, 10.5});
        assertThat(mix.perfDelta()).isCloseTo(10 / 10.5 - 1, within(1e-12));
        assertThat(mix.ratioQuartiles()[1]).isCloseTo(10 / 10.5, within(1e-12));
        assertThat(mix.ratioOfMeansInterval()).containsExactly(new double[] {10 / 10.5, 10 / 10.5}, within(1e-12));
        assertThat(mix.holds()).isEqualTo("yes");
        assertThat(mix.signAsPaper()).isTrue();
        // HPL ahead where the paper has it behind: holds, with the other sign.
        HplTargets.Result ahead = result("mix", "NSM", new double[] {10, 10, 10}, new double[] {9, 9, 9});
        assertThat(ahead.holds()).isEqualTo("yes");
        assertThat(ahead.signAsPaper()).isFalse();
        // +0.0% has no sign, so not the paper's -5%.
        HplTargets.Result even = result("mix", "NSM", new double[] {10, 10, 10}, new double[] {10, 10, 10});
        assertThat(even.signAsPaper()).isFalse();
        // TPC-B's window is two-sided: 4% faster is outside +-3%, though both machines' signs occur in the paper.
        HplTargets.Result tpcb = result("txn", "NSM", new double[] {10.4, 10.4, 10.4}, new double[] {10, 10, 10});
        assertThat(tpcb.holds()).isEqualTo("no");
        assertThat(tpcb.signAsPaper()).isTrue();
        // The mean decides, not the median: delete 1.2x in two rounds of three, one slow HPL round,
        // so the ratio of the means is 3.6 / 5 = 0.72x; the rounds disagree, so the interval is wide.
        HplTargets.Result delete = result("delete", "NSM-SHORE", new double[] {1.2, 1.2, 1.2}, new double[] {1, 1, 3});
        assertThat(delete.ratioQuartiles()[1]).isCloseTo(1.2, within(1e-12));
        assertThat(delete.ratioOfMeans()).isCloseTo(0.72, within(1e-12));
        assertThat(delete.ratioOfMeansInterval()[0]).isCloseTo(3.6 / 9, within(1e-12)); // every round the slow one
        assertThat(delete.ratioOfMeansInterval()[1]).isCloseTo(1.2, within(1e-12)); // none of them
        assertThat(delete.holds()).isEqualTo("no, not decided");
        // Inside the bounds with an interval that crosses one: the point estimate's side, not decided.
        HplTargets.Result close =
                result("txn", "NSM", new double[] {10, 11, 9, 10, 10.8, 9.2}, new double[] {10, 10, 10, 10, 10, 10});
        assertThat(close.holds()).isEqualTo("yes, not decided");
        assertThat(HplTargets.table(List.of(mix, delete)))
                .contains("| TPC-C mix: HPL >= 0.95x NSM | Table 3: A -5%, B -6% | -4.8% [-4.8%, -4.8%] |")
                .contains("| yes | 0.95x [0.95-0.95] | yes |")
                .contains("| -28.0% [-60.0%, +20.0%] |")
                .contains("| no, not decided | 1.20x [0.40-1.20] | no |");
    }

    @Test
    void aRoundWithACollectionInsideEitherFormatIsLeftOutForBoth() {
        // New-Order: 10 ms against 11 ms in every round, but HPL's round 1 took 100 ms with a
        // collection inside, and NSM's round 3 had one too (its time unchanged).
        double[] nsm = {10, 10, 10, 10, 10}, hpl = {11, 100, 11, 11, 11};
        boolean[][] paused = {{false, false, false, true, false}, {false, true, false, false, false}};
        HplTargets.Result r = HplTargets.evaluate(
                target("new_order"),
                List.of("NSM", "HPL"),
                Map.of("new_order", new double[][] {nsm, hpl}),
                Map.of("new_order", paused));
        assertThat(r.rounds()).isEqualTo(5);
        assertThat(r.dropped()).isEqualTo(2); // rounds 1 and 3, both formats' times together
        assertThat(r.meanBase()).isEqualTo(10);
        assertThat(r.meanHpl()).isEqualTo(11);
        assertThat(r.perfDelta()).isCloseTo(10.0 / 11 - 1, within(1e-12)); // decides: -9.1%, holds
        assertThat(r.holds()).isEqualTo("yes");
        assertThat(r.fullRatioOfMeans()).isCloseTo(50.0 / 144, within(1e-12)); // beside it, every round
        assertThat(HplTargets.table(List.of(r)))
                .contains("| -9.1% [-9.1%, -9.1%] |")
                .contains("(2 of 5) |");
        // A pause in an operation other than the target's leaves its rounds alone.
        HplTargets.Result other = HplTargets.evaluate(
                target("new_order"),
                List.of("NSM", "HPL"),
                Map.of("new_order", new double[][] {nsm, hpl}),
                Map.of("payment", paused));
        assertThat(other.dropped()).isZero();
        assertThat(other.perfDelta()).isCloseTo(other.fullRatioOfMeans() - 1, within(1e-12));
    }

    @Test
    void theIntervalIsAPairedBootstrapOfTheRatioOfTheMeans() {
        // Rounds that slow both formats alike cancel in the pairs: base = 1.1 x HPL in every round.
        double[] hpl = new double[200], base = new double[200];
        java.util.Random r = new java.util.Random(1);
        for (int i = 0; i < hpl.length; i++) {
            hpl[i] = 40 * (1 + 0.2 * r.nextGaussian());
            base[i] = 1.1 * hpl[i];
        }
        assertThat(HplTargets.ratioOfMeansInterval(base, hpl)).containsExactly(new double[] {1.1, 1.1}, within(1e-9));
        // Independent noise of 18% a round over 200 rounds: the interval is about +-2 x 0.18 x sqrt(2 / 200).
        for (int i = 0; i < hpl.length; i++) base[i] = 40 * (1 + 0.18 * r.nextGaussian());
        for (int i = 0; i < hpl.length; i++) hpl[i] = 40 * (1 + 0.18 * r.nextGaussian());
        double[] ci = HplTargets.ratioOfMeansInterval(base, hpl);
        double point = Arrays.stream(base).sum() / Arrays.stream(hpl).sum();
        assertThat(ci[0]).isLessThan(point);
        assertThat(ci[1]).isGreaterThan(point);
        assertThat(ci[1] - ci[0]).isBetween(0.05, 0.09);
        // NaN rounds are left out of both.
        assertThat(HplTargets.ratioOfMeansInterval(new double[] {2, Double.NaN}, new double[] {1, 5}))
                .containsExactly(2, 2);
    }

    @Test
    void everyTargetNamesTheWorkloadItIsMeasuredIn() {
        assertThat(HplTargets.TARGETS.stream().map(HplTargets.Target::workload).distinct())
                .containsExactly("tpcc-engine", "tpcb-engine", "tpch", "record");
        assertThat(HplTargets.TARGETS).hasSize(8).allMatch(t -> t.low() <= t.high());
        assertThatThrownBy(() -> HplTargets.evaluate(target("q6"), List.of("NSM", "HPL"), Map.of()))
                .hasMessageContaining("tpch has no q6 on HPL and PAX");
    }

    @Test
    void badOptionsAreRefusedWithAMessage() {
        assertThat(HplTargets.Settings.parse(new String[] {"--rounds", "7", "--sf", "0.5"}))
                .isEqualTo(new HplTargets.Settings(7, 0.5, 2, 10, 20));
        assertThat(HplTargets.Settings.parse(new String[] {"--forks", "4"}).forks())
                .isEqualTo(4);
        for (String[] bad : List.of(
                new String[] {"--rounds", "many"},
                new String[] {"--rounds", "0"},
                new String[] {"--sf", "-1"},
                new String[] {"--warm-rounds", "-1"},
                new String[] {"--forks", "0"},
                new String[] {"--formats", "NSM"},
                new String[] {"--rounds"},
                new String[] {"rounds"}))
            assertThatThrownBy(() -> HplTargets.Settings.parse(bad))
                    .as(Arrays.toString(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageMatching(".*(rounds|sf|formats|forks|option).*");
    }

    @Test
    void theIntervalAcrossForksIsStudentsTOverTheForks() {
        // {1, 2, 3, 4}: mean 2.5, sd sqrt(5/3) = 1.2910, t(3 df, 0.975) = 3.1824, half-width
        // 3.1824 x 1.2910 / 2 = 2.0543 (Student's table).
        double[] s = HplTargets.tInterval(new double[] {1, 2, 3, 4});
        assertThat(s[0]).isEqualTo(2.5);
        assertThat(s[1]).isCloseTo(Math.sqrt(5.0 / 3), within(1e-12));
        assertThat(s[2]).isCloseTo(2.5 - 2.0543, within(1e-4));
        assertThat(s[3]).isCloseTo(2.5 + 2.0543, within(1e-4));
        // Two values: 1 degree of freedom, t = 12.706; {0, 2}: sd sqrt(2), half-width 12.706 x sqrt(2) / sqrt(2).
        assertThat(HplTargets.tInterval(new double[] {0, 2}))
                .containsExactly(new double[] {1, Math.sqrt(2), 1 - 12.7062, 1 + 12.7062}, within(1e-4));
        // One value: no interval.
        assertThat(HplTargets.tInterval(new double[] {0.05})[2]).isNaN();
    }

    private static HplTargets.AcrossForks forks(String op, double... perfDeltaPercent) {
        List<HplTargets.ForkResult> f = new ArrayList<>();
        for (double d : perfDeltaPercent)
            f.add(new HplTargets.ForkResult(target(op).name(), 1 + d / 100, 10 * (1 + d / 100), 10, 0, 100));
        return new HplTargets.AcrossForks(target(op), f);
    }

    @Test
    void aTargetAcrossForksIsDecidedByTheMeanOfTheForksPerfDelta() {
        // The four JVMs of 2026-12-03 (docs/benchmarks.md, "Between JVMs"): TPC-B +5.2/+6.2/+4.3/+7.3%,
        // mean +5.75%, sd 1.29, half-width 3.1824 x 1.29 / 2 = 2.05: [+3.70%, +7.80%], outside +-3%.
        HplTargets.AcrossForks tpcb = forks("txn", 5.2, 6.2, 4.3, 7.3);
        assertThat(tpcb.statistic()[0]).isCloseTo(0.0575, within(1e-12));
        assertThat(tpcb.statistic()[2]).isCloseTo(0.0370, within(1e-4));
        assertThat(tpcb.statistic()[3]).isCloseTo(0.0780, within(1e-4));
        assertThat(tpcb.holds()).isEqualTo("no");
        // The mix -6.6/-2.4/-6.8/-7.6%: mean -5.85%, sd 2.34, [-9.57%, -2.13%]: crosses -5%.
        HplTargets.AcrossForks mix = forks("mix", -6.6, -2.4, -6.8, -7.6);
        assertThat(mix.statistic()[2]).isCloseTo(-0.0957, within(1e-4));
        assertThat(mix.holds()).isEqualTo("no, not decided");
        // Every fork near +1%: inside +-3%, decided.
        assertThat(forks("txn", 1.0, 1.2, 0.8, 1.1).holds()).isEqualTo("yes");
        assertThat(forks("txn", 1.0).holds()).isEqualTo("yes, not decided (one fork)");
        assertThat(HplTargets.forksTable(List.of(tpcb, mix)))
                .contains("| TPC-B: HPL within +-3% of NSM | Table 2: A -2%, B +3% | +5.2% | +6.2% | +4.3% | +7.3% "
                        + "| +5.8% [+3.7%, +7.8%] | 1.3 | NSM 10.6 / 10.0 | no | 0 of 400 |")
                .contains("| -5.9% [-9.6%, -2.1%] | 2.3 |");
        // A fork's line reads back as written.
        HplTargets.ForkResult r =
                new HplTargets.ForkResult("TPC-B: HPL within +-3% of NSM", 1.0575, 42.0, 40.0, 2, 250);
        assertThat(HplTargets.ForkResult.parse(r.line())).isEqualTo(r);
    }
}
