package dev.wastecheck.cli.render;

import java.io.FilterWriter;
import java.io.IOException;
import java.io.Writer;

/**
 * A writer Jackson may close: it flushes instead. Jackson closes what it writes to
 * ({@code AUTO_CLOSE_TARGET}), but the caller owns the writer, which is often standard output
 * with more to print after the JSON (a warning, a check's verdict).
 */
final class NonClosingWriter extends FilterWriter {
    NonClosingWriter(Writer w) {
        super(w);
    }

    @Override
    public void close() throws IOException {
        flush();
    }
}
