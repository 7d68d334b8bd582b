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
     * {@code analyze --sample PERCENT} of the same server: it must run on a real schema (every
     * suggestion's check is valid SQL there), count every table's rows exactly, and say how much
     * it checked. Prints how often its suggested type equals the full read's (a sample may keep a
     * declared type the full read narrows, or find too little evidence).
     */
    static JsonNode sampled(String url, JsonNode full, int percent) {
        Cli.Result r = Cli.run("analyze", "--format", "json", "-q", "--sample", String.valueOf(percent), url);
        assertThat(r.exitCode()).as(r.err()).isZero();
        JsonNode s = r.json();
        Map<String, JsonNode> fullTables = new TreeMap<>();
        full.get("tables").forEach(t -> fullTables.put(t.get("name").asText(), t));
        int same = 0, columns = 0;
        for (JsonNode t : s.get("tables")) {
            JsonNode f = fullTables.get(t.get("name").asText());
            assertThat(f).as(t.get("name").asText()).isNotNull();
            assertThat(t.get("rows").asLong())
                    .as(t.get("name").asText())
                    .isEqualTo(f.get("rows").asLong());
            Map<String, String> fullTypes = new TreeMap<>();
            f.get("columns")
                    .forEach(c -> fullTypes.put(
                            c.get("name").asText(), c.get("suggested_type").asText()));
            for (JsonNode c : t.get("columns")) {
                columns++;
                String fullType = fullTypes.get(c.get("name").asText());
                if (c.get("suggested_type").asText().equals(fullType)) same++;
                else
                    System.out.printf(
                            "SAMPLE DIFF %s.%s: full %s | sample %s: %s%n",
                            t.get("name").asText(),
                            c.get("name").asText(),
                            fullType,
                            c.get("suggested_type").asText(),
                            Cli.kinds(c).contains("kept_declared") ? Cli.detail(c, "kept_declared") : Cli.kinds(c));
            }
        }
        System.out.printf(
                "SAMPLE %d%% of %s: %d of %d columns suggest what the full read does; %s%n",
                percent, url.replaceAll("\\?.*", ""), same, columns, s.get("sample"));
        return s;
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
                // a profile run inside the server searches no functional dependencies (its rows
                // stay there; the report says so): the dump's report has them, the live one not
                kinds.removeAll(java.util.List.of("functional_dependency", "near_dependency"));
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
