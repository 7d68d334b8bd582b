package dev.wastecheck.sources;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The SOURCE arguments of a command: files, folders and {@code -}, or one live database named by a
 * JDBC URL ({@link LiveSource}). A URL is told apart before any path is made of it (a path would
 * fold its {@code //}).
 *
 * @param files the files, folders and {@code -}, in the order given; empty for a live source
 * @param live  the live database, or null
 */
public record Sources(List<Path> files, LiveSource live) {
    public Sources {
        files = List.copyOf(files);
    }

    /**
     * @throws DumpFormatException for a URL given beside other sources (a live database is read
     *     alone), or a URL of an engine that cannot be a live source
     */
    public static Sources of(List<String> args) {
        List<Path> files = new ArrayList<>();
        LiveSource live = null;
        for (String a : args) {
            SourceSet.refuseClientUrl(a); // postgresql://...: "did you mean jdbc:postgresql://...?"
            if (LiveSource.isUrl(a)) {
                if (live != null || !files.isEmpty()) {
                    throw new DumpFormatException(LiveSource.redacted(a)
                            + ": a live database is read alone; give its URL as the only SOURCE");
                }
                live = LiveSource.parse(a);
            } else if (live != null) {
                throw new DumpFormatException(a + ": a live database is read alone; give its URL as the only SOURCE");
            } else {
                files.add(Path.of(a));
            }
        }
        return new Sources(files, live);
    }

    /** Files only. */
    public static Sources ofFiles(List<Path> files) {
        return new Sources(files, null);
    }

    /**
     * Whether the sources can be read a second time: files and folders, not a live database (it
     * may change between reads), not standard input ({@code -}, {@code /dev/stdin}) nor a named
     * pipe or device, which are read once.
     */
    public boolean rereadable() {
        if (live != null) {
            return false;
        }
        for (Path p : files) {
            String s = p.toString();
            if (s.equals("-") || s.equals("/dev/stdin") || s.equals("/dev/fd/0") || s.equals("/proc/self/fd/0")) {
                return false;
            }
            if (!Files.isRegularFile(p) && !Files.isDirectory(p)) {
                return false;
            }
        }
        return true;
    }

    /** What the sources are called in messages and reports (a URL without its password). */
    public List<String> names() {
        return live != null
                ? List.of(live.display())
                : files.stream().map(Path::toString).toList();
    }
}
