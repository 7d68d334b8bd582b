package dev.wastecheck.layouts.bench;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;

/**
 * HPL-2012-240's tables in one run, every compared format interleaved: the workloads of
 * {@code dev.wastecheck.layouts.bench.tpc} (TPC-H Q1/Q6/Q12/Q14, TPC-B, TPC-C and the record
 * operations) on NSM, PAX and the HPL variants (and the plain-array ceiling where it applies),
 * round after round, the order rotated every round, so that other processes on a shared machine
 * slow all formats alike instead of whichever ran while a neighbour was busy. Each ratio is taken
 * within a round (neighbouring measurements) and reported as the median over the rounds with its
 * interquartile range.
 *
 * <p>One JVM runs every format, and the workload code calls {@link dev.wastecheck.layouts.Page}
 * methods per record (an OLTP statement is one call): in a JVM where three formats pass through
 * the same call site, the JIT could not inline any of them (a megamorphic call, ~3-5 ns each,
 * the same for all formats, which would pull every ratio towards 1). So each format's workload is
 * loaded by a class loader of its own ({@link Isolated}) together with its own copy of every
 * page class, as in a JMH fork: its call sites only ever see that format's page class, and the
 * page classes' own branches are profiled on that format alone. Sharing the page classes was not
 * enough: NSM and NSM-SHORE are one class whose update branches on the rule, and with both in one
 * JVM the profile of {@code NsmPage.setLong} held both paths, which made NSM's in-cache
 * single-field update 3x slower (0.050 ms with NSM-SHORE absent, 0.151 ms with it present, in
 * two quiet runs); the HPL variants share {@code HybridPage} the same way.
 *
 * <pre>
 * ./bench layouts-paper [--sf 0.1] [--page-size 65536] [--rounds 21] [--warmup 3]
 *     [--workloads capacity,tpch,tpch-warm,tpcb,tpcc,record] [--formats NSM,NSM-SHORE,PAX,HPL,HPL-RIGID,HPL-SIMPLISTIC]
 *     [--warm-tpch] [--paper] [--means] [--ops new_order,payment,...] [--tpcb-branches 1]
 * </pre>
 *
 * {@code --paper} is HPL-2012-240 §6's setup: 32 KB pages, records per page scaled to 204
 * lineitem, 256 orders and 199 part in every layout, 50 runs (rounds) reported as mean and
 * standard deviation, and Perf.&Delta; in the paper's convention: the prior layout against HPL,
 * {@code mean(prior) / mean(HPL) - 1}, positive when HPL is faster (Table 1's PAX Q1: 0.49 s
 * against 0.55 s gives -10.9%). Without it: 64 KB pages filled to capacity, medians over the
 * rounds and per-round ratios with their interquartile range. NSM-SHORE (records replaced whole
 * on update, §6) runs in the OLTP workloads; its scans are NSM's, so TPC-H leaves it out.
 *
 * TPC-H runs cold ({@code tpch}: a 64 MB buffer is read before each query, outside the timing:
 * the paper's tables are larger than the cache, and no format starts with another's leftovers)
 * or warm ({@code tpch-warm}: each query timed right after an untimed run of itself, so what it
 * touches is in cache as far as it fits: a few MB of PAX's and HPL's columns, not NSM's 60 MB of
 * records). TPC-B, TPC-C and the record operations run warm; the record operations' table fits
 * in cache in every format.
 *
 * <p>{@code tpcc-engine} (on the engine's test classpath: {@code ./bench layouts-engine}) is the
 * same TPC-C inside the engine: heap files of each layout's pages in a buffer pool, B+tree
 * indexes (the engine's {@code bench.tpcc.EngineTpccWorkload}). Its database runs on from batch
 * to batch, so run it with {@code --warmup 0} (three untimed runs of each operation, the same for
 * every format) for every format to see the same transactions. {@code tpcb-engine} is TPC-B there
 * the same way ({@code bench.tpcc.EngineTpcbWorkload}), with Figure 7's statements timed inside a
 * batch and reported as operations of their own.
 */
public final class PaperRun {
    private static long sink;
    /** HPL-2012-240 §6's setup and statistics ({@code --paper}). */
    static boolean paper;
    /** Medians and per-round ratios, and after them §6's means, standard deviations and Perf.&Delta; ({@code --means}). */
    static boolean means;

    private static final long[] FLUSH = new long[8 << 20];

    /** What one format's workload is: its operations in order, and a line describing its tables. */
    record Contender(String format, Map<String, LongSupplier> ops, String description) {}

    public static void main(String[] args) throws Exception {
        Map<String, String> o = options(args);
        paper = o.containsKey("paper");
        means = o.containsKey("means");
        if (paper) System.setProperty("layouts.paper", "true"); // read by TpchWorkload in each loader
        // TPC-B scale (branches of 100,000 accounts): 1 by default; §6.2 reports scale 10.
        System.setProperty("tpcb.branches", o.getOrDefault("tpcb-branches", "1")); // read by TpcbWorkload
        double sf = Double.parseDouble(o.getOrDefault("sf", "0.1"));
        int pageSize = Integer.parseInt(o.getOrDefault("page-size", paper ? "32768" : "65536"));
        int rounds = Integer.parseInt(o.getOrDefault("rounds", paper ? "50" : "21"));
        double warmup = Double.parseDouble(o.getOrDefault("warmup", "3"));
        List<String> workloads = List.of(
                o.getOrDefault("workloads", "capacity,tpch,tpcb,tpcc,record").split(","));
        List<String> formats = List.of(o.getOrDefault(
                        "formats", paper ? "NSM,NSM-SHORE,PAX,HPL" : "NSM,NSM-SHORE,PAX,HPL,HPL-RIGID,HPL-SIMPLISTIC")
                .split(","));
        boolean warmTpch = o.containsKey("warm-tpch");
        // --ops: only these operations (names as printed, comma-separated), for a quick A/B of a few.
        Set<String> only =
                o.containsKey("ops") ? new LinkedHashSet<>(List.of(o.get("ops").split(","))) : null;
        System.out.printf(
                Locale.ROOT,
                "# layouts-paper%s: sf %s, %d-byte pages, %d rounds, %s s warm-up a format and operation; %s; java %s; %d cpus%n",
                paper ? " (HPL-2012-240 §6 setup: records per page 204/256/199, means and standard deviations)" : "",
                sf,
                pageSize,
                rounds,
                warmup,
                String.join(",", formats),
                System.getProperty("java.version"),
                Runtime.getRuntime().availableProcessors());
        System.out.println("# load average at start: " + loadAverage());
        if (CPU_TIME)
            System.out.println("# times: the measuring thread's CPU time (-Dpaperrun.cpu=true), not the wall clock");
        for (String workload : workloads) {
            if (workload.equals("capacity")) {
                // Records per page, deterministic: no timing, no interleaving.
                List<String> all = new ArrayList<>(formats);
                all.add("HPL:nokey");
                System.out.printf(
                        "%n## capacity (records per page on the same records)%n%n%s",
                        dev.wastecheck.layouts.bench.tpc.Capacity.report(all, new int[] {8 << 10, pageSize}));
                continue;
            }
            // The paper has no array ceiling.
            Group group = load(workload, formats, sf, pageSize, warmup, warmTpch, !paper, only);
            long started = System.nanoTime();
            run(group, rounds);
            System.out.printf(
                    Locale.ROOT,
                    "# %s measured in %.0f s; load average now %s%n",
                    workload,
                    (System.nanoTime() - started) / 1e9,
                    loadAverage());
        }
        System.out.println("# load average at end: " + loadAverage());
        if (sink == 42) System.out.println();
    }

    /**
     * {@code -Dpaperrun.cpu=true}: time each operation by the measuring thread's CPU time instead
     * of the wall clock, for exploratory runs on a shared machine (time the thread spends
     * descheduled is left out; other processes' use of the caches is not). Figures for docs
     * use the wall clock on a quiet machine.
     */
    private static final boolean CPU_TIME = Boolean.getBoolean("paperrun.cpu");

    private static final java.lang.management.ThreadMXBean THREADS =
            java.lang.management.ManagementFactory.getThreadMXBean();

    /**
     * {@code -Dpaperrun.trace=FILE}: every timed operation as a CSV line (round, workload, format,
     * operation, the format's place in the round, milliseconds, collector milliseconds and JIT
     * milliseconds spent while it ran, collections that ran meanwhile and the bytes the measuring
     * thread allocated), to find where a round's time varies. The parts a workload times itself
     * (Figure 7's statements, {@link #recordParts}) follow their operation's line as lines of
     * their own, operation "op part", with the operation's collector, JIT, collection and
     * allocation columns empty.
     */
    private static final java.io.PrintStream TRACE = trace();

    private static java.io.PrintStream trace() {
        String file = System.getProperty("paperrun.trace");
        if (file == null) return null;
        try {
            java.io.PrintStream out = new java.io.PrintStream(new java.io.FileOutputStream(file), true);
            out.println("round,workload,format,op,place,ms,gc_ms,jit_ms,collections,allocated_bytes");
            return out;
        } catch (IOException e) {
            throw new IllegalArgumentException("cannot write " + file + ": " + e.getMessage());
        }
    }

    private static long gcMillis() {
        long ms = 0;
        for (java.lang.management.GarbageCollectorMXBean b :
                java.lang.management.ManagementFactory.getGarbageCollectorMXBeans()) ms += b.getCollectionTime();
        return ms;
    }

    /** Collections so far, every collector (a pause shorter than a millisecond counts here, not in {@link #gcMillis}). */
    private static long gcCount() {
        long n = 0;
        for (java.lang.management.GarbageCollectorMXBean b :
                java.lang.management.ManagementFactory.getGarbageCollectorMXBeans())
            n += Math.max(0, b.getCollectionCount());
        return n;
    }

    /** Bytes the measuring thread has allocated so far (HotSpot's per-thread counter; -1 where the JVM has none). */
    private static long allocated() {
        return THREADS instanceof com.sun.management.ThreadMXBean t ? t.getCurrentThreadAllocatedBytes() : -1;
    }

    private static long jitMillis() {
        return java.lang.management.ManagementFactory.getCompilationMXBean().getTotalCompilationTime();
    }

    private static long now() {
        return CPU_TIME ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }

    /**
     * One workload's formats, measured together: each format's operations ({@link Contender}),
     * the warm-up in seconds a format and operation (0: three untimed runs of each, the same for
     * every format, for the workloads whose database runs on), and whether each operation starts
     * cold (a 64 MB buffer read first) or right after an untimed run of itself.
     */
    record Group(String workload, List<Contender> contenders, double warmup, boolean cold, boolean prime) {}

    /**
     * Loads {@code workload} on each of {@code formats}, each format's workload in a class loader
     * of its own ({@link Isolated}); {@code withArray} adds the plain-array ceiling to cold TPC-H
     * ({@code tpch-warm} always has it); {@code only}, if not null, keeps only the operations it names.
     */
    static Group load(
            String workload,
            List<String> formats,
            double sf,
            int pageSize,
            double warmup,
            boolean warmTpch,
            boolean withArray,
            Set<String> only)
            throws ReflectiveOperationException {
        List<String> names = new ArrayList<>(formats);
        if (workload.startsWith("tpch")) names.remove("NSM-SHORE"); // scans as NSM's
        String className;
        String isolate = "dev.wastecheck.layouts.";
        boolean cold = false, prime = false;
        switch (workload) {
            case "tpch":
                if (withArray) names.add("ARRAY");
                className = "dev.wastecheck.layouts.bench.tpc.TpchWorkload";
                cold = !warmTpch;
                prime = warmTpch;
                break;
            case "tpch-warm":
                names.add("ARRAY");
                className = "dev.wastecheck.layouts.bench.tpc.TpchWorkload";
                prime = true;
                break;
            case "tpcb":
                className = "dev.wastecheck.layouts.bench.tpc.TpcbWorkload";
                break;
            case "tpcc":
                className = "dev.wastecheck.layouts.bench.tpc.TpccWorkload";
                break;
            case "record":
                className = "dev.wastecheck.layouts.bench.tpc.RecordWorkload";
                break;
            case "tpcb-engine":
                // TPC-B inside the engine, as tpcc-engine below (EngineTpcbWorkload).
                className = "dev.wastecheck.engine.bench.tpcc.EngineTpcbWorkload";
                names.remove("NSM-SHORE");
                isolate = "dev.wastecheck.";
                break;
            case "tpcc-engine":
                // TPC-C inside the engine (heap files, buffer pool, B+trees): the engine's test
                // classes, on the engine's test classpath (./bench layouts-engine); the engine's
                // classes are isolated per format too, so its heap's page calls stay monomorphic.
                className = "dev.wastecheck.engine.bench.tpcc.EngineTpccWorkload";
                names.remove("NSM-SHORE");
                isolate = "dev.wastecheck.";
                break;
            default:
                throw new IllegalArgumentException("no workload '" + workload + "'");
        }
        List<Contender> contenders = new ArrayList<>();
        for (String format : names) {
            long t0 = System.nanoTime();
            Class<?> c = new Isolated(PaperRun.class.getClassLoader(), isolate).loadClass(className);
            Map<String, LongSupplier> ops;
            try {
                @SuppressWarnings("unchecked")
                Map<String, LongSupplier> made = (Map<String, LongSupplier>)
                        c.getConstructor(String.class, double.class, int.class).newInstance(format, sf, pageSize);
                ops = made;
            } catch (java.lang.reflect.InvocationTargetException e) {
                // A rigid segment larger than the page (§4.5), a NULL in a simplistic table (§3.1).
                System.out.printf(
                        "# %s %s: not run: %s%n", workload, format, e.getCause().getMessage());
                continue;
            }
            String description = ops.toString();
            if (only != null) ops.keySet().removeIf(k -> !k.startsWith("_") && !only.contains(k));
            contenders.add(new Contender(format, ops, description));
            System.out.printf(
                    Locale.ROOT, "# %s %s (loaded in %.1f s)%n", workload, ops, (System.nanoTime() - t0) / 1e9);
        }
        return new Group(workload, contenders, warmup, cold, prime);
    }

    private static void run(Group group, int rounds) {
        Map<String, double[][]> times = measure(List.of(group), rounds).get(0);
        report(
                group.workload(),
                group.contenders(),
                times,
                group.cold()
                        ? "cold: caches flushed before each operation"
                        : group.prime() ? "warm: each operation timed right after an untimed run of itself" : "warm");
        System.out.printf(
                "%n(allocation in the timed runs, the measuring thread's bytes)%n%n%s%n",
                allocationTable(List.of(group), rounds));
    }

    /**
     * Measures every group's formats, interleaved: after each group's warm-up, round after round
     * the groups in an order rotated every round, and inside each group its formats in an order
     * rotated every round, so that a format's measurements sit beside the other formats' of the
     * same workload in every round and load drifts over the whole run hit every workload and format
     * alike. Returns, per group, each operation's milliseconds by format and round (and each
     * "stmt:" operation net of its transaction's logic, where the workload times that).
     */
    static List<Map<String, double[][]>> measure(List<Group> groups, int rounds) {
        return measure(groups, rounds, 0);
    }

    /**
     * {@link #measure(List, int)} after at least {@code warmRounds} untimed rounds of the same
     * schedule and a full collection (none when {@code warmRounds} is 0).
     */
    static List<Map<String, double[][]>> measure(List<Group> groups, int rounds, int warmRounds) {
        List<Map<String, double[][]>> all = new ArrayList<>();
        lastPaused = new ArrayList<>();
        lastAllocated = new ArrayList<>();
        for (Group g : groups) {
            lastPaused.add(new LinkedHashMap<>());
            lastAllocated.add(new LinkedHashMap<>());
            Set<String> opNames = new LinkedHashSet<>();
            for (Contender c : g.contenders())
                for (String op : c.ops().keySet()) if (!op.startsWith("_")) opNames.add(op);
            Map<String, double[][]> times = new LinkedHashMap<>();
            for (String op : opNames) {
                double[][] t = new double[g.contenders().size()][rounds];
                for (double[] row : t) Arrays.fill(row, Double.NaN);
                times.put(op, t);
            }
            all.add(times);
        }
        // Warm-up: each format's operations in turn until each has run for the warm-up time.
        for (Group g : groups) {
            for (Contender c : g.contenders()) {
                LongSupplier before = c.ops().get("_before");
                for (Map.Entry<String, LongSupplier> op : c.ops().entrySet()) {
                    if (op.getKey().startsWith("_")) continue;
                    long end = System.nanoTime() + (long) (g.warmup() * 1e9);
                    int n = 0;
                    while (System.nanoTime() < end || n < 3) {
                        if (before != null) sink += before.getAsLong();
                        sink += op.getValue().getAsLong();
                        n++;
                    }
                }
            }
        }
        // Warm-up rounds: the timed rounds' schedule, untimed, until the compilers are done with
        // it (SETTLED_ROUNDS rounds in a row in which they ran less than SETTLED of the round's
        // time), at least warmRounds and at most 4 x warmRounds; then one full collection, so that no collection the
        // loading and the
        // warm-up left owing (G1's concurrent cycle and the mixed pauses after it) falls inside a
        // round. (issue 25 run 3, docs/benchmarks.md: before this, the compilers still ran in
        // rounds 28-31 of 40, and two pauses of 220 and 665 ms fell inside timed operations.)
        if (warmRounds > 0) {
            int w = 0;
            long jitAll = jitMillis(), started = System.nanoTime();
            for (int quiet = 0; w < 4 * warmRounds && !(quiet >= SETTLED_ROUNDS && w >= warmRounds); w++) {
                long jit0 = jitMillis(), t0 = System.nanoTime();
                round(groups, all, w, rounds, false);
                quiet = jitMillis() - jit0 < SETTLED * (System.nanoTime() - t0) / 1e6 ? quiet + 1 : 0;
            }
            long gc0 = gcMillis(), t0 = System.nanoTime();
            System.gc();
            System.out.printf(
                    Locale.ROOT,
                    "# warm-up: %d untimed rounds in %.0f s (compilers %d ms); a full collection before the rounds: %.1f s%n",
                    w,
                    (t0 - started) / 1e9,
                    jitMillis() - jitAll,
                    (System.nanoTime() - t0) / 1e9);
        }
        long gcBefore = gcMillis(), jitBefore = jitMillis();
        gcInside = 0;
        gcTimed = 0;
        for (int round = 0; round < rounds; round++) round(groups, all, round, rounds, true);
        lastRun = String.format(
                Locale.ROOT,
                "%d timed operations had a collection pause inside (%d ms); pauses in the rounds %d ms, compilers %d ms",
                gcInside,
                gcTimed,
                gcMillis() - gcBefore,
                jitMillis() - jitBefore);
        // A kind of statement alone, net of the transactions' own logic: "T stmt:x - T logic" (T may
        // be empty: the mix), round by round.
        for (int gi = 0; gi < groups.size(); gi++) {
            Map<String, double[][]> times = all.get(gi);
            int k = groups.get(gi).contenders().size();
            for (String op : new ArrayList<>(times.keySet())) {
                int at = op.indexOf("stmt:");
                if (at < 0) continue;
                double[][] logic = times.get(op.substring(0, at) + "logic");
                if (logic == null) continue;
                double[][] t = times.get(op), net = new double[k][rounds];
                for (int c = 0; c < k; c++) for (int r = 0; r < rounds; r++) net[c][r] = t[c][r] - logic[c][r];
                times.put(op.substring(0, at) + op.substring(at + 5) + " (net of logic)", net);
            }
        }
        return all;
    }

    /**
     * The bytes each format's timed operations allocated on the measuring thread in the last
     * {@link #measure} of {@code groups}, a mean a run, and how many of its {@code rounds} runs had a
     * collection inside; a markdown table (allocation is what brings the young collections that
     * fall inside rounds).
     */
    static String allocationTable(List<Group> groups, int rounds) {
        StringBuilder s = new StringBuilder(
                "| workload | operation | format | allocated a run (bytes, mean) | runs with a collection inside |\n");
        s.append("|---|---|---|---:|---:|\n");
        for (int gi = 0; gi < groups.size() && gi < lastAllocated.size(); gi++) {
            Group g = groups.get(gi);
            for (Map.Entry<String, long[]> e : lastAllocated.get(gi).entrySet()) {
                boolean[][] paused = lastPaused.get(gi).get(e.getKey());
                for (int c = 0; c < g.contenders().size(); c++) {
                    int n = 0;
                    if (paused != null) for (boolean p : paused[c]) if (p) n++;
                    s.append(String.format(
                            Locale.ROOT,
                            "| %s | %s | %s | %,d | %d |%n",
                            g.workload(),
                            e.getKey(),
                            g.contenders().get(c).format(),
                            e.getValue()[c] / rounds,
                            n));
                }
            }
        }
        return s.toString();
    }

    /** The compilers' share of a warm-up round below which the JIT counts as settled. */
    static final double SETTLED = 0.01;

    /** Warm-up rounds in a row below {@link #SETTLED} (compilation comes in bursts: one quiet round is not enough). */
    static final int SETTLED_ROUNDS = 3;

    /**
     * Per group of the last {@link #measure}, per operation: whether a collection ran while
     * format c's operation of round r ran ({@code [c][r]}), by the collectors' counts.
     */
    static List<Map<String, boolean[][]>> lastPaused = new ArrayList<>();

    /**
     * Per group of the last {@link #measure}, per operation: the bytes the measuring thread
     * allocated in format c's timed runs of it, summed over the rounds ({@code [c]}).
     */
    static List<Map<String, long[]>> lastAllocated = new ArrayList<>();

    /** Timed operations in the last {@link #measure} with a collection pause inside, and the pauses' ms. */
    private static int gcInside;

    private static long gcTimed;
    /** What the last {@link #measure} saw of the collector and the compilers, a line for the report. */
    static String lastRun = "";

    /**
     * One round: the groups in an order rotated by {@code round}, each group's formats rotated by
     * it; with {@code timed} each operation's milliseconds go to its cell of {@code all}.
     */
    private static void round(
            List<Group> groups, List<Map<String, double[][]>> all, int round, int rounds, boolean timed) {
        for (int gi = 0; gi < groups.size(); gi++) {
            int at = (gi + round) % groups.size();
            Group g = groups.get(at);
            Map<String, double[][]> times = all.get(at);
            int k = g.contenders().size();
            for (int i = 0; i < k; i++) {
                int c = (i + round) % k;
                Map<String, LongSupplier> ops = g.contenders().get(c).ops();
                LongSupplier before = ops.get("_before");
                for (Map.Entry<String, LongSupplier> op : ops.entrySet()) {
                    if (op.getKey().startsWith("_")) continue;
                    if (before != null) sink += before.getAsLong();
                    if (g.cold()) evict();
                    if (g.prime()) sink += op.getValue().getAsLong(); // untimed: what the operation touches is in cache
                    if (!timed) {
                        sink += op.getValue().getAsLong();
                        continue;
                    }
                    long gc0 = gcMillis(), gcn0 = gcCount(), jit0 = TRACE == null ? 0 : jitMillis();
                    long bytes0 = allocated();
                    long t0 = now();
                    sink += op.getValue().getAsLong();
                    long t1 = now();
                    long bytes = allocated() - bytes0;
                    times.get(op.getKey())[c][round] = (t1 - t0) / 1e6;
                    long gc = gcMillis() - gc0, collections = gcCount() - gcn0;
                    if (collections > 0 && lastPaused.size() > at)
                        lastPaused.get(at).computeIfAbsent(op.getKey(), x -> new boolean[k][rounds])[c][round] = true;
                    if (lastAllocated.size() > at)
                        lastAllocated.get(at).computeIfAbsent(op.getKey(), x -> new long[k])[c] += bytes;
                    if (gc > 0) {
                        gcInside++;
                        gcTimed += gc;
                    }
                    if (TRACE != null)
                        TRACE.printf(
                                Locale.ROOT,
                                "%d,%s,%s,%s,%d,%.4f,%d,%d,%d,%d%n",
                                round,
                                g.workload(),
                                g.contenders().get(c).format(),
                                op.getKey(),
                                i,
                                times.get(op.getKey())[c][round],
                                gc,
                                jitMillis() - jit0,
                                collections,
                                bytes);
                    recordParts(ops, op.getKey(), times, k, rounds, c, round);
                    if (TRACE != null)
                        traceParts(
                                ops, round, g.workload(), g.contenders().get(c).format(), op.getKey(), i);
                }
            }
        }
    }

    /**
     * The parts of the operation that just ran, where a workload times them itself (a workload that
     * is a {@code Supplier} of part name to milliseconds, such as the engine's TPC-B with Figure 7's
     * statements): each part is reported as an operation "op part" of its own.
     */
    private static void recordParts(
            Map<String, LongSupplier> ops,
            String op,
            Map<String, double[][]> times,
            int k,
            int rounds,
            int c,
            int round) {
        if (!(ops instanceof java.util.function.Supplier<?> s) || !(s.get() instanceof Map<?, ?> parts)) return;
        for (Map.Entry<?, ?> part : parts.entrySet()) {
            double[][] t = times.computeIfAbsent(op + " " + part.getKey(), x -> {
                double[][] fresh = new double[k][rounds];
                for (double[] row : fresh) Arrays.fill(row, Double.NaN);
                return fresh;
            });
            t[c][round] = ((Number) part.getValue()).doubleValue();
        }
    }

    /** The parts of the operation that just ran ({@link #recordParts}) as {@link #TRACE} lines. */
    private static void traceParts(
            Map<String, LongSupplier> ops, int round, String workload, String format, String op, int place) {
        if (!(ops instanceof java.util.function.Supplier<?> s) || !(s.get() instanceof Map<?, ?> parts)) return;
        for (Map.Entry<?, ?> part : parts.entrySet())
            TRACE.printf(
                    Locale.ROOT,
                    "%d,%s,%s,%s %s,%d,%.4f,,,,%n",
                    round,
                    workload,
                    format,
                    op,
                    part.getKey(),
                    place,
                    ((Number) part.getValue()).doubleValue());
    }

    /**
     * HPL-2012-240 §6's statistics: mean and standard deviation per format and operation, and
     * Perf.&Delta; of each prior layout against HPL as the paper computes it, mean(prior) / mean(HPL) - 1,
     * positive when HPL is faster.
     */
    private static void reportPaper(
            String workload, List<Contender> contenders, Map<String, double[][]> times, String setting) {
        System.out.printf("%n## %s (%s; HPL-2012-240 §6 statistics)%n%n", workload, setting);
        int hpl = index(contenders, "HPL");
        StringBuilder head = new StringBuilder("| operation |");
        StringBuilder rule = new StringBuilder("|---|");
        for (Contender c : contenders) {
            head.append(' ').append(c.format()).append(" ms (sd) |");
            rule.append("---|");
        }
        for (Contender c : contenders) {
            if (c.format().equals("HPL") || c.format().equals("ARRAY") || hpl < 0) continue;
            head.append(' ').append(c.format()).append(" Perf.Δ |");
            rule.append("---|");
        }
        System.out.println(head);
        System.out.println(rule);
        for (Map.Entry<String, double[][]> e : times.entrySet()) {
            double[][] t = e.getValue();
            StringBuilder line = new StringBuilder("| ").append(e.getKey()).append(" |");
            double[] mean = new double[contenders.size()];
            for (int c = 0; c < contenders.size(); c++) {
                double[] ms = meanSd(t[c]);
                mean[c] = ms[0];
                line.append(Double.isNaN(ms[0]) ? " - |" : " " + ms(ms[0]) + " (" + ms(ms[1]) + ") |");
            }
            for (int c = 0; c < contenders.size(); c++) {
                String f = contenders.get(c).format();
                if (f.equals("HPL") || f.equals("ARRAY") || hpl < 0) continue;
                double delta = mean[c] / mean[hpl] - 1;
                line.append(Double.isNaN(delta) ? " - |" : String.format(Locale.ROOT, " %+.1f%% |", 100 * delta));
            }
            System.out.println(line);
        }
        System.out.println();
        System.out.println("(times: mean (standard deviation) over the rounds; Perf.Δ: mean(prior) / mean(HPL) - 1, "
                + "positive = HPL faster, the convention of HPL-2012-240 Tables 1-3)");
    }

    /** Mean and sample standard deviation of the non-NaN values. */
    static double[] meanSd(double[] values) {
        double[] v = Arrays.stream(values).filter(x -> !Double.isNaN(x)).toArray();
        if (v.length == 0) return new double[] {Double.NaN, Double.NaN};
        double mean = Arrays.stream(v).average().orElse(Double.NaN);
        double ss = 0;
        for (double x : v) ss += (x - mean) * (x - mean);
        return new double[] {mean, v.length > 1 ? Math.sqrt(ss / (v.length - 1)) : 0};
    }

    /** Medians per format and operation, and per-round speed ratios against NSM and PAX. */
    static void report(String workload, List<Contender> contenders, Map<String, double[][]> times, String setting) {
        if (paper) {
            reportPaper(workload, contenders, times, setting);
            return;
        }
        System.out.printf("%n## %s (%s)%n%n", workload, setting);
        StringBuilder head = new StringBuilder("| operation |");
        StringBuilder rule = new StringBuilder("|---|");
        for (Contender c : contenders) {
            head.append(' ').append(c.format()).append(" ms |");
            rule.append("---|");
        }
        int nsm = index(contenders, "NSM"), pax = index(contenders, "PAX");
        // Ratio columns as (a, b) pairs: every format against NSM, HPL's against PAX, PAX and the
        // default HPL against the plain array. (Format names may contain '/', as HPL/256 does.)
        int array = index(contenders, "ARRAY");
        List<int[]> ratios = new ArrayList<>();
        for (int c = 0; c < contenders.size(); c++) {
            String f = contenders.get(c).format();
            if (c != nsm && nsm >= 0 && c != array) ratios.add(new int[] {c, nsm});
            if (f.startsWith("HPL") && pax >= 0) ratios.add(new int[] {c, pax});
            int shore = index(contenders, "NSM-SHORE");
            if (f.equals("HPL") && shore >= 0) ratios.add(new int[] {c, shore});
            if ((f.equals("PAX") || f.equals("HPL") || f.equals("HPL:nokey")) && array >= 0)
                ratios.add(new int[] {c, array});
        }
        for (int[] r : ratios) {
            head.append(' ')
                    .append(contenders.get(r[0]).format())
                    .append(" vs ")
                    .append(contenders.get(r[1]).format())
                    .append(" |");
            rule.append("---|");
        }
        System.out.println(head);
        System.out.println(rule);
        for (Map.Entry<String, double[][]> e : times.entrySet()) {
            double[][] t = e.getValue();
            StringBuilder line = new StringBuilder("| ").append(e.getKey()).append(" |");
            for (int c = 0; c < contenders.size(); c++) {
                double[] q = quartiles(t[c]);
                line.append(Double.isNaN(q[1]) ? " - |" : String.format(Locale.ROOT, " %s |", ms(q[1])));
            }
            for (int[] r : ratios) {
                int a = r[0], b = r[1];
                double[] perRound = new double[t[a].length];
                for (int i = 0; i < perRound.length; i++) perRound[i] = t[b][i] / t[a][i]; // speed of a relative to b
                double[] q = quartiles(perRound);
                line.append(
                        Double.isNaN(q[1])
                                ? " - |"
                                : String.format(Locale.ROOT, " %.2fx [%.2f-%.2f] |", q[1], q[0], q[2]));
            }
            System.out.println(line);
        }
        System.out.println();
        System.out.println(
                "(times: median over the rounds; ratios: speed of the first over the second, median over the rounds "
                        + "of the ratio within each round [25th-75th percentile]; above 1 = the first is faster)");
        if (means) reportPaper(workload, contenders, times, setting);
    }

    private static String ms(double v) {
        return v >= 100
                ? String.format(Locale.ROOT, "%.0f", v)
                : v >= 10 ? String.format(Locale.ROOT, "%.1f", v) : String.format(Locale.ROOT, "%.3f", v);
    }

    private static int index(List<Contender> contenders, String format) {
        for (int i = 0; i < contenders.size(); i++)
            if (contenders.get(i).format().equals(format)) return i;
        return -1;
    }

    /** 25th, 50th and 75th percentile of the non-NaN values (NaN if none). */
    static double[] quartiles(double[] values) {
        double[] v =
                Arrays.stream(values).filter(x -> !Double.isNaN(x)).sorted().toArray();
        if (v.length == 0) return new double[] {Double.NaN, Double.NaN, Double.NaN};
        return new double[] {
            v[(v.length - 1) / 4],
            v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2,
            v[(3 * (v.length - 1) + 3) / 4]
        };
    }

    /** Reads 64 MB, twice this machine's L3, so that the next operation starts from memory. */
    private static void evict() {
        long sum = 0;
        for (int i = 0; i < FLUSH.length; i += 8) sum += FLUSH[i];
        sink += sum;
    }

    static String loadAverage() {
        try {
            return new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg"))).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> o = new LinkedHashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--"))
                throw new IllegalArgumentException("expected an option, got '" + args[i] + "'");
            String key = args[i].substring(2);
            if (key.equals("warm-tpch") || key.equals("paper") || key.equals("means")) o.put(key, "true");
            else if (i + 1 < args.length) o.put(key, args[++i]);
            else throw new IllegalArgumentException("--" + key + " needs a value");
        }
        return o;
    }

    /**
     * A class loader that defines its own copy of every class whose name starts with
     * {@code prefix} (from the parent's class files) and delegates everything else, so each
     * copy's call sites are profiled, inlined and compiled on their own.
     */
    static final class Isolated extends ClassLoader {
        private final String prefix;

        Isolated(ClassLoader parent, String prefix) {
            super("isolated", parent);
            this.prefix = prefix;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(prefix)) return super.loadClass(name, resolve);
            synchronized (getClassLoadingLock(name)) {
                Class<?> c = findLoadedClass(name);
                if (c == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        if (in == null) throw new ClassNotFoundException(name);
                        byte[] b = in.readAllBytes();
                        c = defineClass(name, b, 0, b.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) resolveClass(c);
                return c;
            }
        }
    }
}
