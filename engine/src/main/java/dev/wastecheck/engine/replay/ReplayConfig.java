package dev.wastecheck.engine.replay;

import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.layouts.Layout;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One configuration of a replay, as {@code --config KEY=VAL,...} gives it (DESIGN.md, command-line
 * contract): {@code layout=nsm|pax|hpl|arrow}, {@code cache=off|swap|shrink}, {@code cache_size=FRACTION},
 * {@code cluster=none|FRACTION|partition}, {@code tight=on|off}, {@code memory=SIZE},
 * {@code page_size=SIZE}, and for {@code layout=arrow} {@code freeze=on|off} and {@code cold_after=N}.
 * Keys not given keep the defaults.
 *
 * @param label          the configuration as the user wrote it (the report's {@code config})
 * @param cacheSize      at most this fraction of each leaf's tuples the leaf free space may cache
 * @param clusterFraction the share of accessed tuples relocated together (0 for none); ignored for a partition
 * @param partition      whether accessed tuples move to a hot partition with its own heap and indexes
 * @param memoryBytes    the buffer pool's budget
 * @param arrow          heaps in Arrow-native blocks in memory ({@code layout=arrow}, docs/arrow.md) instead of pages of
 *                       {@code layout}; the indexes stay B+trees in the buffer pool
 * @param freeze         with {@code arrow}: cold blocks are compacted and frozen to canonical Arrow while the replay runs
 * @param coldAfter      with {@code freeze}: events without a write after which a full block is cold
 */
public record ReplayConfig(String label, Layout layout, CachePolicy cache, double cacheSize, double clusterFraction,
                           boolean partition, boolean tight, long memoryBytes, int pageSize, boolean arrow, boolean freeze,
                           long coldAfter) {

    public static final long DEFAULT_MEMORY = 256L << 20;
    public static final int DEFAULT_PAGE_SIZE = 8 << 10;
    /** Events without a write after which a block is cold (one GC epoch per event). */
    public static final long DEFAULT_COLD_AFTER = 1000;

    public static ReplayConfig defaults(long memoryBytes) {
        return new ReplayConfig("baseline", Layout.NSM, CachePolicy.OFF, 1.0, 0, false, false, memoryBytes, DEFAULT_PAGE_SIZE,
                false, true, DEFAULT_COLD_AFTER);
    }

    /** Parses {@code KEY=VAL,...} over {@code base}; throws IllegalArgumentException with a message a user can act on. */
    public static ReplayConfig parse(String spec, ReplayConfig base) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : spec.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) continue;
            int eq = p.indexOf('=');
            if (eq <= 0) throw new IllegalArgumentException("--config '" + spec + "': expected KEY=VALUE, got '" + p + "'");
            kv.put(p.substring(0, eq).trim().toLowerCase(Locale.ROOT), p.substring(eq + 1).trim());
        }
        Layout layout = base.layout;
        CachePolicy cache = base.cache;
        double cacheSize = base.cacheSize, cluster = base.clusterFraction;
        boolean partition = base.partition, tight = base.tight;
        long memory = base.memoryBytes;
        int pageSize = base.pageSize;
        boolean arrow = base.arrow, freeze = base.freeze;
        long coldAfter = base.coldAfter;
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String v = e.getValue().toLowerCase(Locale.ROOT);
            switch (e.getKey()) {
                case "layout" -> {
                    switch (v) {
                        case "nsm" -> { layout = Layout.NSM; arrow = false; }
                        case "pax" -> { layout = Layout.PAX; arrow = false; }
                        case "hpl" -> { layout = Layout.HPL; arrow = false; }
                        case "arrow" -> arrow = true;
                        default -> throw new IllegalArgumentException("layout=" + e.getValue() + ": expected nsm, pax, hpl or arrow");
                    }
                }
                case "cache" -> {
                    switch (v) {
                        case "off" -> cache = CachePolicy.OFF;
                        case "swap" -> cache = CachePolicy.SWAP;
                        case "shrink" -> cache = CachePolicy.SHRINK;
                        default -> throw new IllegalArgumentException("cache=" + e.getValue() + ": expected off, swap or shrink");
                    }
                }
                case "cache_size" -> cacheSize = fraction("cache_size", v);
                case "cluster" -> {
                    if (v.equals("none")) { cluster = 0; partition = false; }
                    else if (v.equals("partition")) { partition = true; cluster = 0; }
                    else { cluster = fraction("cluster", v); partition = false; }
                }
                case "tight" -> {
                    if (v.equals("on") || v.equals("true")) tight = true;
                    else if (v.equals("off") || v.equals("false")) tight = false;
                    else throw new IllegalArgumentException("tight=" + e.getValue() + ": expected on or off");
                }
                case "memory" -> memory = parseSize("memory", v);
                case "freeze" -> {
                    if (v.equals("on") || v.equals("true")) freeze = true;
                    else if (v.equals("off") || v.equals("false")) freeze = false;
                    else throw new IllegalArgumentException("freeze=" + e.getValue() + ": expected on or off");
                }
                case "cold_after" -> {
                    try {
                        coldAfter = Long.parseLong(v);
                    } catch (NumberFormatException ex) {
                        coldAfter = -1;
                    }
                    if (coldAfter < 0) throw new IllegalArgumentException("cold_after=" + e.getValue() + ": expected a number of events (0 or more)");
                }
                case "page_size" -> {
                    long s = parseSize("page_size", v);
                    if (s < 4096 || s > 32768 || Long.bitCount(s) != 1) {
                        throw new IllegalArgumentException("page_size=" + e.getValue() + ": expected 4K, 8K, 16K or 32K");
                    }
                    pageSize = (int) s;
                }
                default -> throw new IllegalArgumentException("--config key '" + e.getKey()
                        + "': expected layout, cache, cache_size, cluster, tight, memory, page_size, freeze or cold_after");
            }
        }
        if (memory < 2L * pageSize) throw new IllegalArgumentException("memory=" + memory + " B holds fewer than two pages");
        if (!arrow && (kv.containsKey("freeze") || kv.containsKey("cold_after"))) {
            throw new IllegalArgumentException("--config '" + spec + "': freeze and cold_after apply to layout=arrow only");
        }
        return new ReplayConfig(spec.trim().isEmpty() ? base.label : spec.trim(), layout, cache, cacheSize, cluster, partition, tight,
                memory, pageSize, arrow, freeze, coldAfter);
    }

    /** The Arrow-native storage this configuration asks for (a new one per database), or null for pages. */
    public dev.wastecheck.engine.block.ArrowStorage arrowStorage() {
        return arrow ? new dev.wastecheck.engine.block.ArrowStorage(freeze, coldAfter) : null;
    }

    private static double fraction(String key, String v) {
        try {
            double d = v.endsWith("%") ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100 : Double.parseDouble(v);
            if (d >= 0 && d <= 1) return d;
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw new IllegalArgumentException(key + "=" + v + ": expected a fraction from 0 to 1 (or a percentage)");
    }

    /** {@code 64M}, {@code 1G}, {@code 512k}, {@code 8192}: bytes. */
    public static long parseSize(String key, String v) {
        String s = v.trim().toLowerCase(Locale.ROOT);
        if (s.endsWith("ib")) s = s.substring(0, s.length() - 2);
        else if (s.endsWith("b")) s = s.substring(0, s.length() - 1);
        long mult = 1;
        if (!s.isEmpty()) {
            switch (s.charAt(s.length() - 1)) {
                case 'k' -> mult = 1L << 10;
                case 'm' -> mult = 1L << 20;
                case 'g' -> mult = 1L << 30;
                default -> mult = 1;
            }
        }
        if (mult != 1) s = s.substring(0, s.length() - 1);
        try {
            double d = Double.parseDouble(s);
            if (d > 0) return (long) (d * mult);
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw new IllegalArgumentException(key + "=" + v + ": expected a size such as 64M, 1G or 8192");
    }

    /** A short description of every setting, for the report. */
    public String describe() {
        String cl = partition ? "partition" : clusterFraction > 0 ? String.valueOf(clusterFraction) : "none";
        String storage = arrow ? "arrow,freeze=" + (freeze ? "on,cold_after=" + coldAfter : "off") : layout.name().toLowerCase(Locale.ROOT);
        return "layout=" + storage + ",cache=" + cache.name().toLowerCase(Locale.ROOT)
                + (cache == CachePolicy.OFF ? "" : ",cache_size=" + cacheSize) + ",cluster=" + cl + ",tight=" + (tight ? "on" : "off")
                + ",memory=" + (memoryBytes >> 20) + "M,page_size=" + (pageSize >> 10) + "K";
    }
}
