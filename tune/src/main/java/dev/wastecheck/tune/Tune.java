package dev.wastecheck.tune;

import dev.wastecheck.model.BadInputException;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.Sources;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code wastecheck tune} as a library: the migration that gives every column its tightest
 * lossless type, each change checked on every row of a tuned copy ({@link Tuner}), written in the
 * source's dialect ({@link Migration}), its rollback beside it, and, when asked, run on a live
 * database ({@link MigrationRunner}). It renders nothing: the command prints the script or its
 * JSON and the summary this returns.
 */
public final class Tune {
    private Tune() {}

    /**
     * @param warnings told what was guessed about the inputs (a format read from content, a file
     *                 skipped), one sentence each, as analyze tells them
     */
    public static TuneReport run(TuneOptions options, Progress progress, Consumer<String> warnings)
            throws IOException, SQLException {
        if (options.apply() != null) {
            MigrationRunner.dialectOf(options.apply()); // a URL tune cannot apply to fails before the work
        }
        Sources from = Sources.of(options.sources());
        if (from.live() != null && from.live().dialect() == Dialect.TRINO) {
            throw new BadInputException(from.live().display()
                    + ": tune writes migrations for PostgreSQL, MySQL/MariaDB and SQLite; Trino keeps no tables of its"
                    + " own to migrate (analyze it to see what its connectors' tables waste)");
        }
        // index drops first: their evidence is the server's counts before tune's own reads add to them
        IndexDrops indexes = IndexDrops.plan(from, options.traces(), options.profiling(), progress, warnings);
        Tuner.Result r = Tuner.tune(
                from,
                options.traces(),
                options.inference(),
                options.profiling(),
                options.dialect(),
                progress,
                warnings);
        SqlScript script = Migration.script(r);
        SqlScript rollback = Migration.rollback(r);
        Path rollbackFile = null;
        if (rollback != null && options.migrationFile() != null) {
            rollbackFile = rollbackPath(options.migrationFile());
            Files.writeString(rollbackFile, rollback.toString(), StandardCharsets.UTF_8);
        }
        List<String> summary = new ArrayList<>(summary(r));
        // empty page space: migration.rebuild.sql
        List<TuneReport.Rebuild> rebuilds = Rebuilds.write(r, from, options.migrationFile(), summary);
        TuneReport.Applied applied = options.apply() == null ? null : apply(r, script, rollbackFile, options.apply());
        if (indexes != null) {
            summary.addAll(indexes.write(options.migrationFile()));
            applied = options.apply() == null || !applied.succeeded()
                    ? applied
                    : applied.and(indexes.apply(options.apply()));
        }
        return new TuneReport(
                r,
                script,
                rollbackFile,
                summary,
                applied,
                indexes == null ? List.of() : indexes.entries(options.migrationFile()),
                rebuilds);
    }

    /** {@code migration.sql} -> {@code migration.rollback.sql}. */
    public static Path rollbackPath(Path migrationFile) {
        String name = migrationFile.getFileName().toString();
        String base = name.toLowerCase(Locale.ROOT).endsWith(".sql") ? name.substring(0, name.length() - 4) : name;
        return migrationFile.resolveSibling(base + ".rollback.sql");
    }

    /** What was changed and measured, one sentence each; lines indented by spaces continue the one before. */
    static List<String> summary(Tuner.Result r) {
        List<String> out = new ArrayList<>();
        int applied = r.tables().stream().mapToInt(t -> t.applied().size()).sum();
        int left = Migration.leftOut(r).size();
        out.add(String.format(
                Locale.ROOT,
                "wastecheck tune: %d %s, checked on every row (%d rows); bytes %d -> %d (%s); %d %s left out%s",
                applied,
                applied == 1 ? "change" : "changes",
                r.rowsChecked(),
                r.bytesBefore(),
                r.bytesAfter(),
                Migration.ratio(r.bytesBefore(), r.bytesAfter()),
                left,
                left == 1 ? "suggestion" : "suggestions",
                left > 0 ? " (the migration ends with why)" : ""));
        for (String a : Migration.altered(r)) {
            out.add("wastecheck tune: " + a);
        }
        long representation =
                r.skipped().stream().filter(Tuner.Skipped::representation).count();
        if (representation > 0) {
            out.add("wastecheck tune: " + representation
                    + (representation == 1 ? " suggestion changes" : " suggestions change")
                    + " what the application reads and " + (representation == 1 ? "is" : "are")
                    + " left out by default: --representation TABLE.COLUMN,... (or all) applies "
                    + (representation == 1 ? "it" : "them"));
        }
        if (r.workload() != null) {
            out.add("wastecheck tune: " + r.workload().describe());
            r.workload().unreplayedExamples().forEach(x -> out.add("  not replayed: " + x));
        }
        long[] heap = r.heapTotal();
        if (heap != null) {
            out.add(String.format(
                    Locale.ROOT,
                    "wastecheck tune: PostgreSQL heap, alignment and pages included: %d -> %d bytes (%s)",
                    heap[0],
                    heap[1],
                    Migration.ratio(heap[0], heap[1])));
        }
        long[] innodb = r.innodbTotal();
        if (innodb != null) {
            out.add(String.format(
                    Locale.ROOT,
                    "wastecheck tune: InnoDB data and indexes, as OPTIMIZE TABLE leaves them: %d -> %d bytes (%s)",
                    innodb[0],
                    innodb[1],
                    Migration.ratio(innodb[0], innodb[1])));
        }
        return out;
    }

    /**
     * {@code --apply}: the printed statements on the live database, stopping at the first that
     * fails. A change the database already has (the column is of the new type: an earlier run
     * applied it) is said to be "already applied" and left out of what runs, so a second
     * {@code --apply} of the same migration does nothing and says why.
     */
    private static TuneReport.Applied apply(Tuner.Result r, SqlScript script, Path rollbackFile, String url) {
        List<String> out = new ArrayList<>();
        Tuner.Result pending = withoutApplied(r, url, out);
        if (pending != r) {
            script = Migration.script(pending);
            r = pending;
        }
        if (!script.hasChanges()) {
            out.add("wastecheck tune: --apply: "
                    + (out.isEmpty() ? "the migration changes nothing" : "every change is already applied")
                    + "; nothing to apply");
            return new TuneReport.Applied(true, out);
        }
        MigrationRunner.Outcome o = MigrationRunner.apply(script, r.dialect(), url);
        int total = script.statements().size();
        if (o.succeeded()) {
            out.add(String.format(
                    Locale.ROOT,
                    "wastecheck tune: applied: %d statements, %d %s, on %s",
                    o.executed(),
                    o.changesApplied(),
                    o.changesApplied() == 1 ? "change" : "changes",
                    r.dialect().label()));
            return new TuneReport.Applied(true, out);
        }
        String first = o.failed().sql().lines().findFirst().orElse("");
        out.add("wastecheck: --apply stopped at statement " + (o.executed() + 1) + " of " + total + " (" + first
                + (o.failed().sql().contains("\n") ? " ..." : "") + "): " + o.error());
        if (o.changesApplied() == 0) {
            out.add("wastecheck: nothing was changed"
                    + (o.stoppedByGuard() ? ": the live database no longer fits the migration" : ""));
        } else {
            out.add("wastecheck: " + o.changesApplied()
                    + " changes were applied before it (MySQL commits each ALTER TABLE); "
                    + (rollbackFile != null
                            ? rollbackFile + " puts the declared types back"
                            : "`wastecheck tune ... -o migration.sql` writes migration.rollback.sql, which puts the"
                                    + " declared types back"));
        }
        return new TuneReport.Applied(false, out);
    }

    /**
     * {@code r} without the changes the live database already has, each told to {@code out} as
     * already applied; {@code r} itself when there are none.
     */
    static Tuner.Result withoutApplied(Tuner.Result r, String url, List<String> out) {
        List<String[]> columns = new ArrayList<>();
        for (Tuner.TableResult t : r.tables()) {
            for (Tuner.Checked c : t.applied()) {
                columns.add(new String[] {
                    t.name(), r.schemaOf(t.name()), c.conversion().column().name()
                });
            }
        }
        if (columns.isEmpty() || MigrationRunner.dialectOf(url) != r.dialect()) {
            return r; // nothing to look up, or a URL of another engine, which apply refuses with why
        }
        Map<String, String> live = MigrationRunner.liveTypes(url, r.dialect(), columns);
        List<Tuner.TableResult> tables = new ArrayList<>();
        boolean any = false;
        for (Tuner.TableResult t : r.tables()) {
            List<Tuner.Checked> keep = new ArrayList<>();
            for (Tuner.Checked c : t.changes()) {
                String type = live.get((t.name() + "." + c.conversion().column().name()).toLowerCase(Locale.ROOT));
                if (c.lossless() && type != null && AppliedTypes.same(type, c.conversion(), r.dialect())) {
                    out.add("wastecheck tune: already applied: " + t.name() + "."
                            + c.conversion().column().name() + " is " + type + " on the server");
                    any = true;
                } else {
                    keep.add(c);
                }
            }
            tables.add(new Tuner.TableResult(t.name(), t.rows(), keep, t.bytesBefore()));
        }
        if (!any) {
            return r;
        }
        return new Tuner.Result(
                r.dialect(),
                r.sources(),
                tables,
                r.skipped(),
                r.altered(),
                Tuner.viewsOver(r.views(), tables),
                r.heap(),
                r.schemas(),
                r.foreignKeys(),
                r.innodb(),
                r.workload());
    }
}
