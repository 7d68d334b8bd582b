package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TypeParser;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The advice policy's invariants, checked on any {@code analyze --format json} report
 * (docs/analyze.md, "What the database will need"): the same checks for the shipped example,
 * generated databases and the real ones in ../shared/data.
 */
final class Advice {
    private Advice() {}

    static Dialect dialect(JsonNode report) {
        return Dialect.valueOf(report.get("dialect").asText().toUpperCase(Locale.ROOT));
    }

    static SqlType type(JsonNode report, String text) {
        return TypeParser.parse(text, dialect(report));
    }

    /** Declared and suggested type of {@code table.column}. */
    static SqlType[] types(JsonNode report, String table, String column) {
        JsonNode c = Cli.column(report, table, column);
        return new SqlType[] {
            type(report, c.get("declared_type").asText()),
            type(report, c.get("suggested_type").asText())
        };
    }

    static int suggestedBits(JsonNode report, String table, String column) {
        return types(report, table, column)[1].intBits();
    }

    /**
     * Every column that refers to a key, and every key referred to, keeps at least 4 bytes (or its
     * declared width, when narrower): no key or reference becomes a TINYINT, SMALLINT or MEDIUMINT.
     */
    static void keysAndReferencesKeepTheFloor(JsonNode report) {
        for (JsonNode r : report.get("references")) {
            for (String[] side : new String[][] {
                {r.get("table").asText(), r.get("column").asText()},
                {r.get("key_table").asText(), r.get("key_column").asText()}
            }) {
                SqlType[] t = types(report, side[0], side[1]);
                if (t[0].isInteger()) {
                    assertThat(t[1].intBits())
                            .as(side[0] + "." + side[1] + " " + t[0].declared() + " -> " + t[1].declared())
                            .isGreaterThanOrEqualTo(Math.min(32, t[0].intBits()));
                }
            }
        }
    }

    /**
     * Every reference takes exactly its key's type: the same width after the advice, unless the
     * reference was declared narrower than its key and stays as declared (it is never widened).
     */
    static void referencesTakeTheirKeysType(JsonNode report) {
        for (JsonNode r : report.get("references")) {
            SqlType[] ref =
                    types(report, r.get("table").asText(), r.get("column").asText());
            SqlType[] key = types(
                    report, r.get("key_table").asText(), r.get("key_column").asText());
            if (!ref[0].isInteger() || !key[0].isInteger()) {
                continue;
            }
            String what = r.get("table").asText() + "." + r.get("column").asText() + " -> "
                    + r.get("key_table").asText() + "." + r.get("key_column").asText();
            if (ref[1].intBits() != key[1].intBits()) {
                assertThat(ref[1])
                        .as(what + ": a reference narrower than its key only as declared")
                        .isEqualTo(ref[0]);
                assertThat(ref[0].intBits()).as(what).isLessThan(key[1].intBits());
            }
        }
    }

    /** The suggested types of the columns named {@code *_namespace}: one type for the whole domain. */
    static List<String> namespaceTypes(JsonNode report) {
        List<String> out = new ArrayList<>();
        for (JsonNode t : report.get("tables")) {
            for (JsonNode c : t.get("columns")) {
                if (c.get("name").asText().toLowerCase(Locale.ROOT).endsWith("namespace")) {
                    out.add(c.get("suggested_type")
                            .asText()
                            .toUpperCase(Locale.ROOT)
                            .replaceAll("\\(\\d+\\)", ""));
                }
            }
        }
        return out;
    }
}
