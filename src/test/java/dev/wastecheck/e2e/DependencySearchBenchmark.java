package dev.wastecheck.e2e;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies.Mode;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies.Strategy;
import dev.wastecheck.model.Progress;
import dev.wastecheck.sources.load.LoadOptions;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The functional-dependency search's time ("No Bits Left Behind" §4.2) on one loaded source, as
 * analyze runs it, and its two strategies against each other: the in-memory partition search and
 * the same lattice walk as DuckDB aggregates. The source is loaded and profiled once; then each
 * configuration runs over every table, interleaved, {@code RUNS} times; the report is each one's
 * median with its range, and the ratio of medians to the in-memory partitions, measured in the same
 * run. The time of a whole analyze for scale is the profile's own ({@code timings_ms}).
 *
 * <p>Run: {@code BENCH_MAIN=dev.wastecheck.e2e.DependencySearchBenchmark ./bench src/test SOURCE|MEGABYTES
 * [RUNS]} ({@code -Dconfigs=partitions,aggregates,analyze,--dependencies} picks some, by prefix;
 * {@code -Dfull.rows=N} is the full searches' row limit); a number generates the synthetic {@code orders} mysqldump of that size ({@link SyntheticDump}).
 */
public final class DependencySearchBenchmark {

    public static void main(String[] args) throws Exception {
        Path source;
        if (args[0].matches("\\d+")) {
            long mb = Long.parseLong(args[0]);
            Path dir = Path.of(System.getProperty("bench.dir", "target/bench-analyze"))
                    .toAbsolutePath();
            Files.createDirectories(dir);
            source = dir.resolve("orders-" + mb + "mb.sql");
            if (!Files.exists(source)) {
                SyntheticDump.writeMysqldump(source, SyntheticDump.rowsFor(mb << 20), 42);
            }
        } else {
            source = Path.of(args[0]);
        }
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        Duration budget = Duration.ofSeconds(Long.parseLong(System.getProperty("budget.seconds", "600")));
        long full = Long.parseLong(System.getProperty("full.rows", "2000000"));
        Map<String, FunctionalDependencies.Options> configs = new LinkedHashMap<>();
        configs.put(
                "partitions (full search)",
                new FunctionalDependencies.Options(budget, full, Mode.AUTO, Strategy.PARTITIONS));
        configs.put(
                "aggregates (full search)",
                new FunctionalDependencies.Options(budget, full, Mode.AUTO, Strategy.AGGREGATES));
        configs.put("analyze default (auto)", FunctionalDependencies.Options.defaults());
        configs.put(
                "--dependencies on", FunctionalDependencies.Options.defaults().withMode(Mode.ON));
        List<String> only = List.of(System.getProperty("configs", "").split(","));
        if (!only.get(0).isEmpty()) {
            configs.keySet().removeIf(k -> only.stream().noneMatch(k::startsWith));
        }
        Analyzer analyzer = new Analyzer(
                InferenceOptions.defaults(),
                LoadOptions.of(ProfilingOptions.defaults()),
                FunctionalDependencies.Options.defaults().withMode(Mode.OFF),
                note -> {});
        try (LoadedSource s = analyzer.open(List.of(source), false, Progress.NONE)) {
            AnalysisReport r = analyzer.report(s, List.of(), Progress.NONE);
            long rows = r.tables().stream().mapToLong(TableReport::rows).sum();
            System.out.printf(
                    Locale.ROOT,
                    "%s: %d tables, %d rows; analyze's own timings_ms %s%n",
                    source.getFileName(),
                    r.tables().size(),
                    rows,
                    r.timingsMillis());
            Map<String, List<Double>> seconds = new LinkedHashMap<>();
            Map<String, Integer> found = new LinkedHashMap<>();
            for (int run = -1; run < runs; run++) { // run -1 warms up
                for (var c : configs.entrySet()) {
                    FunctionalDependencies fd = FunctionalDependencies.on(s.database(), s.dialect(), c.getValue());
                    long t0 = System.nanoTime();
                    int n = 0;
                    for (TableReport t : r.tables()) {
                        LoadedTable lt = s.tables().get(t.name().toLowerCase(Locale.ROOT));
                        if (lt != null && lt.relation() != null && lt.rows() >= 2) {
                            FunctionalDependencies.TableResult tr = fd.search(lt, t);
                            n += tr.exact().size();
                            if (run == -1 && tr.note() != null) {
                                System.out.println("  " + c.getKey() + ": " + tr.note());
                            }
                        }
                    }
                    double sec = (System.nanoTime() - t0) / 1e9;
                    if (run >= 0) {
                        seconds.computeIfAbsent(c.getKey(), k -> new ArrayList<>())
                                .add(sec);
                    }
                    found.put(c.getKey(), n);
                }
            }
            List<Double> first = seconds.values().iterator().next();
            double base = median(first);
            System.out.println("| configuration | dependencies found | seconds, median (range) | vs the first |");
            System.out.println("|---|---:|---|---:|");
            for (var e : seconds.entrySet()) {
                double[] v = e.getValue().stream()
                        .mapToDouble(Double::doubleValue)
                        .sorted()
                        .toArray();
                System.out.printf(
                        Locale.ROOT,
                        "| %s | %d | %.3f (%.3f-%.3f) | %.2fx |%n",
                        e.getKey(),
                        found.get(e.getKey()),
                        median(e.getValue()),
                        v[0],
                        v[v.length - 1],
                        median(e.getValue()) / base);
            }
        }
    }

    static double median(List<Double> xs) {
        double[] v = xs.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
