package dev.wastecheck.replay;

import dev.wastecheck.model.BadInputException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What to replay and how: {@code wastecheck replay}'s options, as values. Messages about bad values
 * name the command-line options they come from ({@code --tables}, {@code --memory}, ...).
 *
 * @param data             the database: a dump, database file or folder (as analyze reads)
 * @param trace            the workload: any trace format analyze --trace reads
 * @param configs          configurations ({@code KEY=VAL,...}, engine's {@code EngineConfig} keys), the first the
 *                         baseline; empty for one run of the defaults
 * @param memory           buffer-pool budget ({@code 256M}) of every configuration that sets no {@code memory=}
 * @param tables           replay only the events on these tables; empty for all
 * @param warmup           share of the events run before measuring, in [0, 1)
 * @param jitWarmup        replay up to 50,000 events once on every configuration, unmeasured, so that no
 *                         configuration's first repeat pays for the JIT compiling its paths
 * @param maxEvents        replay at most this many events; 0 for all
 * @param deviceReadMicros modeled random page read latency, or null for NVMe's
 * @param compare          other engines to replay the same events on: {@code sqlite}, {@code duckdb}
 * @param cacheFields      {@code TABLE.INDEX} to {@code COL+COL}: the fields the index cache keeps, instead of the
 *                         analyzer's ranking
 * @param train            the share of the trace (its first part, in time) that clustering, the hot partition,
 *                         cached fields and vertical splits learn from; only the rest is measured. 0 for the
 *                         oracle: learn from every event and measure after the warm-up share
 * @param repeat           runs per configuration, interleaved (configuration order rotates each round), for medians
 *                         and 95% intervals
 * @param warmupRounds     whole rounds run before the first measured one, exactly as a measured round runs (every
 *                         configuration, the whole trace), and not reported: the JIT's and the heap's warm-up
 */
public record ReplayOptions(
        String data,
        Path trace,
        List<String> configs,
        String memory,
        List<String> tables,
        double warmup,
        boolean jitWarmup,
        long maxEvents,
        Double deviceReadMicros,
        List<String> compare,
        Map<String, String> cacheFields,
        double train,
        int repeat,
        int warmupRounds) {
    public ReplayOptions {
        if (repeat < 1) throw new BadInputException("--repeat must be at least 1, got " + repeat);
        if (warmupRounds < 0) throw new BadInputException("--warmup-rounds must be at least 0, got " + warmupRounds);
        configs = List.copyOf(configs);
        tables = List.copyOf(tables);
        compare = List.copyOf(compare);
        cacheFields = new LinkedHashMap<>(cacheFields);
    }

    /** The command's defaults: one baseline run, 256 MB, all tables, a 10% warm-up after a JIT warm-up. */
    public static ReplayOptions of(Path data, Path trace) {
        return of(data.toString(), trace);
    }

    /** {@link #of(Path, Path)} for a SOURCE given as text: a file, a folder or a JDBC URL. */
    public static ReplayOptions of(String data, Path trace) {
        return new ReplayOptions(
                data, trace, List.of(), "256M", List.of(), 0.1, true, 0, null, List.of(), Map.of(), 0, 1, 0);
    }

    public ReplayOptions withConfigs(String... configs) {
        return new ReplayOptions(
                data,
                trace,
                List.of(configs),
                memory,
                tables,
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                compare,
                cacheFields,
                train,
                repeat,
                warmupRounds);
    }

    public ReplayOptions withTables(String... tables) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                List.of(tables),
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                compare,
                cacheFields,
                train,
                repeat,
                warmupRounds);
    }

    public ReplayOptions withCompare(String... engines) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                tables,
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                List.of(engines),
                cacheFields,
                train,
                repeat,
                warmupRounds);
    }

    public ReplayOptions withJitWarmup(boolean on) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                tables,
                warmup,
                on,
                maxEvents,
                deviceReadMicros,
                compare,
                cacheFields,
                train,
                repeat,
                warmupRounds);
    }

    public ReplayOptions withMaxEvents(long max) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                tables,
                warmup,
                jitWarmup,
                max,
                deviceReadMicros,
                compare,
                cacheFields,
                train,
                repeat,
                warmupRounds);
    }

    public ReplayOptions withCacheFields(Map<String, String> fields) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                tables,
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                compare,
                fields,
                train,
                repeat,
                warmupRounds);
    }

    public ReplayOptions withTrain(double share) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                tables,
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                compare,
                cacheFields,
                share,
                repeat,
                warmupRounds);
    }

    public ReplayOptions withRepeat(int n) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                tables,
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                compare,
                cacheFields,
                train,
                n,
                warmupRounds);
    }

    public ReplayOptions withMemory(String size) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                size,
                tables,
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                compare,
                cacheFields,
                train,
                repeat,
                warmupRounds);
    }

    public ReplayOptions withWarmupRounds(int n) {
        return new ReplayOptions(
                data,
                trace,
                configs,
                memory,
                tables,
                warmup,
                jitWarmup,
                maxEvents,
                deviceReadMicros,
                compare,
                cacheFields,
                train,
                repeat,
                n);
    }

    /** The configurations to run: the given ones, or the defaults once. */
    List<String> runs() {
        List<String> out = new ArrayList<>(configs);
        if (out.isEmpty()) {
            out.add("");
        }
        return out;
    }
}
