package dev.wastecheck.analyzer.infer;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.storage.StorageModel;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The tightest lossless type for a column, from its exact profile ("No Bits Left Behind" §2:
 * encoding waste). The rules, in the order they are tried, and why each is lossless, are in
 * docs/analyze.md. The one invariant: a suggestion never loses or changes a value. Where a
 * narrower type would, the declared type stays and a finding says why.
 */
public final class TypeInference {
    /** MySQL TIMESTAMP holds 1970-01-01 00:00:01 to 2038-01-19 03:14:07 UTC only. */
    private static final String MYSQL_TIMESTAMP_MIN = "19700101000001";
    private static final String MYSQL_TIMESTAMP_MAX = "20380119031407";
    private static final Pattern ID_NAME = Pattern.compile("(?i)(.*_id|id|.*[a-z]Id|.*ID)");

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

    /** A candidate: the type to suggest, its bytes, and the finding that explains it. */
    private record Choice(String type, long bytes, Finding finding) {
    }

    /**
     * @param enumValues the column's distinct values when there are at most {@code enumMax} of them
     *                   and they are safe as ENUM members (no trailing spaces, no case-only duplicates), else null
     */
    public ColumnReport infer(TableDef table, ColumnDef col, ColumnProfile p, List<String> enumValues) {
        long declared = model.declaredBytes(table, col, p);
        List<Finding> findings = new ArrayList<>();
        SqlType t = col.type();
        if (p.allNull()) {
            findings.add(new Finding(FindingKind.ALL_NULL, "all " + p.rows + " rows are NULL: the column can be dropped", declared));
        } else if (p.constant()) {
            findings.add(new Finding(FindingKind.CONSTANT, "every row holds " + show(p) + ": a DEFAULT or a view could supply it", declared));
        }
        // An array holds a list, not one value: no scalar type replaces it (its text form may have
        // few distinct values, but an ENUM of them would lose = ANY, unnest and the element type).
        boolean array = t.declared().endsWith("]");
        Choice choice = p.nonNull == 0 || array ? null : switch (t.family()) {
            case INTEGER -> integer(table, col, p, declared);
            case DECIMAL -> decimal(table, col, p, declared);
            case FLOAT, DOUBLE -> floating(table, col, p, declared);
            case DATETIME, TIMESTAMP -> dateOnly(p, declared);
            case CHAR, VARCHAR, TEXT, BINARY, VARBINARY, BLOB, OTHER -> string(table, col, p, declared, enumValues, findings);
            default -> null;
        };
        String suggested = t.declared();
        long tight = declared;
        if (choice != null && choice.bytes() < declared) {
            suggested = choice.type();
            tight = choice.bytes();
            findings.add(0, choice.finding());
        } else if (choice != null && choice.finding() != null && choice.bytes() >= declared && choice.type() == null) {
            findings.add(choice.finding()); // an observation that saves nothing
        }
        if (t.isInteger() && isImplicitId(col, table, p)) {
            findings.add(new Finding(FindingKind.IMPLICIT_ID, "values are exactly 1.." + p.rows
                    + ", one per row: the row's position could replace the column", tight));
        }
        return new ColumnReport(col.name(), t.declared(), suggested, declared, tight, p.nulls(), p.distinct,
                minOf(p, t), maxOf(p, t), findings);
    }

    // ------------------------------------------------------------------ integers

    private boolean isIdentifier(ColumnDef col, TableDef table) {
        return col.autoIncrement() || (table.primaryKey().size() == 1 && table.isPrimaryKeyColumn(col.name()))
                || ID_NAME.matcher(col.name()).matches();
    }

    private static boolean isImplicitId(ColumnDef col, TableDef table, ColumnProfile p) {
        boolean keyish = col.autoIncrement() || (table.primaryKey().size() == 1 && table.isPrimaryKeyColumn(col.name()));
        return keyish && p.rows > 1 && p.nonNull == p.rows && p.distinct == p.rows && p.minInt != null
                && p.minInt.equals(BigInteger.ONE) && p.maxInt.equals(BigInteger.valueOf(p.rows));
    }

    /** Headroom: identifiers grow with the table, other values less so (docs/analyze.md). */
    private double headroom(ColumnDef col, TableDef table) {
        return isIdentifier(col, table) ? options.idHeadroom() : options.headroom();
    }

    private static BigInteger grow(BigInteger v, double factor) {
        if (v == null) {
            return BigInteger.ZERO;
        }
        return new BigDecimal(v).multiply(BigDecimal.valueOf(factor)).setScale(0, RoundingMode.UP).toBigInteger();
    }

    private Choice integerChoice(BigInteger min, BigInteger max, double headroom, ColumnProfile p, FindingKind kind, String why,
                                 boolean preferUnsigned) {
        BigInteger lo = min.signum() < 0 ? grow(min, headroom).min(min) : min;
        BigInteger hi = max.signum() > 0 ? grow(max, headroom).max(max) : max;
        DialectTypes.IntegerType it = types.narrowestInteger(lo, hi, preferUnsigned);
        if (it == null) {
            return null;
        }
        long bytes = model.integerBytes(p, it.bytes(), min, max);
        String room = headroom > 1 ? String.format(" (room to grow x%s: up to %s)", trim(headroom), hi) : "";
        return new Choice(it.name(), bytes, new Finding(kind, why + ", min " + min + ", max " + max + room + ": "
                + it.name() + " holds them", 0));
    }

    private Choice integer(TableDef table, ColumnDef col, ColumnProfile p, long declared) {
        if (p.castFailures > 0 || p.minInt == null) {
            return new Choice(null, declared, new Finding(FindingKind.TYPE_MISMATCH, p.castFailures
                    + " values are not integers although the column is declared " + col.type().declared()
                    + ": kept as declared", 0));
        }
        double h = headroom(col, table);
        if (dialect == Dialect.POSTGRESQL && !isIdentifier(col, table) && p.distinct <= 2
                && p.minInt.signum() >= 0 && p.maxInt.compareTo(BigInteger.ONE) <= 0 && col.type().intBits() > 8) {
            return withSaving(new Choice(types.bool(), model.fixed(p, 1), new Finding(FindingKind.NARROW_INTEGER,
                    "only 0 and 1 occur: boolean holds them (0 = false, 1 = true)", 0)), declared);
        }
        Choice serial = serialSpelling(col, withSaving(integerChoice(p.minInt, p.maxInt, h, p, FindingKind.NARROW_INTEGER,
                "all values are integers", col.type().unsigned()), declared));
        if (serial != null) {
            return serial;
        }
        String why = p.referencedKey == null ? "all values are integers"
                : "all values are integers, range taken with the key it refers to, " + p.referencedKey;
        return withSaving(integerChoice(p.minInt, p.maxInt, h, p, FindingKind.NARROW_INTEGER, why, col.type().unsigned()), declared);
    }

    /** PostgreSQL spells a narrower serial column smallserial or serial, keeping its sequence. */
    private Choice serialSpelling(ColumnDef col, Choice c) {
        if (c == null || dialect != Dialect.POSTGRESQL || !col.type().declared().toLowerCase(java.util.Locale.ROOT).contains("serial")) {
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

    private Choice decimal(TableDef table, ColumnDef col, ColumnProfile p, long declared) {
        if (p.castFailures > 0) {
            return null;
        }
        if (p.integral == p.nonNull && p.minInt != null) {
            return withSaving(integerChoice(p.minInt, p.maxInt, headroom(col, table), p, FindingKind.NARROW_DECIMAL,
                    "every value is a whole number", col.type().unsigned()), declared);
        }
        if (dialect == Dialect.MYSQL || dialect == Dialect.DUCKDB) {
            int scale = Math.max(0, col.type().scale());
            int intDigits = Math.max(1, p.usedIntDigits + 1); // one digit of room to grow
            int precision = intDigits + scale;
            if (precision < col.type().precision()) {
                long bytes = dialect == Dialect.MYSQL ? model.fixed(p, StorageModel.mysqlDecimal(precision, scale))
                        : model.fixed(p, StorageModel.duckDecimal(precision));
                return withSaving(new Choice(types.decimal(precision, scale), bytes, new Finding(FindingKind.NARROW_DECIMAL,
                        "at most " + p.usedIntDigits + " digits before the point are used (declared "
                                + col.type().declared() + "); the scale stays " + scale + " so every value prints the same", 0)), declared);
            }
        }
        return null;
    }

    private Choice floating(TableDef table, ColumnDef col, ColumnProfile p, long declared) {
        if (p.castFailures > 0) {
            return null;
        }
        if (p.integral == p.nonNull && p.minInt != null) {
            return withSaving(integerChoice(p.minInt, p.maxInt, headroom(col, table), p, FindingKind.FLOAT_HOLDS_INTEGER,
                    "every value is a whole number", col.type().unsigned()), declared);
        }
        if (col.type().family() == TypeFamily.DOUBLE && types.hasFloat4() && p.floatRoundTrip == p.nonNull) {
            return withSaving(new Choice(types.floatType(), model.fixed(p, 4), new Finding(FindingKind.NARROW_FLOAT,
                    "every value survives a round trip through a 4-byte float exactly", 0)), declared);
        }
        return null;
    }

    private Choice dateOnly(ColumnProfile p, long declared) {
        if (p.castFailures > 0 || p.midnight != p.nonNull) {
            return null;
        }
        return withSaving(new Choice(types.date(), model.fixed(p, model.dateWidth()), new Finding(FindingKind.TIMESTAMP_HOLDS_DATE,
                "every value is at midnight: the time of day carries nothing", 0)), declared);
    }

    // ------------------------------------------------------------------ strings

    private Choice string(TableDef table, ColumnDef col, ColumnProfile p, long declared, List<String> enumValues,
                          List<Finding> findings) {
        long real = p.realValues();
        boolean markersMapToNull = p.markers == 0 || (p.markerKinds == 1 && p.nulls() == 0);
        String markerNote = p.markers == 0 ? "" : " (" + p.markers + " null markers become NULL, " + "the only NULLs)";
        if (p.markers > 0 && !markersMapToNull) {
            findings.add(new Finding(FindingKind.NULL_MARKER, p.markers + " values are null markers such as 'NA' or ''"
                    + " beside real NULLs: kept as text, since mapping them to NULL would merge the two", 0));
        }
        if (real > 0 && markersMapToNull) {
            if (p.mwTimestamps == real) {
                String range = " (" + p.mwTimestampMin + " to " + p.mwTimestampMax + ")";
                String note = dialect == Dialect.MYSQL ? "; DATE_FORMAT(col, '%Y%m%d%H%i%s') gives the text back."
                        + (fitsMysqlTimestamp(p) ? " TIMESTAMP would take 4 bytes but converts by time zone and ends in 2038, so DATETIME." : " TIMESTAMP cannot hold them (before 1970 or after 2038).")
                        : "";
                Choice c = new Choice(types.timestamp(), model.fixed(p, model.timestampWidth()), new Finding(FindingKind.STRING_HOLDS_TIMESTAMP,
                        "all " + real + " values are 14-character YYYYMMDDHHMMSS timestamps" + range + markerNote + note, 0));
                if (c.bytes() < declared) {
                    return c;
                }
            }
            if (p.timestamps == real) {
                Choice c = new Choice(types.timestamp(), model.fixed(p, model.timestampWidth()), new Finding(FindingKind.STRING_HOLDS_TIMESTAMP,
                        "all " + real + " values are 'YYYY-MM-DD HH:MM:SS' timestamps (" + p.timestampMin + " to "
                                + p.timestampMax + ")" + markerNote, 0));
                if (c.bytes() < declared) {
                    return c;
                }
            }
            if (p.dates == real) {
                Choice c = new Choice(types.date(), model.fixed(p, model.dateWidth()), new Finding(FindingKind.STRING_HOLDS_DATE,
                        "all " + real + " values are 'YYYY-MM-DD' dates" + markerNote, 0));
                if (c.bytes() < declared) {
                    return c;
                }
            }
            if (p.intCanonical == real && p.strIntMin != null) {
                Choice c = integerChoice(p.strIntMin, p.strIntMax, headroom(col, table), p, FindingKind.STRING_HOLDS_INTEGER,
                        "all " + real + " values are integers written canonically" + markerNote, false);
                if (c != null && c.bytes() < declared) {
                    return c;
                }
            }
            if (p.uuids == real) {
                Choice c = new Choice(types.uuid(), model.fixed(p, 16), new Finding(FindingKind.STRING_HOLDS_UUID,
                        "all " + real + " values are lower-case canonical UUIDs" + markerNote, 0));
                if (c.bytes() < declared) {
                    return c;
                }
            }
            if (p.decimalCanonical == real && p.decimalFracMin == p.decimalFracMax && dialect != Dialect.SQLITE) {
                int scale = p.decimalFracMax;
                int precision = p.decimalIntDigits + 1 + scale;
                long bytes = switch (dialect) {
                    case MYSQL -> model.fixed(p, StorageModel.mysqlDecimal(precision, scale));
                    case DUCKDB -> model.fixed(p, StorageModel.duckDecimal(precision));
                    default -> model.fixed(p, 3 + 2L * ((p.decimalIntDigits + 3) / 4 + (scale + 3) / 4));
                };
                Choice c = new Choice(types.decimal(precision, scale), bytes, new Finding(FindingKind.STRING_HOLDS_DECIMAL,
                        "all " + real + " values are decimals with exactly " + scale + " digits after the point" + markerNote, 0));
                if (c.bytes() < declared) {
                    return c;
                }
            }
            if (p.booleans == real && p.booleanKinds == 2 && p.distinct - (p.markers > 0 ? 1 : 0) == 2) {
                Choice c = new Choice(types.bool(), model.fixed(p, dialect == Dialect.SQLITE ? 0 : 1), new Finding(FindingKind.STRING_HOLDS_BOOLEAN,
                        "only two spellings of true and false occur (" + p.minText + ", " + p.maxText + ")" + markerNote, 0));
                if (c.bytes() < declared) {
                    return c;
                }
            }
        }
        if (enumValues != null && types.hasEnum() && p.markers == 0 && p.trailingSpace == 0) {
            long bytes = model.fixed(p, model.enumWidth(enumValues.size()));
            if (bytes < declared && p.rows >= 10L * enumValues.size()) {
                return new Choice(types.enumOf(enumValues), bytes, new Finding(FindingKind.LOW_CARDINALITY,
                        enumValues.size() + " distinct values in " + p.nonNull + " rows (cap " + options.enumMax()
                                + "): a dictionary type stores each in " + model.enumWidth(enumValues.size()) + " bytes", 0));
            }
        }
        if (col.type().family() == TypeFamily.CHAR && p.trailingSpace == 0 && p.maxChars < col.type().length()
                && (dialect == Dialect.MYSQL || dialect == Dialect.POSTGRESQL)) {
            ColumnProfile asVar = p;
            long bytes = dialect == Dialect.MYSQL ? p.sumLen + p.nonNull : p.sumLen + p.nonNull + 3 * p.long127;
            return new Choice(types.varchar(p.maxChars), bytes, new Finding(FindingKind.PADDING, String.format(
                    "values average %.1f of %d characters (longest %d): CHAR pads every one to full width",
                    asVar.avgLen(), col.type().length(), p.maxChars), 0));
        }
        return null;
    }

    private static boolean fitsMysqlTimestamp(ColumnProfile p) {
        return p.mwTimestampMin != null && p.mwTimestampMin.compareTo(MYSQL_TIMESTAMP_MIN) >= 0
                && p.mwTimestampMax.compareTo(MYSQL_TIMESTAMP_MAX) <= 0;
    }

    private static Choice withSaving(Choice c, long declared) {
        return c == null || c.bytes() >= declared ? null : c;
    }

    // ------------------------------------------------------------------ display

    private static String show(ColumnProfile p) {
        String v = p.minInt != null ? p.minInt.toString() : p.minText != null ? "'" + p.minText + "'"
                : p.minTemporal != null ? p.minTemporal : "one value";
        return v;
    }

    private static String minOf(ColumnProfile p, SqlType t) {
        if (p.nonNull == 0) {
            return null;
        }
        if (t.isInteger() && p.minInt != null) {
            return p.minInt.toString();
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
        return p.maxTemporal != null ? p.maxTemporal : p.maxText;
    }

    private static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
