package dev.wastecheck.analyzer.infer;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.Reference;
import dev.wastecheck.analyzer.storage.StorageModel;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.sql.IsoTimestamps;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The tightest lossless type for a column, from its exact profile ("No Bits Left Behind" §4.1:
 * encoding waste). The rules, in the order they are tried, and why each is lossless, are in
 * docs/analyze.md. The one invariant: a suggestion never loses or changes a value. Where a
 * narrower type would, the declared type stays and a finding says why.
 */
public final class TypeInference {
    /** MySQL TIMESTAMP holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC only. */
    private static final String MYSQL_TIMESTAMP_MIN = "19700101000001";

    private static final String MYSQL_TIMESTAMP_MAX = "20380119031407";

    private final Dialect dialect;
    private final InferenceOptions options;
    private final DialectTypes types;
    private final StorageModel model;

    public TypeInference(Dialect dialect, InferenceOptions options) {
        this.dialect = dialect;
        this.options = options;
        this.types = new DialectTypes(dialect);
        this.model = new StorageModel(dialect);
    }

    public StorageModel model() {
        return model;
    }

    /**
     * A candidate: the type to suggest, its bytes, and the finding that explains it.
     *
     * @param together taken even when it saves no byte: a column of a group with no rows of its own
     *                 takes the group's type, so that the key, its references or the domain stay one type
     */
    private record Choice(String type, long bytes, Finding finding, boolean together) {
        Choice(String type, long bytes, Finding finding) {
            this(type, bytes, finding, false);
        }
    }

    /**
     * What the rest of the schema says about a column: the verdict of the integer group it belongs
     * to (a key with its references, a domain), the key it refers to, and whether it is part of a
     * key (never an ENUM).
     *
     * @param verdict   for integer keys, references, identifiers and domains; null for other columns
     * @param reference the key this column refers to, or null
     * @param keyPart   in a primary, unique or foreign key
     */
    public record Context(IntegerPolicy.Verdict verdict, Reference reference, boolean keyPart) {
        public static final Context NONE = new Context(null, null, false);
    }

    /**
     * @param enumValues the column's distinct values when there are at most {@code enumMax} of them
     *                   and they are safe as ENUM members (no trailing spaces, no case-only duplicates), else null
     */
    public ColumnReport infer(TableDef table, ColumnDef col, ColumnProfile p, List<String> enumValues) {
        return infer(table, col, p, enumValues, lone(table, col, p));
    }

    /**
     * The context of a column seen alone: a key or an identifier decided by its own values (no
     * references, no growth rate), for callers without the whole schema.
     */
    private Context lone(TableDef table, ColumnDef col, ColumnProfile p) {
        if (!col.type().isInteger() || !(isKey(col, table) || ColumnNames.isIdName(col.name()))) {
            return new Context(null, null, isKey(col, table));
        }
        LoadedTable t = new LoadedTable(
                table, null, p.rows, new ColumnStorage[table.columns().size()]);
        List<ColumnProfile> ps = new ArrayList<>();
        for (ColumnDef c : table.columns()) {
            ps.add(c == col ? p : new ColumnProfile());
        }
        References none = References.none();
        Map<String, IntegerPolicy.Verdict> v =
                new IntegerPolicy(dialect, options).decide(none, List.of(t), Map.of(table.key(), ps), Map.of());
        return new Context(v.get((table.name() + "." + col.name()).toLowerCase(Locale.ROOT)), null, isKey(col, table));
    }

    public ColumnReport infer(TableDef table, ColumnDef col, ColumnProfile p, List<String> enumValues, Context ctx) {
        long declared = model.declaredBytes(table, col, p);
        List<Finding> findings = new ArrayList<>();
        SqlType t = col.type();
        // Observations, not advice: a column empty or constant in a snapshot may be a feature not
        // used yet, or an audit column every row writes (last_update); dropping it is the owner's call.
        if (p.allNull()) {
            findings.add(new Finding(FindingKind.ALL_NULL, "all " + p.rows + " rows are NULL in this snapshot", 0));
        } else if (p.constant() && p.rows > 1) {
            findings.add(new Finding(
                    FindingKind.CONSTANT,
                    "every one of the " + p.rows + " rows holds " + show(p) + " in this snapshot",
                    0));
        }
        // An array holds a list, not one value: no scalar type replaces it (its text form may have
        // few distinct values, but an ENUM of them would lose = ANY, unnest and the element type).
        boolean array = t.declared().endsWith("]");
        Choice choice = array
                ? null
                : p.nonNull == 0
                        ? (t.isInteger() ? emptyMember(col, ctx) : null)
                        : switch (t.family()) {
                            case INTEGER -> integer(table, col, p, declared, ctx);
                            case DECIMAL -> decimal(col, p, declared);
                            case FLOAT, DOUBLE -> floating(col, p, declared);
                            case DATETIME, TIMESTAMP -> dateOnly(col, p, declared);
                            case CHAR, VARCHAR, TEXT, BINARY, VARBINARY, BLOB, OTHER ->
                                string(table, col, p, declared, enumValues, findings, ctx);
                            default -> null;
                        };
        String suggested = t.declared();
        long tight = declared;
        if (choice != null && choice.type() != null && (choice.bytes() < declared || choice.together())) {
            suggested = choice.type();
            tight = choice.bytes();
            findings.add(0, choice.finding());
        } else if (choice != null && choice.finding() != null && choice.bytes() >= declared && choice.type() == null) {
            findings.add(choice.finding()); // an observation that saves nothing
        }
        if (t.isInteger() && isImplicitId(col, table, p)) {
            findings.add(new Finding(
                    FindingKind.IMPLICIT_ID,
                    "values are exactly 1.." + p.rows
                            + ", one per row, in this snapshot (a key others may refer to: an observation, not advice to drop it)",
                    0));
        }
        if (ctx.reference() != null) {
            Reference r = ctx.reference();
            findings.add(new Finding(FindingKind.REFERENCES, "refers to " + r.to() + " (" + r.describe() + ")", 0));
        }
        return new ColumnReport(
                col.name(),
                t.declared(),
                suggested,
                declared,
                tight,
                p.nulls(),
                p.distinct,
                minOf(p, t),
                maxOf(p, t),
                findings,
                p.distinctEstimated);
    }

    // ------------------------------------------------------------------ integers

    private static boolean isKey(ColumnDef col, TableDef table) {
        return col.autoIncrement() || (table.primaryKey().size() == 1 && table.isPrimaryKeyColumn(col.name()));
    }

    private static boolean isImplicitId(ColumnDef col, TableDef table, ColumnProfile p) {
        return isKey(col, table)
                && p.rows > 1
                && p.nonNull == p.rows
                && p.distinct == p.rows
                && p.minInt != null
                && p.minInt.equals(BigInteger.ONE)
                && p.maxInt.equals(BigInteger.valueOf(p.rows));
    }

    private static BigInteger grow(BigInteger v, double factor) {
        if (v == null) {
            return BigInteger.ZERO;
        }
        return new BigDecimal(v)
                .multiply(BigDecimal.valueOf(factor))
                .setScale(0, RoundingMode.UP)
                .toBigInteger();
    }

    private Choice integerChoice(
            BigInteger min,
            BigInteger max,
            double headroom,
            ColumnProfile p,
            FindingKind kind,
            String why,
            boolean preferUnsigned) {
        BigInteger lo = min.signum() < 0 ? grow(min, headroom).min(min) : min;
        BigInteger hi = max.signum() > 0 ? grow(max, headroom).max(max) : max;
        DialectTypes.IntegerType it = types.narrowestInteger(lo, hi, preferUnsigned);
        if (it == null) {
            return null;
        }
        long bytes = model.integerBytes(p, it.bytes(), min, max);
        String room = headroom > 1 ? String.format(" (room to grow x%s: up to %s)", trim(headroom), hi) : "";
        return new Choice(
                it.name(),
                bytes,
                new Finding(kind, why + ", min " + min + ", max " + max + room + ": " + it.name() + " holds them", 0));
    }

    /**
     * Whether an integer column that is neither a key, an identifier, a counter nor a namespace
     * would be narrowed by its own range (with evidence): only for those does it matter whether
     * its values all lie in some key ({@link References}, by values).
     */
    public boolean wouldNarrowAlone(References.Col c, ColumnProfile p) {
        ColumnDef col = c.def();
        if (!col.type().isInteger()
                || p.minInt == null
                || thin(p)
                || p.distinct < 2
                || ColumnNames.isIdName(col.name())
                || ColumnNames.isCounter(c.table().def().name(), col.name())
                || ColumnNames.isSize(col.name())
                || ColumnNames.isNamespace(col.name())) {
            return false;
        }
        BigInteger lo =
                p.minInt.signum() < 0 ? grow(p.minInt, options.headroom()).min(p.minInt) : p.minInt;
        BigInteger hi =
                p.maxInt.signum() > 0 ? grow(p.maxInt, options.headroom()).max(p.maxInt) : p.maxInt;
        DialectTypes.IntegerType it = types.narrowestInteger(lo, hi, col.type().unsigned());
        return it != null && it.bytes() * 8 < col.type().intBits();
    }

    /** A note that the declared type stays, and why. */
    private static Choice kept(long declared, String why) {
        return new Choice(null, declared, new Finding(FindingKind.KEPT_DECLARED, why, 0));
    }

    /** Whether too few values stand behind a column for its range or its patterns to decide a type. */
    private boolean thin(ColumnProfile p) {
        return p.nonNull < options.minRows();
    }

    private String thinWhy(ColumnProfile p) {
        return "too little evidence (" + p.nonNull + " values, fewer than --min-rows " + options.minRows()
                + "): kept as declared";
    }

    private Choice integer(TableDef table, ColumnDef col, ColumnProfile p, long declared, Context ctx) {
        if (p.castFailures > 0 || p.minInt == null) {
            return new Choice(
                    null,
                    declared,
                    new Finding(
                            FindingKind.TYPE_MISMATCH,
                            p.castFailures
                                    + " values are not integers although the column is declared "
                                    + col.type().declared()
                                    + ": kept as declared",
                            0));
        }
        // What the values alone would take, with ordinary headroom: a note says why a key, a
        // counter or a thin column does not take it.
        Choice plain = withSaving(
                integerChoice(
                        p.minInt,
                        p.maxInt,
                        options.headroom(),
                        p,
                        FindingKind.NARROW_INTEGER,
                        "all values are integers",
                        col.type().unsigned()),
                declared);
        IntegerPolicy.Verdict v = ctx.verdict();
        if (v != null) {
            if (v.keep()) {
                return plain == null || v.why().isEmpty() ? null : kept(declared, v.why());
            }
            int bits = v.bytes() * 8;
            if (bits >= col.type().intBits()) {
                return null; // declared as narrow already: it keeps its type, the group's width suits it
            }
            boolean unsigned = col.type().unsigned() && !v.signed();
            String name = types.integerName(v.bytes(), unsigned);
            Choice c = new Choice(
                    name,
                    model.integerBytes(p, v.bytes(), p.minInt, p.maxInt),
                    new Finding(FindingKind.NARROW_INTEGER, v.why(), 0));
            Choice serial = serialSpelling(col, withSaving(c, declared));
            return serial != null ? serial : withSaving(c, declared);
        }
        // Only 0 and 1: a flag. PostgreSQL has boolean (1 byte, even below a smallint); MySQL's
        // BOOLEAN is TINYINT(1), the same byte as the TINYINT the plain choice names.
        boolean zeroOne = p.distinct <= 2 && p.minInt.signum() >= 0 && p.maxInt.compareTo(BigInteger.ONE) <= 0;
        boolean bool = dialect == Dialect.POSTGRESQL && zeroOne && col.type().intBits() > 8;
        if (plain == null && !bool) {
            return null;
        }
        if (ColumnNames.isCounter(table.name(), col.name())) {
            return kept(
                    declared,
                    "a counter (named so): totals only grow, and the snapshot's maximum says little about next"
                            + " year's, so it keeps its declared width");
        }
        if (ColumnNames.isSize(col.name())) {
            return kept(
                    declared,
                    "a size (named so): it counts a payload's bytes, and the next article or upload, not this"
                            + " snapshot, sets its largest, so it keeps its declared width");
        }
        if (thin(p)) {
            return kept(declared, thinWhy(p));
        }
        if (p.distinct < 2) {
            return kept(declared, "one value in every row gives no range to size a type by: kept as declared");
        }
        if (bool) {
            return withSaving(
                    new Choice(
                            types.bool(),
                            model.fixed(p, 1),
                            new Finding(
                                    FindingKind.NARROW_INTEGER,
                                    "only 0 and 1 occur: boolean holds them (0 = false, 1 = true)",
                                    0)),
                    declared);
        }
        if (zeroOne
                && dialect == Dialect.MYSQL
                && plain.type().toUpperCase(Locale.ROOT).startsWith("TINYINT")) {
            return new Choice(
                    plain.type(),
                    plain.bytes(),
                    new Finding(
                            FindingKind.NARROW_INTEGER,
                            "only 0 and 1 occur: " + plain.type() + " holds them (MySQL's and MariaDB's BOOLEAN is"
                                    + " TINYINT(1), the same byte, so TINYINT it is)",
                            0),
                    plain.together());
        }
        return plain;
    }

    /** A column of a group (a key's reference, a domain) in a table with no rows: it takes the group's type. */
    private Choice emptyMember(ColumnDef col, Context ctx) {
        IntegerPolicy.Verdict v = ctx.verdict();
        if (v == null || v.keep() || v.bytes() * 8 >= col.type().intBits()) {
            return null;
        }
        String name = types.integerName(v.bytes(), col.type().unsigned() && !v.signed());
        return new Choice(
                name,
                0,
                new Finding(
                        FindingKind.NARROW_INTEGER,
                        v.why() + "; no rows here: it takes the group's type" + " so that the group stays one type",
                        0),
                true);
    }

    /** PostgreSQL spells a narrower serial column smallserial or serial, keeping its sequence. */
    private Choice serialSpelling(ColumnDef col, Choice c) {
        if (c == null
                || dialect != Dialect.POSTGRESQL
                || !col.type().declared().toLowerCase(Locale.ROOT).contains("serial")) {
            return null;
        }
        String name = switch (c.type()) {
            case "smallint" -> "smallserial";
            case "integer" -> "serial";
            default -> "bigserial";
        };
        return new Choice(name, c.bytes(), c.finding());
    }

    // ------------------------------------------------------------------ decimals and floats

    /**
     * A DECIMAL keeps its scale (its values print the same) and never becomes an integer because
     * today's values end in .00; its precision shrinks only to the digits the largest magnitude
     * needs with {@code --decimal-headroom} room (money grows by orders of magnitude).
     */
    private Choice decimal(ColumnDef col, ColumnProfile p, long declared) {
        if (p.castFailures > 0 || p.minInt == null) {
            return null;
        }
        if (dialect != Dialect.MYSQL && dialect != Dialect.DUCKDB) {
            return null; // PostgreSQL's numeric stores the digits it holds, whatever its precision
        }
        int scale = Math.max(0, col.type().scale());
        BigInteger biggest = p.minInt.abs().max(p.maxInt.abs()).add(BigInteger.ONE);
        int intDigits = Math.max(
                1,
                grow(biggest, options.decimalHeadroom())
                        .subtract(BigInteger.ONE)
                        .toString()
                        .length());
        int precision = intDigits + scale;
        if (precision >= col.type().precision() || col.type().precision() < 0) {
            return null;
        }
        long bytes = dialect == Dialect.MYSQL
                ? model.fixed(p, StorageModel.mysqlDecimal(precision, scale))
                : model.fixed(p, StorageModel.duckDecimal(precision));
        Choice c = withSaving(
                new Choice(
                        types.decimal(precision, scale),
                        bytes,
                        new Finding(
                                FindingKind.NARROW_DECIMAL,
                                "the largest value uses " + p.usedIntDigits
                                        + (p.usedIntDigits == 1 ? " digit" : " digits") + " before the point (declared "
                                        + col.type().declared()
                                        + "); x" + trim(options.decimalHeadroom()) + " room keeps " + intDigits
                                        + ", and the scale stays "
                                        + scale + " so every value prints the same",
                                0)),
                declared);
        if (c != null && thin(p)) {
            return kept(declared, thinWhy(p));
        }
        return c;
    }

    /**
     * Floats never become integers because today's values are whole (tomorrow's 2.5 would be cut);
     * a DOUBLE becomes a FLOAT only when every value survives the round trip, with enough evidence.
     */
    private Choice floating(ColumnDef col, ColumnProfile p, long declared) {
        if (p.castFailures > 0) {
            return null;
        }
        if (col.type().family() == TypeFamily.DOUBLE && types.hasFloat4() && p.floatRoundTrip == p.nonNull) {
            Choice c = withSaving(
                    new Choice(
                            types.floatType(),
                            model.fixed(p, 4),
                            new Finding(
                                    FindingKind.NARROW_FLOAT,
                                    "every value survives a round trip through a 4-byte float exactly" + wholeNote(p),
                                    0)),
                    declared);
            return c != null && thin(p) ? kept(declared, thinWhy(p)) : c;
        }
        return null;
    }

    /**
     * Whole numbers in a DOUBLE, often with NULLs, are what pandas writes for an integer column
     * with missing values (NaN makes it float64, and to_sql declares DOUBLE): say which integer
     * type would hold them and why it is not suggested: both servers round a later 2.5 assigned to
     * an integer column, without an error (MySQL even in strict mode; PostgreSQL's assignment cast).
     */
    private String wholeNote(ColumnProfile p) {
        if (p.nonNull == 0 || p.integral != p.nonNull || p.minInt == null || p.maxInt == null) {
            return "";
        }
        DialectTypes.IntegerType it = types.narrowestInteger(p.minInt, p.maxInt, false);
        return "; every value is a whole number (" + p.minInt + " to " + p.maxInt
                + (p.nulls() > 0
                        ? ", with " + p.nulls() + " NULLs: the shape pandas writes for integers with missing values"
                        : "")
                + ")" + (it == null ? "" : ", which " + it.name() + " would hold")
                + ", but an integer type is not suggested for a float: a fractional value written later would be"
                + " rounded into it without an error; declare it an integer where the column counts things";
    }

    private Choice dateOnly(ColumnDef col, ColumnProfile p, long declared) {
        if (p.castFailures > 0 || p.midnight != p.nonNull) {
            return null;
        }
        Choice c = withSaving(
                new Choice(
                        types.date(),
                        model.fixed(p, model.dateWidth()),
                        new Finding(
                                FindingKind.TIMESTAMP_HOLDS_DATE,
                                "every value is at midnight"
                                        + (ColumnNames.isDayName(col.name()) ? " and the name says a day" : "")
                                        + ": the time of day carries nothing" + sqliteEncoding(),
                                0)),
                declared);
        // Midnight in a few rows may be chance; a name that says "date" is meaning.
        return c != null && thin(p) && !ColumnNames.isDayName(col.name()) ? kept(declared, thinWhy(p)) : c;
    }

    /** SQLite has no date type: say what the suggested INTEGER holds. */
    private String sqliteEncoding() {
        return dialect == Dialect.SQLITE
                ? " (INTEGER as unix seconds: unixepoch(col) writes it, datetime(col, 'unixepoch')"
                        + " reads the text back)"
                : "";
    }

    // ------------------------------------------------------------------ strings

    private Choice string(
            TableDef table,
            ColumnDef col,
            ColumnProfile p,
            long declared,
            List<String> enumValues,
            List<Finding> findings,
            Context ctx) {
        long real = p.realValues();
        boolean markersMapToNull = p.markers == 0 || (p.markerKinds == 1 && p.nulls() == 0);
        String markerNote = p.markers == 0 ? "" : " (" + p.markers + " null markers become NULL, " + "the only NULLs)";
        if (p.markers > 0 && !markersMapToNull) {
            findings.add(new Finding(
                    FindingKind.NULL_MARKER,
                    p.markers + " values are null markers such as 'NA' or ''"
                            + " beside real NULLs: kept as text, since mapping them to NULL would merge the two",
                    0));
        }
        // Patterns decide a type only with evidence, or where the name says what the values are.
        boolean timeNamed = ColumnNames.isTimeName(col.name());
        Choice keptNote = null;
        if (real > 0 && markersMapToNull) {
            if (p.mwTimestamps == real) {
                String range = " (" + p.mwTimestampMin + " to " + p.mwTimestampMax + ")";
                String note = dialect == Dialect.MYSQL
                        ? "; DATE_FORMAT(col, '%Y%m%d%H%i%s') gives the text back."
                                + (fitsMysqlTimestamp(p)
                                        ? " TIMESTAMP would take 4 bytes but converts by time zone and ends in 2038, so DATETIME."
                                        : " TIMESTAMP cannot hold them (before 1970 or after 2038).")
                        : sqliteEncoding();
                Choice c = new Choice(
                        types.timestamp(),
                        model.fixed(p, model.timestampWidth()),
                        new Finding(
                                FindingKind.STRING_HOLDS_TIMESTAMP,
                                "all " + real + " values are 14-character YYYYMMDDHHMMSS timestamps" + range
                                        + markerNote + note,
                                0));
                if (c.bytes() < declared) {
                    return timeNamed || !thin(p) ? c : kept(declared, thinWhy(p));
                }
            }
            String isoType = p.timestampFormat == null ? null : IsoTimestamps.type(dialect, p.timestampFormat);
            if (p.timestamps == real && isoType != null) {
                Choice c = new Choice(
                        isoType,
                        model.fixed(p, IsoTimestamps.width(dialect, p.timestampFormat)),
                        new Finding(
                                FindingKind.STRING_HOLDS_TIMESTAMP,
                                "all " + real + " values are ISO-8601 timestamps '"
                                        + IsoTimestamps.pattern(p.timestampFormat) + "' (" + p.timestampMin + " to "
                                        + p.timestampMax + ")" + markerNote
                                        + IsoTimestamps.meaning(dialect, p.timestampFormat),
                                0));
                if (c.bytes() < declared) {
                    return timeNamed || !thin(p) ? c : kept(declared, thinWhy(p));
                }
            }
            if (p.timestamps == real && p.timestampFormat == null) {
                Choice c = new Choice(
                        types.timestamp(),
                        model.fixed(p, model.timestampWidth()),
                        new Finding(
                                FindingKind.STRING_HOLDS_TIMESTAMP,
                                "all " + real + " values are 'YYYY-MM-DD HH:MM:SS' timestamps (" + p.timestampMin
                                        + " to " + p.timestampMax + ")" + markerNote + sqliteEncoding(),
                                0));
                if (c.bytes() < declared) {
                    return timeNamed || !thin(p) ? c : kept(declared, thinWhy(p));
                }
            }
            if (p.dates == real) {
                Choice c = new Choice(
                        types.date(),
                        model.fixed(p, model.dateWidth()),
                        new Finding(
                                FindingKind.STRING_HOLDS_DATE,
                                "all " + real + " values are 'YYYY-MM-DD' dates" + markerNote + sqliteEncoding(),
                                0));
                if (c.bytes() < declared) {
                    return timeNamed || !thin(p) ? c : kept(declared, thinWhy(p));
                }
            }
            if (p.intCanonical == real && p.strIntMin != null) {
                Choice c = integerChoice(
                        p.strIntMin,
                        p.strIntMax,
                        options.headroom(),
                        p,
                        FindingKind.STRING_HOLDS_INTEGER,
                        "all " + real + " values are integers written canonically" + markerNote,
                        false);
                if (c != null && c.bytes() < declared) {
                    String why = identifierText(col, p);
                    if (why != null) {
                        keptNote = kept(declared, why);
                    } else if (thin(p)) {
                        keptNote = kept(declared, thinWhy(p));
                    } else if (p.distinct - (p.markers > 0 ? 1 : 0) < 2) {
                        keptNote =
                                kept(declared, "one value in every row gives no range to size a type by: kept as text");
                    } else {
                        return c;
                    }
                }
            }
            if (p.uuids == real) {
                Choice c = new Choice(
                        types.uuid(),
                        model.fixed(p, 16),
                        new Finding(
                                FindingKind.STRING_HOLDS_UUID,
                                "all " + real + " values are lower-case canonical UUIDs" + markerNote,
                                0));
                if (c.bytes() < declared) {
                    return c;
                }
            }
            if (p.decimalCanonical == real && p.decimalFracMin == p.decimalFracMax && dialect != Dialect.SQLITE) {
                int scale = p.decimalFracMax;
                int intDigits = Math.max(p.decimalIntDigits + 1, (int)
                        Math.ceil(p.decimalIntDigits + Math.log10(options.decimalHeadroom())));
                int precision = intDigits + scale;
                long bytes = switch (dialect) {
                    case MYSQL -> model.fixed(p, StorageModel.mysqlDecimal(precision, scale));
                    case DUCKDB, TRINO -> model.fixed(p, StorageModel.duckDecimal(precision));
                    default -> model.fixed(p, 3 + 2L * ((p.decimalIntDigits + 3) / 4 + (scale + 3) / 4));
                };
                Choice c = new Choice(
                        types.decimal(precision, scale),
                        bytes,
                        new Finding(
                                FindingKind.STRING_HOLDS_DECIMAL,
                                "all " + real + " values are decimals with exactly " + scale + " digits after the point"
                                        + markerNote,
                                0));
                if (c.bytes() < declared) {
                    String why = ColumnNames.isPayload(col.name()) ? payloadWhy(col) : thin(p) ? thinWhy(p) : null;
                    if (why == null) {
                        return c;
                    }
                    keptNote = kept(declared, why);
                }
            }
            if (p.booleans == real && p.booleanKinds == 2 && p.distinct - (p.markers > 0 ? 1 : 0) == 2) {
                Choice c = new Choice(
                        types.bool(),
                        model.fixed(p, dialect == Dialect.SQLITE ? 0 : 1),
                        new Finding(
                                FindingKind.STRING_HOLDS_BOOLEAN,
                                "only two spellings of true and false occur (" + p.minText + ", " + p.maxText + ")"
                                        + markerNote,
                                0));
                if (c.bytes() < declared) {
                    if (!thin(p)) {
                        return c;
                    }
                    keptNote = kept(declared, thinWhy(p));
                }
            }
        }
        if (enumValues != null && types.hasEnum() && p.markers == 0 && p.trailingSpace == 0) {
            long bytes = model.fixed(p, model.enumWidth(enumValues.size()));
            if (bytes < declared && p.rows >= 10L * enumValues.size()) {
                String why = closedDomain(col, p, ctx);
                if (why == null) {
                    return new Choice(
                            types.enumOf(enumValues),
                            bytes,
                            new Finding(
                                    FindingKind.LOW_CARDINALITY,
                                    enumValues.size() + " distinct values in " + p.nonNull + " rows (cap "
                                            + options.enumMax() + "): a dictionary type stores each in "
                                            + model.enumWidth(enumValues.size()) + " bytes",
                                    0));
                }
                if (keptNote == null) {
                    keptNote = kept(declared, why);
                }
            }
        }
        if (col.type().family() == TypeFamily.CHAR
                && p.trailingSpace == 0
                && p.maxChars < col.type().length()
                && (dialect == Dialect.MYSQL || dialect == Dialect.POSTGRESQL)) {
            // VARCHAR of the same length: the padding goes, the limit stays (a shorter limit would
            // save no byte, only refuse tomorrow's longer value).
            ColumnProfile asVar = p;
            long bytes = dialect == Dialect.MYSQL ? p.sumLen + p.nonNull : p.sumLen + p.nonNull + 3 * p.long127;
            return new Choice(
                    types.varchar(col.type().length()),
                    bytes,
                    new Finding(
                            FindingKind.PADDING,
                            String.format(
                                    "values average %.1f of %d characters (longest %d): CHAR pads every one to full width; VARCHAR(%d) keeps"
                                            + " the limit",
                                    asVar.avgLen(),
                                    col.type().length(),
                                    p.maxChars,
                                    col.type().length()),
                            0));
        }
        return keptNote;
    }

    /**
     * Why a string of digits is an identifier, not a number: its name (phone, postal code,
     * extension, code, account), its payload name, or its values (every one the same width: a code
     * with possible leading zeros to come). Null when it may be a number.
     */
    private static String identifierText(ColumnDef col, ColumnProfile p) {
        if (ColumnNames.isIdentifierString(col.name())) {
            return "the name says an identifier written with digits (phone numbers, postal codes, extensions, codes): it"
                    + " stays a string, where leading zeros, signs and widths keep their meaning";
        }
        if (ColumnNames.isPayload(col.name())) {
            return payloadWhy(col);
        }
        if (p.realMinLen == p.realMaxLen && p.realMaxLen >= 2) {
            return "every value is " + p.realMaxLen
                    + " characters wide: a fixed-width code, whose leading zeros a number"
                    + " would drop, so it stays a string";
        }
        return null;
    }

    private static String payloadWhy(ColumnDef col) {
        return "the name says a payload the application encodes (serialized PHP, JSON, a property's value): today's numbers"
                + " say nothing of what is stored next, so it stays a string";
    }

    /**
     * Null when the values form a closed domain an ENUM may hold: enough rows, not free text (names,
     * titles, comments, user names, e-mails, URLs), not a key or part of one, not times. Otherwise why not.
     */
    private String closedDomain(ColumnDef col, ColumnProfile p, Context ctx) {
        if (ctx.keyPart() || ctx.reference() != null) {
            return "part of a key: an ENUM would change what the key compares and what refers to it, so it stays a string";
        }
        if (ColumnNames.isFreeText(col.name())) {
            return "the name says free text (a name, a title, a comment, a user name, an address): few values today,"
                    + " new ones tomorrow, so no ENUM";
        }
        if (ColumnNames.isTimeName(col.name())) {
            return "the name says a time: its values are not a closed list, so no ENUM";
        }
        if (thin(p)) {
            return "too little evidence (" + p.nonNull + " values, fewer than --min-rows " + options.minRows()
                    + ") that " + p.distinct + " values are the whole domain: no ENUM";
        }
        return null;
    }

    private static boolean fitsMysqlTimestamp(ColumnProfile p) {
        return p.mwTimestampMin != null
                && p.mwTimestampMin.compareTo(MYSQL_TIMESTAMP_MIN) >= 0
                && p.mwTimestampMax.compareTo(MYSQL_TIMESTAMP_MAX) <= 0;
    }

    private static Choice withSaving(Choice c, long declared) {
        return c == null || c.bytes() >= declared ? null : c;
    }

    // ------------------------------------------------------------------ display

    private static String show(ColumnProfile p) {
        String v = p.minInt != null
                ? p.minInt.toString()
                : p.minText != null ? "'" + p.minText + "'" : p.minTemporal != null ? p.minTemporal : "one value";
        return v;
    }

    private static String minOf(ColumnProfile p, SqlType t) {
        if (p.nonNull == 0) {
            return null;
        }
        if (t.isInteger() && p.minInt != null) {
            return p.minInt.toString();
        }
        if (p.minNumber != null) {
            return p.minNumber; // a number's bound by value, not by text
        }
        return p.minTemporal != null ? p.minTemporal : p.minText;
    }

    private static String maxOf(ColumnProfile p, SqlType t) {
        if (p.nonNull == 0) {
            return null;
        }
        if (t.isInteger() && p.maxInt != null) {
            return p.maxInt.toString();
        }
        if (p.maxNumber != null) {
            return p.maxNumber;
        }
        return p.maxTemporal != null ? p.maxTemporal : p.maxText;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
