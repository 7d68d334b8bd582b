package dev.wastecheck.replay;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.CachedField;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexCacheAdvice;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.engine.table.ColumnCodec;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.TableDesign.TightClass;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.schema.TypeParser;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedTable;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How a source table becomes an engine table: each column's field type (as declared, or as the
 * analyzer's suggested tight type), which columns may overflow a page, and the indexes with the
 * fields their index cache keeps.
 *
 * <p>Declared types map to the field of the same width: TINYINT to one byte, INT to four, an
 * UNSIGNED type to the unsigned field of its width (MEDIUMINT UNSIGNED to four bytes), BIGINT to
 * eight (a BIGINT UNSIGNED value above 2^63 - 1 is refused with a message). Every
 * other type (strings, binary strings, DECIMAL and floating-point text, dates) stays a
 * variable-length field holding the value's bytes exactly as the source wrote them, so a replay
 * returns what the source holds.
 *
 * <p>Tight types take the analyzer's suggestion only where the engine can store it exactly and print
 * it back identically, by class ({@link TightClass}, {@code tight=int+dict+time+bool}):
 * <ul>
 *   <li>{@code int}: narrower integers (with the analyzer's headroom), and strings of digits stored
 *       as the integer they spell (a 14-digit timestamp as 8 bytes, when {@code time} is off);</li>
 *   <li>{@code dict}: strings the analyzer finds constant or of low cardinality, and ENUMs, as a
 *       1- or 2-byte code into a dictionary ({@link ColumnCodec.Dictionary});</li>
 *   <li>{@code time}: timestamps held in strings (MediaWiki's {@code binary(14)}) as seconds in
 *       4 bytes (8 past 2100), dates as days in 2 bytes (4 outside 1970..2100)
 *       ({@link ColumnCodec.Timestamp}, {@link ColumnCodec.Date});</li>
 *   <li>{@code bool}: {@code tinyint(1)}, {@code bit(1)} and suggested BOOLEANs holding only 0 and 1, as one bit.</li>
 * </ul>
 * A value that does not fit its tight field stops the load with the table, column, row and value.
 */
public final class EngineSchemas {
    private EngineSchemas() {}

    /** Kept for callers with an analysis report: tight types all or nothing, cache fields from the report. */
    public static TableSpec spec(
            LoadedTable t,
            Map<String, long[]> maxLengths,
            AnalysisReport report,
            Dialect dialect,
            boolean tight,
            int pageSize) {
        TableReport tr = null;
        if (report != null) {
            try {
                tr = report.table(t.def().name());
            } catch (IllegalArgumentException e) {
                tr = null;
            }
        }
        return spec(
                t,
                maxLengths,
                tr,
                cacheFieldsOf(report, t.def().name()),
                dialect,
                tight ? EnumSet.allOf(TightClass.class) : EnumSet.noneOf(TightClass.class),
                pageSize);
    }

    /**
     * @param maxLengths  per table (lower-case name), the longest value in bytes of each column (-1 for non-strings)
     * @param tr          the analyzer's report on this table (for tight types), or null
     * @param cacheFields per index (lower-case name), the fields its cache keeps, most useful first
     * @param tight       the classes of tight types to apply
     */
    public static TableSpec spec(
            LoadedTable t,
            Map<String, long[]> maxLengths,
            TableReport tr,
            Map<String, List<String>> cacheFields,
            Dialect dialect,
            Set<TightClass> tight,
            int pageSize) {
        String key = t.def().name().toLowerCase(Locale.ROOT);
        long[] lengths = maxLengths.get(key);
        List<ColumnSpec> cols = new ArrayList<>();
        for (int i = 0; i < t.def().columns().size(); i++) {
            ColumnDef c = t.def().columns().get(i);
            FieldType type = declared(c.type(), t.storage()[i]);
            boolean nullable = c.nullable() || c.type().family() == TypeFamily.OTHER;
            ColumnCodec codec = null;
            int bits = 0;
            if (!tight.isEmpty() && tr != null) {
                ColumnReport cr = tr.columns().stream()
                        .filter(x -> x.name().equalsIgnoreCase(c.name()))
                        .findFirst()
                        .orElse(null);
                if (cr != null) {
                    codec = codec(cr, c.type(), type, tight);
                    if (codec != null) type = codec.field();
                    else type = tight(cr, c.type(), type, dialect, tight);
                    if (codec instanceof ColumnCodec.Dictionary d) bits = d.bits();
                    else if (codec == null) bits = subByteBits(cr, type, tight);
                    // 0 to 63 (an INT8's values fit the unsigned field) or a boolean; NOT NULL ones are packed
                    if (bits > 0 && (type != FieldType.BIT || !nullable)) type = FieldType.UINT8;
                    else if (type == FieldType.BIT) bits = 0; // a nullable boolean stays the page's own bit
                }
            }
            long maxLen = lengths == null ? -1 : lengths[i];
            boolean overflow = type == FieldType.VARLEN && maxLen >= Math.max(18, pageSize / 16);
            cols.add(new ColumnSpec(c.name(), type, nullable, overflow, codec, bits));
        }
        List<IndexSpec> indexes = new ArrayList<>();
        if (!t.def().primaryKey().isEmpty()) {
            indexes.add(new IndexSpec(
                    IndexSpec.PRIMARY,
                    t.def().primaryKey(),
                    true,
                    cacheFields.getOrDefault(IndexSpec.PRIMARY.toLowerCase(Locale.ROOT), List.of())));
        }
        for (IndexDef ix : t.def().indexes()) {
            if (ix.name().equalsIgnoreCase(IndexSpec.PRIMARY)) continue;
            indexes.add(new IndexSpec(
                    ix.name(),
                    ix.columns(),
                    ix.unique(),
                    cacheFields.getOrDefault(ix.name().toLowerCase(Locale.ROOT), List.of())));
        }
        return new TableSpec(t.def().name(), cols, indexes);
    }

    /**
     * The user's cache fields ({@code --cache-fields}, keyed "table.index" in lower case) in place
     * of the analyzer's; indexes the user does not name cache nothing.
     */
    public static TableSpec withCacheFields(TableSpec spec, Map<String, List<String>> chosen) {
        List<IndexSpec> out = new ArrayList<>();
        for (IndexSpec ix : spec.indexes()) {
            List<String> f = chosen.get((spec.name() + "." + ix.name()).toLowerCase(Locale.ROOT));
            out.add(ix.withCacheFields(f == null ? List.of() : f));
        }
        return new TableSpec(spec.name(), spec.columns(), out);
    }

    /** The analyzer's ranking for each index of a table (lower-case index name), most useful first. */
    static Map<String, List<String>> cacheFieldsOf(AnalysisReport report, String table) {
        Map<String, List<String>> out = new HashMap<>();
        if (report == null || report.workload() == null) return out;
        return cacheFieldsOf(report.workload().indexes(), table);
    }

    /** The ranking of the given advice for each index of a table (lower-case index name). */
    public static Map<String, List<String>> cacheFieldsOf(List<IndexCacheAdvice> advice, String table) {
        Map<String, List<String>> out = new HashMap<>();
        for (IndexCacheAdvice a : advice) {
            if (a.table().equalsIgnoreCase(table)) {
                out.put(
                        a.index().toLowerCase(Locale.ROOT),
                        a.cacheableFields().stream().map(CachedField::column).toList());
            }
        }
        return out;
    }

    /** The field of a declared type's width; VARLEN for everything that is not an integer the loader parsed. */
    static FieldType declared(SqlType type, ColumnStorage storage) {
        if (storage != ColumnStorage.INT64 || type.family() != TypeFamily.INTEGER) return FieldType.VARLEN;
        return integerField(type.intBits(), type.unsigned());
    }

    /** The narrowest field holding every value of a {@code bits}-bit integer type. */
    private static FieldType integerField(int bits, boolean unsigned) {
        if (unsigned && bits <= 32)
            return bits <= 8 ? FieldType.UINT8 : bits <= 16 ? FieldType.UINT16 : FieldType.UINT32;
        return bits <= 8
                ? FieldType.INT8
                : bits <= 16 ? FieldType.INT16 : bits <= 32 ? FieldType.INT32 : FieldType.INT64;
    }

    /** A codec for a text column the {@code dict} or {@code time} class covers, or null. */
    static ColumnCodec codec(ColumnReport cr, SqlType declared, FieldType field, Set<TightClass> tight) {
        if (field != FieldType.VARLEN) return null;
        if (tight.contains(TightClass.TIME) && cr.min() != null && cr.max() != null) {
            if (cr.has(FindingKind.STRING_HOLDS_TIMESTAMP)
                    || declared.family() == TypeFamily.TIMESTAMP
                    || declared.family() == TypeFamily.DATETIME) {
                ColumnCodec c = ColumnCodec.Timestamp.forRange(cr.min(), cr.max());
                if (c != null) return c;
            }
            if (cr.has(FindingKind.STRING_HOLDS_DATE) || declared.family() == TypeFamily.DATE) {
                ColumnCodec c = ColumnCodec.Date.forRange(cr.min(), cr.max());
                if (c != null) return c;
            }
        }
        if (tight.contains(TightClass.DICT)
                && !cr.has(FindingKind.ALL_NULL)
                && (cr.has(FindingKind.LOW_CARDINALITY)
                        || cr.has(FindingKind.CONSTANT)
                        || declared.family() == TypeFamily.ENUM)) {
            long distinct = declared.family() == TypeFamily.ENUM
                    ? Math.max(cr.distinct(), declared.enumValues().size())
                    : cr.distinct();
            if (distinct <= 32_767)
                return ColumnCodec.Dictionary.forDistinct(distinct, tight.contains(TightClass.BITS));
        }
        return null;
    }

    /** The analyzer's suggestion as a plain field, when storing it is exact and its class is on; else {@code fallback}. */
    static FieldType tight(ColumnReport cr, SqlType declared, FieldType fallback, Dialect dialect) {
        return tight(cr, declared, fallback, dialect, EnumSet.allOf(TightClass.class));
    }

    static FieldType tight(
            ColumnReport cr, SqlType declared, FieldType fallback, Dialect dialect, Set<TightClass> classes) {
        Long min = parse(cr.min()), max = parse(cr.max());
        if (min == null || max == null) return fallback; // all NULL or not integers: nothing narrower is proven
        if (classes.contains(TightClass.BOOL)
                && fallback != FieldType.VARLEN
                && min >= 0
                && max <= 1
                && booleanDeclared(declared)) {
            return FieldType.BIT;
        }
        boolean stringOfDigits = declared.family().isString()
                && (cr.has(FindingKind.STRING_HOLDS_INTEGER) || cr.has(FindingKind.STRING_HOLDS_TIMESTAMP));
        // a BIGINT UNSIGNED loads as text (its range passes INT64's); its values, proven in range, narrow like any
        // integer's
        boolean integerAsText = fallback == FieldType.VARLEN && declared.family() == TypeFamily.INTEGER;
        if (fallback != FieldType.VARLEN || stringOfDigits || integerAsText) {
            SqlType s;
            try {
                s = TypeParser.parse(cr.suggestedType(), dialect);
            } catch (RuntimeException e) {
                return fallback;
            }
            FieldType t;
            if (s.family() == TypeFamily.INTEGER && classes.contains(TightClass.INT)) {
                t = integerField(s.intBits(), s.unsigned());
            } else if (s.family() == TypeFamily.BOOLEAN && min >= 0 && max <= 1 && classes.contains(TightClass.BOOL)) {
                t = FieldType.BIT;
            } else if (stringOfDigits && classes.contains(TightClass.INT)) {
                t = FieldType.INT64; // a timestamp's digits as one integer: 8 bytes, printed back identically
            } else {
                return fallback;
            }
            if (!t.fits(min) || !t.fits(max)) return fallback;
            if (fallback != FieldType.VARLEN && fallback.width < Math.max(1, t.width)) return fallback; // never wider
            return t;
        }
        return fallback;
    }

    /**
     * The bits of a sub-byte field (class {@code bits}): for a boolean ({@link FieldType#BIT}) 1, so
     * that it packs with the record's other sub-byte fields; for an integer column the analyzer
     * narrowed to one byte whose values are 0 to {@code max}, the fewest bits that hold twice the
     * largest value (the analyzer's headroom for an ordinary integer,
     * InferenceOptions.DEFAULT_HEADROOM), 1 to 7; 0 when the range does not allow it (a negative
     * value, a value past 63, or a field wider than a byte).
     */
    static int subByteBits(ColumnReport cr, FieldType type, Set<TightClass> classes) {
        if (!classes.contains(TightClass.BITS)) return 0;
        if (type == FieldType.BIT) return 1; // a boolean packs with the record's other sub-byte fields
        if (type != FieldType.UINT8 && type != FieldType.INT8) return 0;
        Long min = parse(cr.min()), max = parse(cr.max());
        if (min == null || max == null || min < 0 || max > 63) return 0;
        return Math.max(1, 64 - Long.numberOfLeadingZeros(2 * max + 1));
    }

    /** MySQL's BOOLEAN is {@code tinyint(1)}; {@code bit(1)} and SQL's BOOLEAN say the same. */
    private static boolean booleanDeclared(SqlType declared) {
        String d = declared.declared().toLowerCase(Locale.ROOT).replace(" ", "");
        return declared.family() == TypeFamily.BOOLEAN
                || d.startsWith("tinyint(1)")
                || d.equals("bit(1)")
                || d.equals("bool");
    }

    private static Long parse(String s) {
        if (s == null) return null;
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
