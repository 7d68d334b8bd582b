package dev.wastecheck.sources.load;

import dev.wastecheck.model.Progress;
import dev.wastecheck.sources.Sources;
import java.io.IOException;
import java.sql.SQLException;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads sources into a {@link LoadedSource}, whatever they are: files of any detected kind
 * ({@link FileSourceLoader}), a live database's rows ({@link LiveSourceLoader}), or a live
 * database described in place for a profile that runs on the server ({@link RemoteSourceLoader}).
 */
public interface SourceLoader {
    /**
     * @param keepOrder keep each table's rows in the source's order (page hot-density, replay)
     */
    LoadedSource load(boolean keepOrder, Progress progress) throws IOException, SQLException;

    /**
     * The loader for {@code sources}: files, or a live database whose rows are read here (or,
     * with {@code pushDown}, left on the server).
     *
     * @param env   where a password or user a live URL lacks comes from ({@code System.getenv()})
     * @param notes told what was guessed about the inputs (a format read from content, a file skipped)
     */
    static SourceLoader of(
            Sources sources, LoadOptions options, boolean pushDown, Map<String, String> env, Consumer<String> notes) {
        if (sources.live() == null) {
            return new FileSourceLoader(sources.files(), options, notes);
        }
        return pushDown
                ? new RemoteSourceLoader(sources.live(), options, env)
                : new LiveSourceLoader(sources.live(), options, env);
    }
}
