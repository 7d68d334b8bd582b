package dev.wastecheck.replay;

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
 * @param configs          configurations ({@code KEY=VAL,...}, engine's {@code ReplayConfig} keys), the first the
 *                         baseline; empty for one run of the defaults
 * @param memory           buffer-pool budget ({@code 256M}) of every configuration that sets no {@code memory=}
 * @param tables           replay only the events on these tables; empty for all
 * @param warmup           share of the events run before measuring, in [0, 1)
 * @param jitWarmup        replay up to 50,000 events once on the first configuration, unmeasured, so the baseline
 *                         does not pay for the JIT compiling the engine
 * @param maxEvents        replay at most this many events; 0 for all
 * @param deviceReadMicros modeled random page read latency, or null for NVMe's
 * @param compare          other engines to replay the same events on: {@code sqlite}, {@code duckdb}
 * @param cacheFields      {@code TABLE.INDEX} to {@code COL+COL}: the fields the index cache keeps, instead of the
 *                         analyzer's ranking
 */
public record ReplayOptions(Path data, Path trace, List<String> configs, String memory, List<String> tables, double warmup,
                            boolean jitWarmup, long maxEvents, Double deviceReadMicros, List<String> compare,
                            Map<String, String> cacheFields) {
    public ReplayOptions {
        configs = List.copyOf(configs);
        tables = List.copyOf(tables);
        compare = List.copyOf(compare);
        cacheFields = new LinkedHashMap<>(cacheFields);
    }

    /** The command's defaults: one baseline run, 256 MB, all tables, a 10% warm-up after a JIT warm-up. */
    public static ReplayOptions of(Path data, Path trace) {
        return new ReplayOptions(data, trace, List.of(), "256M", List.of(), 0.1, true, 0, null, List.of(), Map.of());
    }

    public ReplayOptions withConfigs(String... configs) {
        return new ReplayOptions(data, trace, List.of(configs), memory, tables, warmup, jitWarmup, maxEvents, deviceReadMicros,
                compare, cacheFields);
    }

    public ReplayOptions withTables(String... tables) {
        return new ReplayOptions(data, trace, configs, memory, List.of(tables), warmup, jitWarmup, maxEvents, deviceReadMicros,
                compare, cacheFields);
    }

    public ReplayOptions withCompare(String... engines) {
        return new ReplayOptions(data, trace, configs, memory, tables, warmup, jitWarmup, maxEvents, deviceReadMicros,
                List.of(engines), cacheFields);
    }

    public ReplayOptions withJitWarmup(boolean on) {
        return new ReplayOptions(data, trace, configs, memory, tables, warmup, on, maxEvents, deviceReadMicros, compare, cacheFields);
    }

    public ReplayOptions withMaxEvents(long max) {
        return new ReplayOptions(data, trace, configs, memory, tables, warmup, jitWarmup, max, deviceReadMicros, compare, cacheFields);
    }

    public ReplayOptions withCacheFields(Map<String, String> fields) {
        return new ReplayOptions(data, trace, configs, memory, tables, warmup, jitWarmup, maxEvents, deviceReadMicros, compare,
                fields);
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
