package dev.wastecheck.sources.load;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import dev.wastecheck.sources.DumpFormatException;
import dev.wastecheck.sources.SourceDetector.DetectedFile;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Checks a JSON source from end to end before DuckDB reads it, with a streaming parser (no tree
 * in memory): strict syntax, so an error is exit 2 at {@code file:line:column} (DuckDB's reader
 * lets a trailing comma through), records that are objects (or scalars inside an array), and
 * nesting no deeper than DuckDB's reader recurses (128 levels). Returns the layout to tell
 * DuckDB's {@code read_json}.
 */
final class JsonCheck {
    /** DuckDB's JSON reader stops at 128 levels; refuse deeper input ourselves, with the line. */
    static final int MAX_DEPTH = 128;

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(
                    StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build();

    private JsonCheck() {}

    /** {@code array} for one top-level array, {@code unstructured} for a sequence of objects (NDJSON or not). */
    static String check(DetectedFile f) throws IOException {
        try (InputStream in = f.open(new AtomicLong());
                JsonParser p = FACTORY.createParser(in)) {
            JsonToken first = p.nextToken();
            long records = 0;
            String format;
            if (first == JsonToken.START_ARRAY) {
                format = "array";
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == null) {
                        throw error(f, p, "the closing ] of the top-level array", "the end of the file");
                    }
                    if (t == JsonToken.START_ARRAY) {
                        throw error(f, p, "an object (one record) in the top-level array", "an array");
                    }
                    p.skipChildren();
                    records++;
                }
                if (p.nextToken() != null) {
                    throw error(f, p, "the end of the file after the top-level array", "more JSON");
                }
            } else if (first == JsonToken.START_OBJECT) {
                format = "unstructured";
                JsonToken t = first;
                while (t != null) {
                    if (t != JsonToken.START_OBJECT) {
                        throw error(f, p, "an object (one record per object)", describe(t));
                    }
                    p.skipChildren();
                    records++;
                    t = p.nextToken();
                }
            } else {
                throw error(
                        f,
                        p,
                        "an array of objects or objects (one per record)",
                        first == null ? "nothing" : describe(first));
            }
            if (records == 0) {
                throw new DumpFormatException(f.name() + ": the JSON holds no records (an empty array)");
            }
            return format;
        } catch (StreamConstraintsException e) {
            throw new DumpFormatException(f.name() + ":" + line(e) + ": expected JSON nested at most " + MAX_DEPTH
                    + " levels deep, found deeper nesting");
        } catch (JsonProcessingException e) {
            throw new DumpFormatException(f.name() + ":" + line(e) + ": invalid JSON: " + e.getOriginalMessage());
        }
    }

    private static String line(JsonProcessingException e) {
        return e.getLocation() == null
                ? "1"
                : e.getLocation().getLineNr() + ":" + e.getLocation().getColumnNr();
    }

    private static DumpFormatException error(DetectedFile f, JsonParser p, String expected, String found) {
        var loc = p.currentTokenLocation();
        return new DumpFormatException(
                f.name(), loc.getLineNr(), expected, found + " (column " + loc.getColumnNr() + ")");
    }

    private static String describe(JsonToken t) {
        return switch (t) {
            case START_ARRAY -> "an array";
            case VALUE_STRING -> "a string";
            case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> "a number";
            case VALUE_TRUE, VALUE_FALSE -> "a boolean";
            case VALUE_NULL -> "null";
            default -> t.toString();
        };
    }
}
