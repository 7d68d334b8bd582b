package dev.wastecheck.sources;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.util.Locale;

/**
 * A file named as JSON whose content is JSON scalars at the top level ({@code 42}, {@code "x"},
 * {@code true}, or several of them): no record in it, so it is refused rather than read as a CSV
 * of one column. Content still decides the format (docs/inputs.md): a {@code .json} file holding
 * {@code a,b} or {@code 1,2} is not JSON and stays CSV, with the note saying so.
 */
final class JsonScalars {
    private static final JsonFactory FACTORY = new JsonFactory();

    private JsonScalars() {}

    /** Throws when {@code name} says JSON and {@code text} (from its first significant character) parses as scalars only. */
    static void refuse(String text, String name) {
        String n = name.toLowerCase(Locale.ROOT);
        if (n.endsWith(".gz")) {
            n = n.substring(0, n.length() - 3);
        }
        if (!(n.endsWith(".json") || n.endsWith(".jsonl") || n.endsWith(".ndjson"))) {
            return;
        }
        JsonToken first = null;
        try (JsonParser p = FACTORY.createParser(text)) {
            first = p.nextToken();
            if (first == null || !first.isScalarValue()) {
                return;
            }
            // every further top-level token a scalar too
            for (JsonToken t = p.nextToken(); t != null; t = p.nextToken()) {
                if (!t.isScalarValue()) {
                    return;
                }
            }
        } catch (IOException e) {
            // not JSON (CSV in a .json file): read as CSV, as the content says; only the sniffed
            // prefix ending inside a scalar still counts as scalars
            if (first == null || e.getMessage() == null || !e.getMessage().contains("end-of-input")) {
                return;
            }
        }
        throw new DumpFormatException(
                name,
                1,
                "a JSON array of objects, or objects one per record",
                "a bare JSON " + describe(first) + " at the top level (no record to read)");
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case VALUE_STRING -> "string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "number";
            case VALUE_TRUE, VALUE_FALSE -> "boolean";
            case VALUE_NULL -> "null";
            default -> t.toString();
        };
    }
}
