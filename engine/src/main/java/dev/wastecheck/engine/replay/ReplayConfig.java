package dev.wastecheck.engine.replay;

import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.layouts.Layout;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * One configuration of a replay, as {@code --config KEY=VAL,...} gives it (DESIGN.md, command-line
 * contract): {@code layout=nsm|pax|hpl}, {@code cache=off|swap|shrink}, {@code cache_size=FRACTION},
 * {@code cluster=none|FRACTION|partition}, {@code tight=on|off|CLASS+CLASS}, {@code split=none|cold|updates|COL+COL},
 * {@code demote_after=N}, {@code promote=N}, {@code memory=SIZE}, and {@code page_size=SIZE}. Keys not given keep
 * the defaults. A table key prefixed with a table's name applies to that table only:
 * {@code cluster=partition,revision.tight=on,text.split=cold}; that is how {@code autotune}'s per-table
 * recommendation replays.
 *
 * @param label       the configuration as the user wrote it (the report's {@code config})
 * @param design      the design of every table the configuration does not name
 * @param tables      per table (case-insensitive), its own design
 * @param memoryBytes the buffer pool's budget
 */
public record ReplayConfig(String label, TableDesign design, Map<String, TableDesign> tables, long memoryBytes, int pageSize) {

    public static final long DEFAULT_MEMORY = 256L << 20;
    public static final int DEFAULT_PAGE_SIZE = 8 << 10;

    public ReplayConfig {
        Map<String, TableDesign> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        m.putAll(tables);
        tables = java.util.Collections.unmodifiableMap(m);
    }

    public static ReplayConfig defaults(long memoryBytes) {
        return new ReplayConfig("baseline", TableDesign.BASELINE, Map.of(), memoryBytes, DEFAULT_PAGE_SIZE);
    }

    /** The design of one table. */
    public TableDesign design(String table) {
        return tables.getOrDefault(table, design);
    }

    public Layout layout() { return design.layout(); }
    public CachePolicy cache() { return design.cache(); }
    public double cacheSize() { return design.cacheSize(); }
    public double clusterFraction() { return design.clusterFraction(); }
    public boolean partition() { return design.partition(); }

    /** Whether any table is stored with tight types. */
    public boolean tight() {
        if (!design.tight().isEmpty()) return true;
        return tables.values().stream().anyMatch(d -> !d.tight().isEmpty());
    }

    /** Whether any table's index cache is on. */
    public boolean anyCache() {
        return design.cache() != CachePolicy.OFF || tables.values().stream().anyMatch(d -> d.cache() != CachePolicy.OFF);
    }

    /** This configuration with another label. */
    public ReplayConfig withLabel(String l) {
        return new ReplayConfig(l, design, tables, memoryBytes, pageSize);
    }

    public ReplayConfig withMemory(long bytes) {
        return new ReplayConfig(label, design, tables, bytes, pageSize);
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
        TableDesign design = base.design;
        Map<String, TableDesign> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        tables.putAll(base.tables);
        long memory = base.memoryBytes;
        int pageSize = base.pageSize;
        // Keys for every table first, so that "revision.cluster=none,cluster=partition" means what it says in any order.
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String k = e.getKey();
            if (k.contains(".")) continue;
            switch (k) {
                case "memory" -> memory = parseSize("memory", e.getValue());
                case "page_size" -> {
                    long s = parseSize("page_size", e.getValue());
                    if (s < 4096 || s > 32768 || Long.bitCount(s) != 1) {
                        throw new IllegalArgumentException("page_size=" + e.getValue() + ": expected 4K, 8K, 16K or 32K");
                    }
                    pageSize = (int) s;
                }
                default -> {
                    if (!TableDesign.isKey(k)) {
                        throw new IllegalArgumentException("--config key '" + k + "': expected " + TableDesign.KEYS
                                + ", memory or page_size (or TABLE.KEY for one table)");
                    }
                    design = design.with(k, e.getValue());
                    // a key for every table overrides what earlier configurations set per table
                    for (Map.Entry<String, TableDesign> t : tables.entrySet()) t.setValue(t.getValue().with(k, e.getValue()));
                }
            }
        }
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String k = e.getKey();
            int dot = k.lastIndexOf('.');
            if (dot < 0) continue;
            String table = k.substring(0, dot), key = k.substring(dot + 1);
            if (table.isEmpty() || !TableDesign.isKey(key)) {
                throw new IllegalArgumentException("--config key '" + k + "': expected TABLE.KEY with KEY one of " + TableDesign.KEYS);
            }
            tables.put(table, tables.getOrDefault(table, design).with(key, e.getValue()));
        }
        if (memory < 2L * pageSize) throw new IllegalArgumentException("memory=" + memory + " B holds fewer than two pages");
        return new ReplayConfig(spec.trim().isEmpty() ? base.label : spec.trim(), design, tables, memory, pageSize);
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

    /** A short description of every setting, for the report: the common design, then each table's differences. */
    public String describe() {
        StringBuilder b = new StringBuilder(design.describe());
        b.append(",memory=").append(sizeLabel(memoryBytes)).append(",page_size=").append(pageSize >> 10).append('K');
        for (Map.Entry<String, TableDesign> t : tables.entrySet()) {
            if (t.getValue().equals(design)) continue;
            b.append("; ").append(t.getKey()).append(": ").append(t.getValue().describe());
        }
        return b.toString();
    }

    /** {@code 4M}, {@code 1536K}: the size as the fewest digits say it exactly (or in MiB, rounded, above 1 GiB). */
    public static String sizeLabel(long bytes) {
        if (bytes % (1L << 20) == 0 || bytes >= 1L << 30) return Math.round(bytes / (double) (1L << 20)) + "M";
        if (bytes % 1024 == 0) return (bytes >> 10) + "K";
        return Long.toString(bytes);
    }
}
