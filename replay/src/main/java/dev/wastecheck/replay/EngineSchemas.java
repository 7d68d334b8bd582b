package dev.wastecheck.replay;

import dev.wastecheck.analyzer.load.ColumnStorage;
import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.CachedField;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexCacheAdvice;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.schema.TypeParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;


/**
 * How a source table becomes an engine table: each column's field type (as declared, or as the
 * analyzer's suggested tight type), which columns may overflow a page, and the indexes with the
 * fields the analyzer ranks for their index cache.
 *
 * <p>Declared types map to the field of the same width: TINYINT to one byte, INT to four, an
 * UNSIGNED type to the unsigned field of its width (MEDIUMINT UNSIGNED to four bytes), BIGINT to
 * eight (a BIGINT UNSIGNED value above 2^63 - 1 is refused with a message). Every
 * other type (strings, binary strings, DECIMAL and floating-point text, dates) stays a
 * variable-length field holding the value's bytes exactly as the source wrote them, so a replay
 * returns what the source holds.
 *
 * <p>Tight types ({@code tight=on}) take the analyzer's suggestion only where the engine can store
 * it exactly and print it back identically: narrower integers (including the analyzer's headroom),
 * and strings that hold integers or MediaWiki's 14-digit timestamps, stored as the integer their
 * digits spell. ENUMs, dates in strings and other suggestions keep the declared mapping: the
 * engine has no dictionary or date field, and a conversion it cannot print back would change
 * what a query returns.
 */
public final class EngineSchemas {
    private EngineSchemas() {}

    /**
     * @param maxLengths  per table (lower-case name), the longest value in bytes of each column (-1 for non-strings)
     * @param report      the analyzer's report (for tight types and cache fields), or null
     */
    public static TableSpec spec(LoadedTable t, Map<String, long[]> maxLengths, AnalysisReport report, Dialect dialect, boolean tight,
                                 int pageSize) {
        String key = t.def().name().toLowerCase(Locale.ROOT);
        TableReport tr = report == null ? null : report.table(t.def().name());
        long[] lengths = maxLengths.get(key);
        List<ColumnSpec> cols = new ArrayList<>();
        for (int i = 0; i < t.def().columns().size(); i++) {
            ColumnDef c = t.def().columns().get(i);
            FieldType type = declared(c.type(), t.storage()[i]);
            if (tight && tr != null) {
                ColumnReport cr = tr.columns().stream().filter(x -> x.name().equalsIgnoreCase(c.name())).findFirst().orElse(null);
                if (cr != null) type = tight(cr, c.type(), type, dialect);
            }
            long maxLen = lengths == null ? -1 : lengths[i];
            boolean overflow = type == FieldType.VARLEN && maxLen >= Math.max(18, pageSize / 16);
            cols.add(new ColumnSpec(c.name(), type, c.nullable() || c.type().family() == TypeFamily.OTHER, overflow));
        }
        List<IndexSpec> indexes = new ArrayList<>();
        if (!t.def().primaryKey().isEmpty()) {
            indexes.add(new IndexSpec(IndexSpec.PRIMARY, t.def().primaryKey(), true, cacheFields(report, t.def().name(), IndexSpec.PRIMARY)));
        }
        for (IndexDef ix : t.def().indexes()) {
            if (ix.name().equalsIgnoreCase(IndexSpec.PRIMARY)) continue;
            indexes.add(new IndexSpec(ix.name(), ix.columns(), ix.unique(), cacheFields(report, t.def().name(), ix.name())));
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

    /** The analyzer's ranking for an index, most useful first. */
    private static List<String> cacheFields(AnalysisReport report, String table, String index) {
        if (report == null || report.workload() == null) return List.of();
        for (IndexCacheAdvice a : report.workload().indexes()) {
            if (a.table().equalsIgnoreCase(table) && a.index().equalsIgnoreCase(index)) {
                return a.cacheableFields().stream().map(CachedField::column).toList();
            }
        }
        return List.of();
    }

    /** The field of a declared type's width; VARLEN for everything that is not an integer the loader parsed. */
    static FieldType declared(SqlType type, ColumnStorage storage) {
        if (storage != ColumnStorage.INT64 || type.family() != TypeFamily.INTEGER) return FieldType.VARLEN;
        return integerField(type.intBits(), type.unsigned());
    }

    /** The narrowest field holding every value of a {@code bits}-bit integer type. */
    private static FieldType integerField(int bits, boolean unsigned) {
        if (unsigned && bits <= 32) return bits <= 8 ? FieldType.UINT8 : bits <= 16 ? FieldType.UINT16 : FieldType.UINT32;
        return bits <= 8 ? FieldType.INT8 : bits <= 16 ? FieldType.INT16 : bits <= 32 ? FieldType.INT32 : FieldType.INT64;
    }

    /** The analyzer's suggestion as a field, when storing it is exact; else {@code fallback}. */
    static FieldType tight(ColumnReport cr, SqlType declared, FieldType fallback, Dialect dialect) {
        Long min = parse(cr.min()), max = parse(cr.max());
        if (min == null || max == null) return fallback; // all NULL or not integers: nothing narrower is proven
        boolean stringOfDigits = declared.family().isString()
                && (cr.has(FindingKind.STRING_HOLDS_INTEGER) || cr.has(FindingKind.STRING_HOLDS_TIMESTAMP));
        if (fallback != FieldType.VARLEN || stringOfDigits) {
            SqlType s;
            try {
                s = TypeParser.parse(cr.suggestedType(), dialect);
            } catch (RuntimeException e) {
                return fallback;
            }
            FieldType t;
            if (s.family() == TypeFamily.INTEGER) {
                t = integerField(s.intBits(), s.unsigned());
            } else if (s.family() == TypeFamily.BOOLEAN && min >= 0 && max <= 1) {
                t = FieldType.BIT;
            } else if (stringOfDigits) {
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

    private static Long parse(String s) {
        if (s == null) return null;
        try {
            return Long.parseLong(s.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
