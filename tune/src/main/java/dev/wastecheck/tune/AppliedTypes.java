package dev.wastecheck.tune;

import dev.wastecheck.analyzer.check.Conversion;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.Names;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeParser;
import java.util.Locale;

/**
 * Whether a live column already has the type a change gives it: the test behind "already
 * applied", which makes a second {@code tune --apply} of the same migration a no-op rather than a
 * guard's failure (a DATETIME column checked as if it still held 14-digit text).
 */
final class AppliedTypes {
    private AppliedTypes() {}

    /**
     * @param live the server's spelling ({@code format_type}, {@code COLUMN_TYPE}): {@code smallint(6)},
     *             {@code character varying(20)}, {@code public.orders_status_enum}
     */
    static boolean same(String live, Conversion change, Dialect dialect) {
        if (dialect == Dialect.POSTGRESQL && change.kind() == FindingKind.LOW_CARDINALITY) {
            // the enum type tune created, by name
            return Names.simpleName(live).replace("\"", "").equalsIgnoreCase(change.target());
        }
        // MySQL's display widths (smallint(6), tinyint(1)) say nothing about what a column holds
        String spelled = dialect == Dialect.MYSQL
                ? live.replaceAll("(?i)\\b(tinyint|smallint|mediumint|int|integer|bigint)\\s*\\(\\d+\\)", "$1")
                : live;
        SqlType a;
        SqlType b;
        try {
            a = TypeParser.parse(spelled, dialect);
            b = TypeParser.parse(change.target(), dialect);
        } catch (RuntimeException e) {
            return false;
        }
        if (a.family() != b.family()) {
            return false;
        }
        if (a.isInteger()) {
            return a.intBits() == b.intBits() && a.unsigned() == b.unsigned();
        }
        return switch (a.family()) {
            case CHAR, VARCHAR, BINARY, VARBINARY -> a.length() == b.length();
            case DECIMAL -> a.precision() == b.precision() && a.scale() == b.scale();
            case ENUM -> a.enumValues().equals(b.enumValues());
            default -> zoned(a.declared()) == zoned(b.declared());
        };
    }

    private static boolean zoned(String type) {
        String t = type.toLowerCase(Locale.ROOT);
        return t.contains("with time zone") || t.contains("timestamptz");
    }
}
