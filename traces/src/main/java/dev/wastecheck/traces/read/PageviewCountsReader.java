package dev.wastecheck.traces.read;

import java.io.BufferedReader;
import java.io.IOException;
import java.nio.file.Path;

/**
 * Wikimedia pageview counts (dumps.wikimedia.org pagecounts-raw and pageviews): {@code domain title
 * count bytes}, e.g. {@code el Κύριο_Σελίδα 1203 0}. Each line becomes one page request standing for
 * {@code count} views.
 */
final class PageviewCountsReader extends TraceReader {
    PageviewCountsReader(Path file, BufferedReader in, TraceReadOptions options) {
        super(file, in, options);
    }

    @Override
    public TraceFormat format() {
        return TraceFormat.PAGEVIEW_COUNTS;
    }

    @Override
    protected boolean fill() throws IOException {
        String l;
        while ((l = readLine()) != null) {
            if (l.isBlank()) {
                continue;
            }
            String[] f = l.trim().split(" ");
            if (f.length != 4) {
                bad(lineNo(), l, "'domain title count bytes' (four fields separated by spaces)");
                continue;
            }
            long count;
            try {
                count = Long.parseLong(f[2]);
                Long.parseLong(f[3]);
            } catch (NumberFormatException e) {
                bad(lineNo(), l, "whole numbers for count and bytes");
                continue;
            }
            String decoded = f[1].indexOf('%') >= 0 ? urlDecode(f[1]) : f[1];
            if (decoded == null) {
                bad(lineNo(), l, "a URL-encoded title");
                continue;
            }
            Object[] name = pageName(decoded);
            if (name[1] == null) {
                skip("not a page: special or media namespace");
                continue;
            }
            if (count <= 0) {
                skip("zero views");
                continue;
            }
            emit(new PageRequest((Integer) name[0], (String) name[1], PageRequest.Action.VIEW, count, lineNo(), -1));
            return true;
        }
        return false;
    }
}
