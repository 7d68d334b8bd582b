package dev.wastecheck.analyzer.infer;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.storage.StorageModel;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeFamily;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * A column holding values its declared type cannot hold (300 in a TINYINT UNSIGNED, 'z' in an
 * ENUM('x','y'), 123456789012.345 in a DECIMAL(10,2)) gets a suggestion that holds them: the
 * inference keeps the declared type when nothing narrower saves bytes, and the declared type is
 * exactly what is too narrow here. The suggestion is the narrowest type of the same kind that
 * holds every value read; where no such type exists (a DATE cannot hold 2023-02-30) the declared
 * type stays and the finding says why. Either way an {@code out_of_type} finding says how many
 * values and where the first was.
 */
public final class OutOfTypeFloor {
    private OutOfTypeFloor() {}

    /**
     * @param values distinct values outside the type (up to 16), as read
     */
    public static ColumnReport apply(
            ColumnReport r,
            ColumnDef col,
            ColumnProfile p,
            TableReport.BadValues bad,
            Collection<String> values,
            Dialect dialect) {
        if (bad == null || values == null || values.isEmpty()) {
            return r;
        }
        SqlType t = col.type();
        DialectTypes types = new DialectTypes(dialect);
        StorageModel model = new StorageModel(dialect);
        String holds = null;
        long bytes = r.tightBytes();
        String why;
        boolean inferred = !r.suggestedType().equalsIgnoreCase(r.declaredType());
        switch (t.family()) {
            case INTEGER -> {
                DialectTypes.IntegerType it =
                        p.minInt == null ? null : types.narrowestInteger(p.minInt, p.maxInt, t.unsigned());
                if (it != null && !inferred) {
                    holds = it.name();
                    bytes = model.integerBytes(p, it.bytes(), p.minInt, p.maxInt);
                }
                why = "min " + p.minInt + ", max " + p.maxInt;
            }
            case DECIMAL -> {
                int scale = Math.max(Math.max(0, t.scale()), p.usedScale);
                int precision = Math.max(1, p.usedIntDigits) + scale;
                if (!inferred && precision <= (dialect == Dialect.MYSQL ? 65 : 1000)) {
                    holds = types.decimal(precision, scale);
                    bytes = dialect == Dialect.MYSQL
                            ? model.fixed(p, StorageModel.mysqlDecimal(precision, scale))
                            : r.tightBytes();
                }
                why = "up to " + p.usedIntDigits + " digits before the point and " + p.usedScale + " after it are used";
            }
            case FLOAT -> {
                if (!inferred) {
                    holds = dialect == Dialect.POSTGRESQL
                            ? "double precision"
                            : dialect == Dialect.DUCKDB || dialect == Dialect.TRINO ? "DOUBLE" : "double";
                    bytes = model.fixed(p, 8);
                }
                why = "a 4-byte float ends at 3.4028235e38";
            }
            case CHAR, VARCHAR -> {
                if (!inferred) {
                    holds = types.varchar(p.maxChars);
                }
                why = "the longest value is " + p.maxChars + " characters";
            }
            case ENUM, SET -> {
                List<String> members = new ArrayList<>(t.enumValues());
                for (String v : values) {
                    for (String m : t.family() == TypeFamily.SET ? v.split(",") : new String[] {v}) {
                        if (!members.contains(m) && !m.isEmpty()) {
                            members.add(m);
                        }
                    }
                }
                if (dialect == Dialect.MYSQL && values.size() < 16) {
                    holds = (t.family() == TypeFamily.SET ? "set" : "enum")
                            + types.enumOf(members).substring(4);
                    bytes = r.tightBytes();
                }
                why = "the members read besides the declared ones: "
                        + String.join(
                                ", ",
                                values.stream().limit(5).map(v -> "'" + v + "'").toList());
            }
            default -> why = "no " + t.declared() + " holds them, so the declared type stays; correct the values";
        }
        List<Finding> findings = new ArrayList<>();
        findings.add(new Finding(
                FindingKind.OUT_OF_TYPE,
                bad.count() + " values lie outside " + t.declared() + " (" + why
                        + (holds != null ? "; " + holds + " holds them" : "") + "); first: " + bad.first(),
                0));
        findings.addAll(r.findings());
        return new ColumnReport(
                r.name(),
                r.declaredType(),
                holds != null ? holds : r.suggestedType(),
                r.declaredBytes(),
                holds != null ? bytes : r.tightBytes(),
                r.nulls(),
                r.distinct(),
                r.min(),
                r.max(),
                findings,
                r.distinctEstimated());
    }
}
