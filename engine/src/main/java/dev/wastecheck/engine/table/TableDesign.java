package dev.wastecheck.engine.table;

import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.layouts.Layout;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * The physical design of one table: what {@code replay --config} sets for every table (or, with a
 * {@code TABLE.} prefix, for one) and what {@code autotune} searches per table.
 *
 * @param layout          the heap's page format, or Arrow blocks ({@link Layout#ARROW}: one storage for the whole
 *                        database, so {@code EngineConfig} sets it for every table or none)
 * @param cache           the index cache in the leaves' free space ("No Bits Left Behind" §2.1)
 * @param cacheSize       at most this share of a leaf's tuples is cached
 * @param clusterFraction the share of the accessed tuples relocated to the heap's end, hottest first (§3.1); 0 for none
 * @param partition       whether the accessed tuples move into a hot partition with its own heap and indexes (§3.1)
 * @param tight           which classes of the analyzer's tight types the table is stored with
 * @param split           vertical partitioning (§3.2): which columns live apart, in a second heap
 * @param demoteAfter     with a partition: a hot tuple that has not been read for this many of the table's
 *                        events moves to the cold partition; 0 never
 * @param promoteAfter    with a partition: a cold tuple read this many times while its decayed heat lasts
 *                        moves to the hot partition; 0 never
 * @param byReference     with a partition ({@code hot=refs}): the hot partition also takes the tuples a rule learned
 *                        from the training's reads selects by reference ({@link dev.wastecheck.engine.cluster.HotRules}),
 *                        such as the latest revision of every page, read or not
 * @param compress        compressed fields (§4.1)
 * @param implicitId      {@code id=implicit}: the table's integer primary key is not stored in its records;
 *                        the primary index maps id to tuple address and a read derives the id from the address
 *                        ("No Bits Left Behind" §4.2, {@link dev.wastecheck.engine.heap.ImplicitIdStore})
 */
public record TableDesign(
        Layout layout,
        CachePolicy cache,
        double cacheSize,
        double clusterFraction,
        boolean partition,
        Set<TightClass> tight,
        Split split,
        long demoteAfter,
        int promoteAfter,
        boolean byReference,
        Compress compress,
        boolean implicitId) {

    /** The declared design: NSM, no cache, no clustering, declared types, one heap. */
    public static final TableDesign BASELINE = new TableDesign(
            Layout.NSM,
            CachePolicy.OFF,
            1.0,
            0,
            false,
            EnumSet.noneOf(TightClass.class),
            Split.NONE,
            0,
            0,
            false,
            Compress.NONE,
            false);

    public TableDesign {
        tight = tight.isEmpty() ? EnumSet.noneOf(TightClass.class) : EnumSet.copyOf(tight);
    }

    /**
     * Classes of tight types, as {@code tight=} names them: narrower integers (and strings of
     * digits kept as the integer they spell), dictionary fields for low-cardinality strings,
     * dates and timestamps as day or second counts, booleans as bits.
     */
    public enum TightClass {
        INT,
        DICT,
        TIME,
        BOOL,
        /** Sub-byte fields (§4.1, "8, or even 4 bits"): integers and dictionary codes of 1 to 7 bits where the range allows. */
        BITS;

        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * Vertical partitioning, "No Bits Left Behind" §3.2. {@code mode} says how the columns were
     * chosen: {@code cold} (columns the training events never read go apart, so the pages that
     * serve lookups hold only what lookups read), {@code updates} (columns the training updates go
     * apart from those it only reads), {@code cached} (the fields an index cache keeps go apart:
     * "separating the cached fields from the uncached fields can complement index caching by
     * minimizing the amount of redundant data read into memory when queries access fields not found
     * in the index"), or {@code columns} (named). {@code columns} are the
     * columns stored apart once the mode is resolved against a trace; empty until then.
     */
    public record Split(String mode, List<String> columns) {
        public static final Split NONE = new Split("none", List.of());

        public Split {
            columns = List.copyOf(columns);
        }

        public boolean none() {
            return mode.equals("none");
        }

        public String label() {
            return mode.equals("columns") ? String.join("+", columns) : mode;
        }

        static Split parse(String v) {
            String s = v.trim().toLowerCase(Locale.ROOT);
            return switch (s) {
                case "none", "off" -> NONE;
                case "cold", "updates", "cached" -> new Split(s, List.of());
                default -> {
                    List<String> cols = new ArrayList<>();
                    for (String c : v.split("\\+")) if (!c.isBlank()) cols.add(c.trim());
                    if (cols.isEmpty())
                        throw new IllegalArgumentException(
                                "split=" + v + ": expected none, cold, updates, cached or COL+COL");
                    yield new Split("columns", cols);
                }
            };
        }
    }

    /**
     * Compressed fields, "No Bits Left Behind" §4.1. {@code large}: every column whose values may be
     * too long for a page (text, blobs: those the engine keeps behind a tag byte); or named columns,
     * {@code COL+COL}, each of which must be such a column. Keys and predicates see the plain value:
     * a tuple's index keys are taken before its values are compressed, and a read decompresses.
     */
    public record Compress(
            String mode, List<String> columns, int block, int cache, int dictionary, boolean content, int level) {
        public static final Compress NONE = new Compress("none", List.of(), 0, 0, 0, false, 0);
        public static final Compress LARGE = new Compress("large", List.of(), 0, 0, 0, false, 0);
        /** The levels {@code compress_level=} takes: zstd's fast ones from -7 up to 19 (20-22 need far more memory). */
        public static final int MIN_LEVEL = -7, MAX_LEVEL = 19;
        /** The most bytes {@code compress_cache=} keeps: 64 MiB. */
        public static final int MAX_CACHE = 64 << 20;
        /** The block sizes {@code compress_block=} takes: 0 (each value its own frame) up to 1 MiB. */
        public static final int MAX_BLOCK = 1 << 20;
        /** The largest dictionary {@code compress_dict=} trains: 16 MiB. */
        public static final int MAX_DICTIONARY = 16 << 20;
        /** The smallest: 1 KiB (zstd's trainer needs room for its entropy tables). */
        public static final int MIN_DICTIONARY = 1 << 10;

        /**
         * @param block with {@code compress_block=SIZE}: long values are packed, in the order their partition stores
         *              them, into blocks of about this many raw bytes, each block one zstd frame
         *              ({@link BlockOverflow}); 0: each value its own frame
         * @param cache with {@code compress_cache=SIZE}: the values last read out of line, decompressed, kept beside
         *              the pool up to this many bytes (least recently read dropped first), so that a read of one of
         *              them decompresses nothing and reads no overflow page; 0: none
         * @param dictionary with {@code compress_dict=SIZE}: the zstd dictionary trained for each compressed long column
         *              at the split has this many bytes, and its memory is taken from the buffer pool's (as the
         *              cache's); 0: zstd's default size (110 KiB), kept beside the pool
         * @param content with {@code compress_dict_kind=content}: the dictionary is not trained by zstd's trainer but
         *              made of the sampled values' own bytes, each run of bytes the dictionary does not hold yet
         *              appended once, up to {@code dictionary} bytes ({@link ContentDictionary}): a raw-content
         *              dictionary, so a value that repeats what other values hold becomes a few long references
         * @param level with {@code compress_level=N}: zstd's level for every frame of this table (single values and
         *              blocks, with a dictionary or without); 0: the engine's defaults, {@link Table#ZSTD_LEVEL} without
         *              a dictionary and {@link Table#ZSTD_DICTIONARY_LEVEL} with one. A lower level writes faster
         *              (every insert and move of a compressed value pays it) and makes longer frames (each read
         *              decodes more bytes, and the pages hold more)
         */
        public Compress {
            columns = List.copyOf(columns);
            if (block < 0 || block > MAX_BLOCK)
                throw new IllegalArgumentException("compress_block=" + block + ": expected 0 to 1m bytes");
            if (cache < 0 || cache > MAX_CACHE)
                throw new IllegalArgumentException("compress_cache=" + cache + ": expected 0 to 64m bytes");
            if (dictionary != 0 && (dictionary < MIN_DICTIONARY || dictionary > MAX_DICTIONARY))
                throw new IllegalArgumentException(
                        "compress_dict=" + dictionary + ": expected 0 (the default) or 1k to 16m bytes");
            if (level < MIN_LEVEL || level > MAX_LEVEL)
                throw new IllegalArgumentException(
                        "compress_level=" + level + ": expected 0 (the defaults) or " + MIN_LEVEL + " to " + MAX_LEVEL);
        }

        public Compress withBlock(int b) {
            return new Compress(mode, columns, b, cache, dictionary, content, level);
        }

        public Compress withCache(int bytes) {
            return new Compress(mode, columns, block, bytes, dictionary, content, level);
        }

        public Compress withDictionary(int bytes) {
            return new Compress(mode, columns, block, cache, bytes, content, level);
        }

        public Compress withContent(boolean c) {
            return new Compress(mode, columns, block, cache, dictionary, c, level);
        }

        public Compress withLevel(int l) {
            return new Compress(mode, columns, block, cache, dictionary, content, l);
        }

        public boolean none() {
            return mode.equals("none");
        }

        public String label() {
            return mode.equals("columns") ? String.join("+", columns) : mode;
        }

        /** Whether column {@code name}, which may overflow when {@code long}, is compressed. */
        public boolean covers(String name, boolean large) {
            return switch (mode) {
                case "large" -> large;
                case "columns" -> columns.stream().anyMatch(c -> c.equalsIgnoreCase(name));
                default -> false;
            };
        }

        static Compress parse(String v, Compress was) {
            String s = v.trim().toLowerCase(Locale.ROOT);
            return switch (s) {
                case "none", "off" ->
                    NONE.withBlock(was.block)
                            .withCache(was.cache)
                            .withDictionary(was.dictionary)
                            .withContent(was.content)
                            .withLevel(was.level);
                case "large", "on" ->
                    LARGE.withBlock(was.block)
                            .withCache(was.cache)
                            .withDictionary(was.dictionary)
                            .withContent(was.content)
                            .withLevel(was.level);
                default -> {
                    List<String> cols = new ArrayList<>();
                    for (String c : v.split("\\+")) if (!c.isBlank()) cols.add(c.trim());
                    if (cols.isEmpty())
                        throw new IllegalArgumentException("compress=" + v + ": expected none, large or COL+COL");
                    yield new Compress("columns", cols, was.block, was.cache, was.dictionary, was.content, was.level);
                }
            };
        }
    }

    /** Whether {@code key} is one of the keys {@link #with} takes. */
    public static boolean isKey(String key) {
        return switch (key) {
            case "layout",
                    "cache",
                    "cache_size",
                    "cluster",
                    "tight",
                    "split",
                    "demote_after",
                    "promote",
                    "hot",
                    "compress",
                    "compress_block",
                    "compress_cache",
                    "compress_dict",
                    "compress_dict_kind",
                    "compress_level",
                    "id" -> true;
            default -> false;
        };
    }

    /** This design with one {@code --config} key changed; IllegalArgumentException with a message a user can act on. */
    public TableDesign with(String key, String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        Layout l = layout;
        CachePolicy c = cache;
        double size = cacheSize, fraction = clusterFraction;
        boolean part = partition, refs = byReference;
        Set<TightClass> t = tight;
        Split sp = split;
        Compress cz = compress;
        boolean implicit = implicitId;
        long demote = demoteAfter;
        int promote = promoteAfter;
        switch (key) {
            case "layout" ->
                l = switch (v) {
                    case "nsm" -> Layout.NSM;
                    case "pax" -> Layout.PAX;
                    case "hpl" -> Layout.HPL;
                    case "arrow" -> Layout.ARROW;
                    default ->
                        throw new IllegalArgumentException("layout=" + value + ": expected nsm, pax, hpl or arrow");
                };
            case "cache" ->
                c = switch (v) {
                    case "off" -> CachePolicy.OFF;
                    case "swap" -> CachePolicy.SWAP;
                    case "shrink" -> CachePolicy.SHRINK;
                    default -> throw new IllegalArgumentException("cache=" + value + ": expected off, swap or shrink");
                };
            case "cache_size" -> size = fraction("cache_size", v);
            case "cluster" -> {
                part = v.equals("partition");
                fraction = v.equals("none") || part ? 0 : fraction("cluster", v);
            }
            case "tight" -> t = tightClasses(value);
            case "split" -> sp = Split.parse(value);
            case "compress" -> cz = Compress.parse(value, cz);
            case "compress_block" -> cz = cz.withBlock(blockSize(v));
            case "compress_cache" -> cz = cz.withCache(cacheBytes(v));
            case "compress_dict" -> cz = cz.withDictionary(dictionaryBytes(v));
            case "compress_dict_kind" ->
                cz = cz.withContent(
                        switch (v) {
                            case "trained" -> false;
                            case "content" -> true;
                            default ->
                                throw new IllegalArgumentException(
                                        "compress_dict_kind=" + value + ": expected trained or content");
                        });
            case "compress_level" -> cz = cz.withLevel(level(v));
            case "demote_after" -> demote = count("demote_after", v);
            case "promote" -> promote = (int) Math.min(Integer.MAX_VALUE, count("promote", v));
            case "hot" ->
                refs = switch (v) {
                    case "read" -> false;
                    case "refs" -> true;
                    default -> throw new IllegalArgumentException("hot=" + value + ": expected read or refs");
                };
            case "id" ->
                implicit = switch (v) {
                    case "stored", "off" -> false;
                    case "implicit", "on" -> true;
                    default -> throw new IllegalArgumentException("id=" + value + ": expected stored or implicit");
                };
            default -> throw new IllegalArgumentException("--config key '" + key + "': expected one of " + KEYS);
        }
        return new TableDesign(l, c, size, fraction, part, t, sp, demote, promote, refs, cz, implicit);
    }

    /** The keys {@link #with} takes, for messages. */
    public static final String KEYS =
            "layout, cache, cache_size, cluster, tight, split, demote_after, promote, hot, compress, compress_block, compress_cache, compress_dict, compress_dict_kind, compress_level, id";

    public TableDesign withLayout(Layout l) {
        return new TableDesign(
                l,
                cache,
                cacheSize,
                clusterFraction,
                partition,
                tight,
                split,
                demoteAfter,
                promoteAfter,
                byReference,
                compress,
                implicitId);
    }

    public TableDesign withSplit(Split s) {
        return new TableDesign(
                layout,
                cache,
                cacheSize,
                clusterFraction,
                partition,
                tight,
                s,
                demoteAfter,
                promoteAfter,
                byReference,
                compress,
                implicitId);
    }

    /** {@code on} (every class), {@code off}, or classes joined by {@code +}: {@code int+dict}. */
    static Set<TightClass> tightClasses(String value) {
        String v = value.trim().toLowerCase(Locale.ROOT);
        if (v.equals("on") || v.equals("true")) return EnumSet.allOf(TightClass.class);
        if (v.equals("off") || v.equals("false")) return EnumSet.noneOf(TightClass.class);
        Set<TightClass> out = EnumSet.noneOf(TightClass.class);
        for (String c : v.split("\\+")) {
            try {
                out.add(TightClass.valueOf(c.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "tight=" + value + ": expected on, off, or classes joined by + (int, dict, time, bool, bits)");
            }
        }
        return out;
    }

    private static double fraction(String key, String v) {
        try {
            double d =
                    v.endsWith("%") ? Double.parseDouble(v.substring(0, v.length() - 1)) / 100 : Double.parseDouble(v);
            if (d >= 0 && d <= 1) return d;
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw new IllegalArgumentException(key + "=" + v + ": expected a fraction from 0 to 1 (or a percentage)");
    }

    /** {@code compress_block=}'s size: bytes, or with a {@code k} suffix KiB; 0 for one frame per value. */
    private static int blockSize(String v) {
        try {
            long n = v.endsWith("k") || v.endsWith("kib")
                    ? Long.parseLong(v.substring(0, v.indexOf('k'))) << 10
                    : Long.parseLong(v);
            if (n >= 0 && n <= Compress.MAX_BLOCK) return (int) n;
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw new IllegalArgumentException(
                "compress_block=" + v + ": expected a size from 0 (one frame per value) to 1024k, such as 16k");
    }

    /** A size in bytes, or with a {@code k} or {@code m} suffix KiB or MiB; -1 when it is not a number or too large. */
    private static long size(String v) {
        try {
            int unit = v.endsWith("k") ? 10 : v.endsWith("m") ? 20 : 0;
            long n = Long.parseLong(unit == 0 ? v : v.substring(0, v.length() - 1));
            return n < 0 || n > (1L << 40) ? -1 : n << unit;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** {@code compress_level=}'s level: an integer, 0 for the engine's defaults. */
    private static int level(String v) {
        try {
            int l = Integer.parseInt(v);
            if (l >= Compress.MIN_LEVEL && l <= Compress.MAX_LEVEL) return l;
        } catch (NumberFormatException ignored) {
            // the message below says what was expected
        }
        throw new IllegalArgumentException("compress_level=" + v + ": expected 0 (the defaults: 3, and 9 with a "
                + "dictionary) or zstd's level from " + Compress.MIN_LEVEL + " to " + Compress.MAX_LEVEL
                + ", such as 3");
    }

    /** {@code compress_cache=}'s size: bytes, or with a {@code k} or {@code m} suffix KiB or MiB; 0 for none. */
    private static int cacheBytes(String v) {
        long n = size(v);
        if (n >= 0 && n <= Compress.MAX_CACHE) return (int) n;
        throw new IllegalArgumentException(
                "compress_cache=" + v + ": expected a size from 0 (none) to 64m, such as 256k");
    }

    /** {@code compress_dict=}'s size: bytes, or with a {@code k} or {@code m} suffix KiB or MiB; 0 for the default. */
    private static int dictionaryBytes(String v) {
        long n = size(v);
        if (n == 0 || (n >= Compress.MIN_DICTIONARY && n <= Compress.MAX_DICTIONARY)) return (int) n;
        throw new IllegalArgumentException(
                "compress_dict=" + v + ": expected 0 (the default, 110 KiB) or a size from 1k to 16m, such as 1m");
    }

    private static long count(String key, String v) {
        try {
            long n = Long.parseLong(v);
            if (n >= 0) return n;
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw new IllegalArgumentException(key + "=" + v + ": expected a count (0 or more; 0 for never)");
    }

    /** The tight classes as {@code tight=} writes them: {@code off}, {@code on}, or {@code int+dict}. */
    public String tightLabel() {
        if (tight.isEmpty()) return "off";
        if (tight.size() == TightClass.values().length) return "on";
        StringBuilder b = new StringBuilder();
        for (TightClass c : tight) b.append(b.length() == 0 ? "" : "+").append(c.label());
        return b.toString();
    }

    public String clusterLabel() {
        return partition ? "partition" : clusterFraction > 0 ? trim(clusterFraction) : "none";
    }

    /**
     * Every key {@link #with} takes and its value here, in {@link #describe}'s order, those it leaves out
     * (their defaults) included: what a table's settings must spell out when they sit on top of a shared
     * design that sets them otherwise.
     */
    public LinkedHashMap<String, String> settings() {
        LinkedHashMap<String, String> m = new LinkedHashMap<>();
        m.put("layout", layout.name().toLowerCase(Locale.ROOT));
        m.put("cache", cache.name().toLowerCase(Locale.ROOT));
        m.put("cache_size", trim(cacheSize));
        m.put("cluster", clusterLabel());
        m.put("demote_after", String.valueOf(demoteAfter));
        m.put("promote", String.valueOf(promoteAfter));
        m.put("hot", byReference ? "refs" : "read");
        m.put("tight", tightLabel());
        m.put("split", split.label());
        m.put("compress", compress.label());
        m.put("compress_block", String.valueOf(compress.block()));
        m.put("compress_cache", String.valueOf(compress.cache()));
        m.put("compress_dict", String.valueOf(compress.dictionary()));
        m.put("compress_dict_kind", compress.content() ? "content" : "trained");
        m.put("compress_level", String.valueOf(compress.level()));
        m.put("id", implicitId ? "implicit" : "stored");
        return m;
    }

    /** Every setting as {@code --config} keys, in a fixed order (the same design always reads the same). */
    public String describe() {
        StringBuilder b = new StringBuilder();
        b.append("layout=").append(layout.name().toLowerCase(Locale.ROOT));
        b.append(",cache=").append(cache.name().toLowerCase(Locale.ROOT));
        if (cache != CachePolicy.OFF) b.append(",cache_size=").append(trim(cacheSize));
        b.append(",cluster=").append(clusterLabel());
        if (partition && demoteAfter > 0) b.append(",demote_after=").append(demoteAfter);
        if (partition && promoteAfter > 0) b.append(",promote=").append(promoteAfter);
        if (partition && byReference) b.append(",hot=refs");
        b.append(",tight=").append(tightLabel());
        if (!split.none()) b.append(",split=").append(split.label());
        if (!compress.none()) b.append(",compress=").append(compress.label());
        if (!compress.none() && compress.block() > 0)
            b.append(",compress_block=").append(compress.block());
        if (!compress.none() && compress.cache() > 0)
            b.append(",compress_cache=").append(compress.cache());
        if (!compress.none() && compress.dictionary() > 0)
            b.append(",compress_dict=").append(compress.dictionary());
        if (!compress.none() && compress.content()) b.append(",compress_dict_kind=content");
        if (!compress.none() && compress.level() != 0)
            b.append(",compress_level=").append(compress.level());
        if (implicitId) b.append(",id=implicit");
        return b.toString();
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
