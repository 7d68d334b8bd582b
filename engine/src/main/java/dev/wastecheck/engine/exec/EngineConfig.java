package dev.wastecheck.engine.exec;

import dev.wastecheck.engine.block.ArrowStorage;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.layouts.Layout;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The engine's configuration for one run: each table's physical design, the buffer pool's
 * budget, the page size, and Arrow blocks' freezing. {@code replay --config KEY=VAL,...} gives it
 * (the command line's contract, docs/replay.md): {@code layout=nsm|pax|hpl|arrow}, {@code cache=off|swap|shrink}, {@code cache_size=FRACTION},
 * {@code cluster=none|FRACTION|partition}, {@code tight=on|off|CLASS+CLASS}, {@code split=none|cold|updates|cached|COL+COL}, {@code compress=none|large|COL+COL}, {@code id=stored|implicit},
 * {@code demote_after=N}, {@code promote=N}, {@code hot=read|refs}, {@code memory=SIZE}, {@code page_size=SIZE}, and for
 * {@code layout=arrow} {@code freeze=on|off}, {@code cold_after=N} and {@code log=on|off}. Keys not given keep the defaults. A
 * table key prefixed with a table's name applies to that table only:
 * {@code cluster=partition,revision.tight=on,text.split=cold}; that is how {@code autotune}'s per-table
 * recommendation replays. {@code layout=arrow} is a setting of the whole database (one Arrow storage with
 * one garbage collector and one transformation), so it cannot be given per table.
 *
 * @param label       the configuration as the user wrote it (the report's {@code config})
 * @param design      the design of every table the configuration does not name
 * @param tables      per table (case-insensitive), its own design
 * @param memoryBytes the buffer pool's budget
 * @param freeze      with {@code layout=arrow}: cold blocks are compacted and frozen to canonical Arrow while the replay
 *                    runs
 * @param coldAfter   with {@code freeze}: events without a write after which a full block is cold
 * @param log         with {@code layout=arrow}: the tables live in an {@link ArrowStorage} whose transactions are
 *                    logged (Li et al., VLDB 2020, §3.4) to a write-ahead log in a temporary directory, forced with
 *                    group commit, removed after the run
 */
public record EngineConfig(
        String label,
        TableDesign design,
        Map<String, TableDesign> tables,
        long memoryBytes,
        int pageSize,
        boolean freeze,
        long coldAfter,
        boolean log) {

    public static final long DEFAULT_MEMORY = 256L << 20;
    public static final int DEFAULT_PAGE_SIZE = 8 << 10;
    /** Events without a write after which a block is cold (one GC epoch per event). */
    public static final long DEFAULT_COLD_AFTER = 1000;

    public EngineConfig {
        Map<String, TableDesign> m = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        m.putAll(tables);
        tables = Collections.unmodifiableMap(m);
    }

    /**
     * Whether the heaps are Arrow-native blocks in memory ({@code layout=arrow}, docs/arrow.md)
     * instead of pages; the indexes stay B+trees in the buffer pool. The shared design says so for
     * every table: a table's own design cannot choose Arrow alone.
     */
    public boolean arrow() {
        return design.layout() == Layout.ARROW;
    }

    /** The baseline: every table as declared ({@link TableDesign#BASELINE}) in a pool of {@code memoryBytes}. */
    public static EngineConfig defaults(long memoryBytes) {
        return builder("baseline", memoryBytes).build();
    }

    /**
     * A configuration from its parts, each named: every table in {@link TableDesign#BASELINE} on
     * {@link #DEFAULT_PAGE_SIZE} pages unless set, Arrow blocks (when asked for) freezing after
     * {@link #DEFAULT_COLD_AFTER} events.
     */
    public static Builder builder(String label, long memoryBytes) {
        return new Builder(label, memoryBytes);
    }

    /** A builder that starts from this configuration. */
    public Builder toBuilder() {
        return new Builder(label, memoryBytes)
                .design(design)
                .tables(tables)
                .pageSize(pageSize)
                .freeze(freeze)
                .coldAfter(coldAfter)
                .log(log);
    }

    /** Builds a {@link EngineConfig} one named part at a time. */
    public static final class Builder {
        private String label;
        private TableDesign design = TableDesign.BASELINE;
        private Map<String, TableDesign> tables = Map.of();
        private long memoryBytes;
        private int pageSize = DEFAULT_PAGE_SIZE;
        private boolean freeze = true;
        private long coldAfter = DEFAULT_COLD_AFTER;
        private boolean log;

        private Builder(String label, long memoryBytes) {
            this.label = label;
            this.memoryBytes = memoryBytes;
        }

        public Builder label(String l) {
            label = l;
            return this;
        }

        /** The design of every table {@link #tables} does not name. */
        public Builder design(TableDesign d) {
            design = d;
            return this;
        }

        /** Per table (case-insensitive), its own design. */
        public Builder tables(Map<String, TableDesign> t) {
            tables = t;
            return this;
        }

        public Builder memory(long bytes) {
            memoryBytes = bytes;
            return this;
        }

        public Builder pageSize(int bytes) {
            pageSize = bytes;
            return this;
        }

        /** With {@code layout=arrow}: whether cold blocks freeze to canonical Arrow while the replay runs. */
        public Builder freeze(boolean on) {
            freeze = on;
            return this;
        }

        /** With {@code layout=arrow}: events without a write after which a full block is cold. */
        public Builder coldAfter(long events) {
            coldAfter = events;
            return this;
        }

        /** With {@code layout=arrow}: whether transactions are logged to a write-ahead log and forced (§3.4). */
        public Builder log(boolean on) {
            log = on;
            return this;
        }

        public EngineConfig build() {
            return new EngineConfig(label, design, tables, memoryBytes, pageSize, freeze, coldAfter, log);
        }
    }

    /** The design of one table. */
    public TableDesign design(String table) {
        return tables.getOrDefault(table, design);
    }

    public Layout layout() {
        return design.layout();
    }

    public CachePolicy cache() {
        return design.cache();
    }

    public double cacheSize() {
        return design.cacheSize();
    }

    public double clusterFraction() {
        return design.clusterFraction();
    }

    public boolean partition() {
        return design.partition();
    }

    /** Whether any table is stored with tight types. */
    public boolean tight() {
        if (!design.tight().isEmpty()) return true;
        return tables.values().stream().anyMatch(d -> !d.tight().isEmpty());
    }

    /** Whether any table's index cache is on. */
    public boolean anyCache() {
        return design.cache() != CachePolicy.OFF
                || tables.values().stream().anyMatch(d -> d.cache() != CachePolicy.OFF);
    }

    /** This configuration with another label. */
    public EngineConfig withLabel(String l) {
        return toBuilder().label(l).build();
    }

    public EngineConfig withMemory(long bytes) {
        return toBuilder().memory(bytes).build();
    }

    /** Parses {@code KEY=VAL,...} over {@code base}; throws IllegalArgumentException with a message a user can act on. */
    public static EngineConfig parse(String spec, EngineConfig base) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String part : spec.split(",")) {
            String p = part.trim();
            if (p.isEmpty()) continue;
            int eq = p.indexOf('=');
            if (eq <= 0)
                throw new IllegalArgumentException("--config '" + spec + "': expected KEY=VALUE, got '" + p + "'");
            kv.put(
                    p.substring(0, eq).trim().toLowerCase(Locale.ROOT),
                    p.substring(eq + 1).trim());
        }
        TableDesign design = base.design;
        Map<String, TableDesign> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
        tables.putAll(base.tables);
        long memory = base.memoryBytes;
        int pageSize = base.pageSize;
        boolean freeze = base.freeze;
        long coldAfter = base.coldAfter;
        boolean log = base.log;
        // Keys for every table first, so that "revision.cluster=none,cluster=partition" means what it says in any
        // order.
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String k = e.getKey();
            if (k.contains(".")) continue;
            String v = e.getValue().toLowerCase(Locale.ROOT);
            switch (k) {
                case "memory" -> memory = parseSize("memory", e.getValue());
                case "freeze" -> {
                    if (v.equals("on") || v.equals("true")) freeze = true;
                    else if (v.equals("off") || v.equals("false")) freeze = false;
                    else throw new IllegalArgumentException("freeze=" + e.getValue() + ": expected on or off");
                }
                case "log" -> {
                    if (v.equals("on") || v.equals("true")) log = true;
                    else if (v.equals("off") || v.equals("false")) log = false;
                    else throw new IllegalArgumentException("log=" + e.getValue() + ": expected on or off");
                }
                case "cold_after" -> {
                    try {
                        coldAfter = Long.parseLong(v);
                    } catch (NumberFormatException ex) {
                        coldAfter = -1;
                    }
                    if (coldAfter < 0)
                        throw new IllegalArgumentException(
                                "cold_after=" + e.getValue() + ": expected a number of events (0 or more)");
                }
                case "page_size" -> {
                    long s = parseSize("page_size", e.getValue());
                    if (s < 4096 || s > 32768 || Long.bitCount(s) != 1) {
                        throw new IllegalArgumentException(
                                "page_size=" + e.getValue() + ": expected 4K, 8K, 16K or 32K");
                    }
                    pageSize = (int) s;
                }
                default -> {
                    if (!TableDesign.isKey(k)) {
                        throw new IllegalArgumentException("--config key '" + k + "': expected " + TableDesign.KEYS
                                + ", memory, page_size, freeze, cold_after or log (or TABLE.KEY for one table)");
                    }
                    design = design.with(k, e.getValue());
                    // a key for every table overrides what earlier configurations set per table
                    for (Map.Entry<String, TableDesign> t : tables.entrySet())
                        t.setValue(t.getValue().with(k, e.getValue()));
                }
            }
        }
        for (Map.Entry<String, String> e : kv.entrySet()) {
            String k = e.getKey();
            int dot = k.lastIndexOf('.');
            if (dot < 0) continue;
            String table = k.substring(0, dot), key = k.substring(dot + 1);
            if (key.equals("layout") && e.getValue().equalsIgnoreCase("arrow")) {
                throw new IllegalArgumentException(
                        "--config key '" + k + "': layout=arrow applies to every table (one Arrow storage)");
            }
            if (table.isEmpty() || !TableDesign.isKey(key)) {
                throw new IllegalArgumentException(
                        "--config key '" + k + "': expected TABLE.KEY with KEY one of " + TableDesign.KEYS);
            }
            tables.put(table, tables.getOrDefault(table, design).with(key, e.getValue()));
        }
        boolean arrow = design.layout() == Layout.ARROW;
        if (memory < 2L * pageSize)
            throw new IllegalArgumentException("memory=" + memory + " B holds fewer than two pages");
        if (!arrow && (kv.containsKey("freeze") || kv.containsKey("cold_after"))) {
            throw new IllegalArgumentException(
                    "--config '" + spec + "': freeze and cold_after apply to layout=arrow only");
        }
        if (!arrow && kv.containsKey("log")) {
            // pages have no write-ahead log in this engine: the log of §3.4 is the Arrow storage's
            throw new IllegalArgumentException("--config '" + spec
                    + "': log applies to layout=arrow only (pages have no write-ahead log); add layout=arrow"
                    + " or drop log");
        }
        if (arrow
                && (!design.split().none()
                        || tables.values().stream().anyMatch(d -> !d.split().none()))) {
            // an Arrow table is one store per partition; a vertical split is a second heap of pages
            throw new IllegalArgumentException(
                    "--config '" + spec + "': split applies to pages (nsm, pax, hpl), not to layout=arrow");
        }
        return new EngineConfig(
                spec.trim().isEmpty() ? base.label : spec.trim(),
                design,
                tables,
                memory,
                pageSize,
                freeze,
                coldAfter,
                log);
    }

    /**
     * The Arrow-native storage this configuration asks for (a new one per database), or null for pages.
     * With {@code log=on} it logs to a new temporary directory that closing it removes.
     */
    public ArrowStorage arrowStorage() {
        if (!arrow()) return null;
        return log ? ArrowStorage.logged(freeze, coldAfter) : new ArrowStorage(freeze, coldAfter);
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
        StringBuilder b = new StringBuilder(describe(design));
        b.append(",memory=")
                .append(sizeLabel(memoryBytes))
                .append(",page_size=")
                .append(pageSize >> 10)
                .append('K');
        for (Map.Entry<String, TableDesign> t : tables.entrySet()) {
            if (t.getValue().equals(design)) continue;
            b.append("; ").append(t.getKey()).append(": ").append(describe(t.getValue()));
        }
        return b.toString();
    }

    /** A table design's description under this configuration: Arrow blocks named where they replace the design's pages. */
    public String describe(TableDesign d) {
        String s = d.describe();
        if (!arrow()) return s;
        int at = s.indexOf("layout=");
        int end = s.indexOf(',', at);
        return s.substring(0, at) + "layout=arrow,freeze=" + (freeze ? "on,cold_after=" + coldAfter : "off")
                + (log ? ",log=on" : "") + (end < 0 ? "" : s.substring(end));
    }

    /** {@code 4M}, {@code 1536K}: the size as the fewest digits say it exactly (or in MiB, rounded, above 1 GiB). */
    public static String sizeLabel(long bytes) {
        if (bytes % (1L << 20) == 0 || bytes >= 1L << 30) return Math.round(bytes / (double) (1L << 20)) + "M";
        if (bytes % 1024 == 0) return (bytes >> 10) + "K";
        return Long.toString(bytes);
    }
}
