package dev.wastecheck.autotune;

import dev.wastecheck.engine.exec.EngineConfig;
import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.replay.ReplaySource;
import java.io.IOException;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The search's screening step: one table alone in one design, at its share of the budget, replayed
 * on its {@linkplain TraceSplit#screeningTraining screening training} and then a prefix of its
 * held-out events. Each (table, design, prefix) replays once; the per-table and the uniform
 * searches share what they both ask for.
 */
final class Screening {
    /** A screened candidate: the run, and its modeled cost per query ({@link Autotune#modeledUs}). */
    record Score(ExecutionResult run, double modeled) {}

    private final ReplaySource src;
    private final DeviceModel device;
    private final TraceSplit split;
    private final Consumer<String> warnings;
    private final Map<String, Score> screened = new HashMap<>();
    private long runs, nanos;

    Screening(ReplaySource src, DeviceModel device, TraceSplit split, Consumer<String> warnings) {
        this.src = src;
        this.device = device;
        this.split = split;
        this.warnings = warnings;
    }

    /** {@code table} alone in design {@code d}: its screening training, then the first {@code prefix} of its held-out events. */
    Score screen(String table, TableDesign d, double prefix) throws IOException, SQLException {
        String k = key(table, d, prefix);
        Score known = screened.get(k);
        if (known != null) return known;
        List<AccessEvent> train = split.screeningTraining(table);
        List<AccessEvent> held = split.heldOut(table);
        int n = (int) Math.ceil(held.size() * prefix);
        List<AccessEvent> evs = new ArrayList<>(train.size() + n);
        evs.addAll(train);
        evs.addAll(held.subList(0, n));
        EngineConfig cfg = EngineConfig.builder(
                        table + ": " + d.describe(), split.shares().get(table))
                .tables(Map.of(table, d))
                .build();
        ExecutionResult r;
        long t0 = System.nanoTime();
        try {
            r = src.screen(
                    cfg,
                    table + " " + d.describe() + " @" + Math.round(100 * prefix) + "%",
                    train,
                    evs,
                    train.size(),
                    device);
        } catch (BadInputException lossy) {
            // A design whose tight types cannot hold a value of the table: it is no candidate.
            warnings.accept("autotune: " + table + " " + d.describe() + " rejected: " + lossy.getMessage());
            Score bad = new Score(ExecutionResult.empty(), Double.MAX_VALUE);
            screened.put(k, bad);
            return bad;
        }
        runs++;
        nanos += System.nanoTime() - t0;
        Score s = new Score(r, Autotune.modeledUs(r));
        screened.put(k, s);
        return s;
    }

    /** The score of a candidate screened already, or null. */
    Score screened(String table, TableDesign d, double prefix) {
        return screened.get(key(table, d, prefix));
    }

    /** Candidates replayed (a lossy design's failed load not counted). */
    long runs() {
        return runs;
    }

    /** Time spent replaying candidates, in milliseconds. */
    long millis() {
        return nanos / 1_000_000;
    }

    private static String key(String table, TableDesign d, double prefix) {
        return table.toLowerCase(Locale.ROOT) + "|" + d.describe() + "|" + prefix;
    }
}
