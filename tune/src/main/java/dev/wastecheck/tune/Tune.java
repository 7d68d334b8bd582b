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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        Tuner.Tuned tuned = Tuner.tune(
                from,
                options.traces(),
                options.inference(),
                options.profiling(),
                options.dialect(),
                progress,
                warnings,
                indexes == null);
        Tuner.Result r = tuned.result();
        if (indexes == null && !tuned.indexDrops().isEmpty()) {
            // a dump's: the scripts from its declarations, the bytes from the storage model
            indexes = IndexDrops.declared(
                    r.dialect(), IndexDrops.dumpServerVersion(options.sources()), tuned.indexDrops());
        }
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
        TuneReport.Applied applied = options.apply() == null
                ? null
                : apply(r, script, rollbackFile, options.migrationFile(), options.apply());
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
        return beside(migrationFile, ".rollback.sql");
    }

    /**
     * A script beside the migration: {@code migration.sql} and {@code .rollback.sql} give
     * {@code migration.rollback.sql} (also {@code .resume.sql}, {@code .rebuild.sql},
     * {@code .indexes.sql}, {@code .indexes.drop.sql}, {@code .indexes.rollback.sql}).
     */
    static Path beside(Path migrationFile, String suffix) {
        String name = migrationFile.getFileName().toString();
        String base = name.toLowerCase(Locale.ROOT).endsWith(".sql") ? name.substring(0, name.length() - 4) : name;
        return migrationFile.resolveSibling(base + suffix);
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
    private static TuneReport.Applied apply(
            Tuner.Result r, SqlScript script, Path rollbackFile, Path migrationFile, String url) throws IOException {
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
        out.addAll(halfApplied(o, script, rollbackFile, migrationFile));
        return new TuneReport.Applied(false, out);
    }

    /**
     * What a stopped {@code --apply} left on the database, said so that a DBA can finish it:
     * nothing; or each statement that ran and stays (MySQL commits each ALTER TABLE and UPDATE),
     * the foreign keys dropped and not yet re-created, and the rest of the migration as a script
     * that finishes it once the cause is fixed ({@code migration.resume.sql} beside {@code -o}'s
     * file, else printed): the session settings and lock the migration ran under, then the
     * statements from the one that failed on. It carries no guard: the value guards already
     * passed, its strict sql_mode stops an ALTER at a value that does not fit, and the key-count
     * guard would stop it because the keys are gone. A second {@code tune --apply} is no way out:
     * its guard finds the dropped keys missing and stops.
     */
    static List<String> halfApplied(MigrationRunner.Outcome o, SqlScript script, Path rollbackFile, Path migrationFile)
            throws IOException {
        List<String> out = new ArrayList<>();
        if (o.kept().isEmpty()) {
            out.add("wastecheck: nothing was changed"
                    + (o.stoppedByGuard() ? ": the live database no longer fits the migration" : ""));
            return out;
        }
        out.add("wastecheck: " + o.kept().size() + (o.kept().size() == 1 ? " statement" : " statements")
                + " ran before it and stay applied (MySQL commits each one as it runs; " + o.changesApplied()
                + (o.changesApplied() == 1 ? " column change" : " column changes") + "):");
        o.kept().forEach(k -> out.add("  " + oneLine(k.sql(), 120) + ";"));
        List<String> dropped = new ArrayList<>();
        for (SqlScript.Statement k : o.kept()) {
            Matcher m = DROPPED_KEY.matcher(k.sql());
            while (m.find()) {
                dropped.add(m.group(1));
            }
        }
        if (!dropped.isEmpty()) {
            out.add("wastecheck: the foreign " + (dropped.size() == 1 ? "key " : "keys ") + String.join(", ", dropped)
                    + (dropped.size() == 1 ? " it dropped is" : " it dropped are")
                    + " not re-created yet: the migration re-creates " + (dropped.size() == 1 ? "it" : "them")
                    + " at its end, once both sides have their new type (before that the server refuses "
                    + (dropped.size() == 1 ? "it" : "them") + ")");
        }
        SqlScript resume = new SqlScript();
        resume.comment("wastecheck tune: the rest of a migration that --apply stopped at statement "
                + (o.executed() + 1) + " of " + (o.executed() + 1 + o.notRun().size()) + ":");
        resume.comment("  " + firstLine(o.error()));
        resume.comment("The statements before it ran, and MySQL committed each one. Run this once the cause is fixed,");
        resume.comment(
                "as `mysql DATABASE < migration.resume.sql`: the session and lock the migration ran under, then");
        resume.comment("the statement that failed and every one after it. No guard: the values were checked, and the");
        resume.comment("strict sql_mode stops an ALTER at a value written since that its new type would not hold.");
        script.statements().subList(0, o.executed()).stream()
                .filter(st -> st.role() == SqlScript.Role.SETUP)
                .forEach(resume::statement);
        resume.blank();
        resume.statement(o.failed());
        o.notRun().forEach(resume::statement);
        if (migrationFile != null) {
            Path file = beside(migrationFile, ".resume.sql");
            Files.writeString(file, resume.toString(), StandardCharsets.UTF_8);
            out.add("wastecheck: once the cause above is fixed, " + file + " finishes the migration (the session"
                    + " and lock it ran under, then the statements from the one that failed on)");
        } else {
            out.add("wastecheck: once the cause above is fixed, this finishes the migration (-o FILE writes it to"
                    + " FILE.resume.sql):");
            resume.toString().lines().forEach(l -> out.add("  " + l));
        }
        out.add("wastecheck: "
                + (rollbackFile != null ? rollbackFile.toString() : "migration.rollback.sql (written with -o)")
                + " puts the declared types back once the whole migration has run"
                + (dropped.isEmpty() ? "" : " (it drops the keys itself, which fails while they are missing)"));
        return out;
    }

    private static final Pattern DROPPED_KEY = Pattern.compile("DROP FOREIGN KEY (`(?:[^`]|``)+`)");

    /** {@code sql} on one line, cut at about {@code max} characters. */
    private static String oneLine(String sql, int max) {
        String line = sql.replaceAll("\\s+", " ").strip();
        return line.length() <= max ? line : line.substring(0, max) + " ...";
    }

    private static String firstLine(String sql) {
        String first = sql.lines().findFirst().orElse("");
        return sql.contains("\n") ? first + " ..." : first;
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
