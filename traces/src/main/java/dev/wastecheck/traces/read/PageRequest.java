package dev.wastecheck.traces.read;

/**
 * A request for a wiki page from a URL trace or pageview counts.
 *
 * @param namespace MediaWiki namespace number (0 for articles, 1 Talk, 2 User, ...)
 * @param title     the title as stored in {@code page_title}: no namespace prefix, spaces as underscores
 * @param count     how many requests the record stands for (1 for a URL trace line)
 */
public record PageRequest(int namespace, String title, Action action, long count, long line, long timeMillis)
        implements TraceRecord {
    public enum Action {
        VIEW,
        EDIT
    }
}
