package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code analyze} advises, table by table and column by column (rows; declared and suggested
 * type; finding kinds), to compare a live server's report with its dump's.
 */
final class LiveAdvice {
    private LiveAdvice() {}

    /**
     * @param explained column (or table) keys whose advice may differ, each with why
     */
    static void compare(JsonNode live, JsonNode dump, Map<String, String> explained) {
        Map<String, String> a = advice(live);
        Map<String, String> b = advice(dump);
        explained.keySet().forEach(k -> {
            a.remove(k);
            b.remove(k);
        });
        Map<String, String> diff = new TreeMap<>();
        for (String k : a.keySet()) {
            if (!a.get(k).equals(b.get(k))) diff.put(k, "live " + a.get(k) + " | dump " + b.get(k));
        }
        for (String k : b.keySet()) {
            if (!a.containsKey(k)) diff.put(k, "live - | dump " + b.get(k));
        }
        diff.forEach((k, v) -> System.out.println("DIFF " + k + ": " + v));
        assertThat(diff).isEmpty();
    }

    /**
     * A type as the server spells it back: lower case, MySQL's integer display widths dropped,
     * NVARCHAR as varchar and NUMERIC as decimal (MariaDB stores them so; {@code SHOW CREATE
     * TABLE} says what the column is, the dump what its author wrote).
     */
    static String spelling(String type) {
        String t = type.toLowerCase(java.util.Locale.ROOT);
        t = t.replaceAll("^(tinyint|smallint|mediumint|int|bigint)\\(\\d+\\)", "$1");
        t = t.replaceAll("^nvarchar", "varchar").replaceAll("^nchar", "char").replaceAll("^numeric", "decimal");
        t = t.replaceAll("^(boolean|bool)$", "tinyint").replaceAll("^year\\(4\\)", "year");
        t = t.replaceAll("^int$", "integer").replaceAll("^varchar", "character varying");
        t = t.replaceAll("^timestamp without time zone", "timestamp");
        return t;
    }

    private static Map<String, String> advice(JsonNode report) {
        Map<String, String> out = new TreeMap<>();
        for (JsonNode t : report.get("tables")) {
            String table = t.get("name").asText().toLowerCase(java.util.Locale.ROOT);
            out.put(table, "rows " + t.get("rows").asLong());
            for (JsonNode c : t.get("columns")) {
                java.util.List<String> kinds = new java.util.ArrayList<>(Cli.kinds(c));
                kinds.sort(null);
                out.put(
                        table + "." + c.get("name").asText().toLowerCase(java.util.Locale.ROOT),
                        spelling(c.get("declared_type").asText()) + " -> "
                                + spelling(c.get("suggested_type").asText()) + " " + kinds);
            }
        }
        return out;
    }
}
