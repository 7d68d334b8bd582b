package dev.wastecheck.layouts.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;

/**
 * What a JVM of {@link HplTargets} ran on, measured the same way in every fork, so that a fork
 * whose batches are longer in every format can be told apart by cause (docs/benchmarks.md, issue
 * 25 run 6): the machine's speed (a loop of dependent multiplications, no memory: the same code in
 * every JVM, compiled by C2 before it is timed), its memory latency (a random cycle through 128 MB
 * of the heap, one dependent load a step: a cache miss and, without a huge page, a TLB miss), how
 * much of the process' memory the kernel backed with transparent huge pages (the heap is madvised,
 * {@code -XX:+UseTransparentHugePages}; the engine's frames and the TPC-H pages live there), and
 * the CPU time the hypervisor gave to others while the fork ran (steal, from /proc/stat).
 */
final class MachineProbe {
    private static long sink;

    private final long[] stat0 = cpuStat();
    private final int[] cycle = new int[32 << 20]; // 128 MB

    MachineProbe() {
        // Sattolo's algorithm: one cycle through every index, in a random order (fixed seed).
        for (int i = 0; i < cycle.length; i++) cycle[i] = i;
        java.util.SplittableRandom r = new java.util.SplittableRandom(25);
        for (int i = cycle.length - 1; i > 0; i--) {
            int j = r.nextInt(i);
            int t = cycle[i];
            cycle[i] = cycle[j];
            cycle[j] = t;
        }
    }

    /** Nanoseconds a dependent multiply-add step, the median of 5 timings of 50,000,000 steps. */
    static double computeNs() {
        double[] t = new double[5];
        for (int k = -3; k < t.length; k++) { // three untimed, so C2 has compiled the loop
            long x = k + 3, t0 = System.nanoTime();
            for (int i = 0; i < 50_000_000; i++) x = x * 6364136223846793005L + 1442695040888963407L;
            long ns = System.nanoTime() - t0;
            sink += x;
            if (k >= 0) t[k] = ns / 50e6;
        }
        Arrays.sort(t);
        return t[2];
    }

    /** Nanoseconds a dependent load through the 128 MB cycle, the median of 5 timings of 1,000,000 loads. */
    double chaseNs() {
        double[] t = new double[5];
        int p = 0;
        for (int k = -1; k < t.length; k++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < 1_000_000; i++) p = cycle[p];
            long ns = System.nanoTime() - t0;
            if (k >= 0) t[k] = ns / 1e6;
        }
        sink += p;
        Arrays.sort(t);
        return t[2];
    }

    /**
     * The probe alone, for a script that sets a run beside it ({@code BENCH_MAIN=
     * dev.wastecheck.layouts.bench.MachineProbe ./bench engine}): the dependent multiply-add and
     * the dependent load through 128 MB, in nanoseconds.
     */
    public static void main(String[] args) {
        MachineProbe probe = new MachineProbe();
        System.out.printf(
                Locale.ROOT,
                "# MachineProbe: a dependent multiply-add %.3f ns, a dependent load in 128 MB %.1f ns; huge pages %s%n",
                computeNs(),
                probe.chaseNs(),
                hugePages());
    }

    /** "AnonHugePages of Rss" of this process, in MB, from /proc/self/smaps_rollup ("unknown" without it). */
    static String hugePages() {
        try {
            long huge = -1, rss = -1;
            for (String line : Files.readAllLines(Path.of("/proc/self/smaps_rollup"))) {
                String[] f = line.trim().split("\\s+");
                if (f[0].equals("AnonHugePages:")) huge = Long.parseLong(f[1]);
                if (f[0].equals("Rss:")) rss = Long.parseLong(f[1]);
            }
            return String.format(
                    Locale.ROOT, "%d MB of %d MB (%.0f%%)", huge >> 10, rss >> 10, 100.0 * huge / Math.max(1, rss));
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /** /proc/stat's first line: user, nice, system, idle, iowait, irq, softirq, steal (jiffies); empty without it. */
    private static long[] cpuStat() {
        try {
            String[] f = Files.readAllLines(Path.of("/proc/stat")).get(0).trim().split("\\s+");
            long[] v = new long[8];
            for (int i = 0; i < v.length; i++) v[i] = Long.parseLong(f[i + 1]);
            return v;
        } catch (IOException | RuntimeException e) {
            return new long[0];
        }
    }

    /** The steal share of the machine's CPU time since this probe was made, in percent. */
    String steal() {
        long[] now = cpuStat();
        if (now.length == 0 || stat0.length == 0) return "unknown";
        long total = 0;
        for (int i = 0; i < now.length; i++) total += now[i] - stat0[i];
        return String.format(Locale.ROOT, "%.1f%%", 100.0 * (now[7] - stat0[7]) / Math.max(1, total));
    }

    /** One line: compute, chase, huge pages and steal, for the fork's output. */
    String line(String when) {
        return String.format(
                Locale.ROOT,
                "# machine %s: a dependent multiply-add %.3f ns, a dependent load in 128 MB %.1f ns, "
                        + "huge pages %s, steal since the start %s%s",
                when,
                computeNs(),
                chaseNs(),
                hugePages(),
                steal(),
                sink == 42 ? "" : "");
    }
}
