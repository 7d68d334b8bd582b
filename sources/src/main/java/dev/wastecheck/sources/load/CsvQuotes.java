package dev.wastecheck.sources.load;

import dev.wastecheck.sources.DumpFormatException;
import dev.wastecheck.sources.GzipInput;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Finds a quote that opens a CSV field and is never closed. RFC 4180 (section 2, rules 5-7): a
 * field that starts with {@code "} runs to the next {@code "} not doubled, across line breaks.
 * One such quote left open makes every later line part of one field; DuckDB's sniffer then picks
 * "no quoting" for the whole file and loads every row, the quote kept as a character of the value
 * (measured with duckdb_jdbc 2.0.0.1: 299 of 299 rows, no reject). Since no reading of the rows after it is
 * right, the file is refused at the line the quote opened, as a SQL script that ends inside a
 * string is (docs/inputs.md).
 *
 * <p>A field starts at the start of a line or after any of the delimiters DuckDB sniffs
 * ({@code , ; | TAB}), spaces skipped; a {@code "} inside an unquoted field ({@code 5'11"}) opens
 * nothing. One pass over the bytes, about a gigabyte a second.
 */
final class CsvQuotes {
    private CsvQuotes() {}

    static void check(Path file, String display, boolean gzip) throws IOException {
        try (InputStream raw = Files.newInputStream(file);
                InputStream in = gzip ? GzipInput.open(raw, display) : raw) {
            byte[] buf = new byte[1 << 20];
            long line = 1;
            long openedAt = 0;
            boolean quoted = false;
            boolean fieldStart = true;
            boolean pendingQuote = false; // a " inside a quoted field, not yet known to be doubled
            int n;
            while ((n = in.read(buf)) > 0) {
                for (int i = 0; i < n; i++) {
                    byte b = buf[i];
                    if (pendingQuote) {
                        pendingQuote = false;
                        if (b == '"') {
                            continue; // "" inside a quoted field
                        }
                        quoted = false;
                        fieldStart = false;
                    }
                    if (quoted) {
                        if (b == '"') {
                            pendingQuote = true;
                        } else if (b == '\n') {
                            line++;
                        }
                        continue;
                    }
                    switch (b) {
                        case '\n' -> {
                            line++;
                            fieldStart = true;
                        }
                        case ',', ';', '|', '\t' -> fieldStart = true;
                        case ' ', '\r' -> {
                            // spaces before a quote still start the field
                        }
                        case '"' -> {
                            if (fieldStart) {
                                quoted = true;
                                openedAt = line;
                            }
                            fieldStart = false;
                        }
                        default -> fieldStart = false;
                    }
                }
            }
            if (quoted && !pendingQuote) {
                throw new DumpFormatException(
                        display,
                        openedAt,
                        "a closing quote for the field quoted here (RFC 4180)",
                        "the end of the file: the quote is never closed, so every line after it would be part of"
                                + " one field");
            }
        }
    }
}
