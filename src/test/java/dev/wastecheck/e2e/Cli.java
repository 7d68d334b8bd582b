package dev.wastecheck.e2e;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.wastecheck.cli.Main;
import dev.wastecheck.model.RealData;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.StreamSupport;

/** Runs the real {@code wastecheck} command line in-process and captures what it prints. */
final class Cli {
    private static final ObjectMapper JSON = new ObjectMapper();

    record Result(int exitCode, String out, String err) {
        JsonNode json() {
            try {
                return JSON.readTree(out);
            } catch (Exception e) {
                throw new AssertionError("not JSON (exit " + exitCode + ", stderr: " + err + "):\n" + out, e);
            }
        }
    }

    private Cli() {}

    static Result run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(args, new PrintWriter(out), new PrintWriter(err));
        return new Result(code, out.toString(), err.toString());
    }

    /** {@code wastecheck analyze --format json -q SOURCE...}, which must succeed. */
    static JsonNode analyzeJson(Object... sources) {
        List<String> args = new ArrayList<>(List.of("analyze", "--format", "json", "-q"));
        for (Object s : sources) {
            args.add(s.toString());
        }
        Result r = run(args.toArray(new String[0]));
        if (r.exitCode() != 0) {
            throw new AssertionError("exit " + r.exitCode() + ": " + r.err());
        }
        return r.json();
    }

    static JsonNode table(JsonNode report, String name) {
        return StreamSupport.stream(report.get("tables").spliterator(), false)
                .filter(t -> t.get("name").asText().equalsIgnoreCase(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no table " + name + " in the report"));
    }

    /**
     * A column's report without the functional-dependency findings, which only a profile of rows
     * read into the local DuckDB searches: a profile pushed into a server or Trino leaves the rows
     * there and says so in a warning (docs/analyze.md).
     */
    static JsonNode withoutDependencies(JsonNode column) {
        ObjectNode c = column.deepCopy();
        ArrayNode findings = c.putArray("findings");
        for (JsonNode f : column.get("findings")) {
            String kind = f.get("kind").asText();
            if (!kind.equals("functional_dependency") && !kind.equals("near_dependency")) {
                findings.add(f);
            }
        }
        return c;
    }

    static JsonNode column(JsonNode report, String table, String column) {
        return StreamSupport.stream(table(report, table).get("columns").spliterator(), false)
                .filter(c -> c.get("name").asText().equalsIgnoreCase(column))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no column " + table + "." + column));
    }

    static List<String> kinds(JsonNode column) {
        return StreamSupport.stream(column.get("findings").spliterator(), false)
                .map(f -> f.get("kind").asText())
                .toList();
    }

    static String detail(JsonNode column, String kind) {
        return StreamSupport.stream(column.get("findings").spliterator(), false)
                .filter(f -> f.get("kind").asText().equals(kind))
                .map(f -> f.get("detail").asText())
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind + " finding on " + column));
    }

    /** The real databases at ../shared/data from the project root (read-only, never edited); a missing one fails the test. */
    static Path data(String relative) {
        return RealData.file(relative);
    }
}
