package dev.wastecheck.tune;

import dev.wastecheck.analyzer.index.IndexAnalysis;
import dev.wastecheck.analyzer.index.ServerIndexUsage;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.model.Progress;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.LiveSource;
import dev.wastecheck.sources.Sources;
import dev.wastecheck.sources.load.LiveLoader;
import dev.wastecheck.sources.load.LoadOptions;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.ProfilingOptions;
import dev.wastecheck.sources.load.SourceLoader;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.zip.GZIPInputStream;

/**
 * Reclaims the bytes of redundant and unused indexes ("No Bits Left Behind" §1: index pages are
 * unused space), reversibly, in the steps each engine allows:
 *
 * <ul>
 *   <li>MySQL 8: {@code ALTER TABLE t ALTER INDEX i INVISIBLE} first (the optimizer stops using it,
 *       the server keeps maintaining it), then {@code ALTER TABLE t DROP INDEX i} in a second script;
 *       MariaDB 10.6+ the same with {@code IGNORED}. Older servers get only the second script.
 *   <li>PostgreSQL: {@code DROP INDEX CONCURRENTLY} (no lock that blocks writes; it cannot run in a
 *       transaction block), its rollback the original definition from {@code pg_get_indexdef} as
 *       {@code CREATE INDEX CONCURRENTLY}.
 * </ul>
 *
 * Each statement carries the bytes it predicts to free: the index's bytes as the server counts
 * them. A live database's catalog gives the definitions the rollback re-creates and the
 * statistics that show an index unused. A dump gets the same scripts from its declarations (the
 * rollback is its own CREATE INDEX, or an ADD INDEX built from its CREATE TABLE) with the storage
 * model's bytes, for the redundant indexes and those a trace shows unused; {@code --apply} does not
 * run those, since the server's indexes may have changed since the dump ({@code tune URL} reads them).
 *
 * @param drops    the indexes dropped, with why and their bytes
 * @param first    the first step (INVISIBLE / IGNORED on MySQL and MariaDB; the drop on PostgreSQL)
 * @param second   MySQL and MariaDB: the DROP, run once the first step has shown nothing needs the
 *                 index; null on PostgreSQL
 * @param rollback what puts every index back, from either step
 * @param steps    per index: the statement that frees its bytes, its first step, its rollback and
 *                 the suffix of the script that holds the statement ({@link #entries} names the file)
 * @param declared from a dump's declarations, not a live catalog
 */
public record IndexDrops(
        Dialect dialect,
        List<IndexFinding> drops,
        SqlScript first,
        SqlScript second,
        SqlScript rollback,
        List<TuneReport.IndexDrop> steps,
        boolean declared) {

    /**
     * The drops for a live source, read before anything else of tune's runs on the server (its own
     * reads would count as use); null for files and for engines without indexes to drop.
     */
    public static IndexDrops plan(
            Sources sources,
            List<Path> traces,
            ProfilingOptions profiling,
            Progress progress,
            Consumer<String> warnings)
            throws IOException, SQLException {
        LiveSource live = sources.live();
        if (live == null || !(live.dialect() == Dialect.POSTGRESQL || live.dialect() == Dialect.MYSQL)) {
            return null;
        }
        Map<String, String> env = System.getenv();
        ServerIndexUsage usage = IndexAnalysis.usageBefore(live, env);
        String version;
        try (Connection c = LiveLoader.connect(live, env);
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT VERSION()")) {
            rs.next();
            version = rs.getString(1);
        }
        List<IndexFinding> found;
        // the catalog and row counts only: the profile stays on the server
        try (LoadedSource session = SourceLoader.of(sources, LoadOptions.of(profiling), true, env, warnings)
                .load(false, progress)) {
            found = IndexAnalysis.find(session, live, traces, usage, env, warnings);
        }
        return of(
                live.dialect(),
                version,
                found.stream().filter(IndexFinding::droppable).toList());
    }

    /** The scripts for these drops on a server of this version ({@code SELECT VERSION()}). */
    static IndexDrops of(Dialect dialect, String version, List<IndexFinding> drops) {
        return of(dialect, version, drops, false);
    }

    /**
     * The scripts for a dump's drops: the version its header names ({@link #dumpServerVersion}), or
     * null when it names none.
     */
    static IndexDrops declared(Dialect dialect, String version, List<IndexFinding> drops) {
        return of(dialect, version, drops, true);
    }

    /**
     * The server version a mysqldump or mariadb-dump names in its header ({@code -- Server version
     * 10.11.6-MariaDB}), from the first of {@code sources} that has one, or null.
     */
    static String dumpServerVersion(List<String> sources) {
        Pattern header = Pattern.compile("^--\\s*Server version\\s+(\\S+)");
        for (String s : sources) {
            Path p = Path.of(s);
            if (!Files.isRegularFile(p)) {
                continue;
            }
            try (InputStream raw = Files.newInputStream(p);
                    InputStream in = s.toLowerCase(Locale.ROOT).endsWith(".gz") ? new GZIPInputStream(raw) : raw;
                    BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                for (int i = 0; i < 40 && (line = r.readLine()) != null; i++) {
                    Matcher m = header.matcher(line);
                    if (m.find()) {
                        return m.group(1);
                    }
                }
            } catch (IOException e) {
                // unreadable here: the source reader says why, with the file and line
            }
        }
        return null;
    }

    private static IndexDrops of(Dialect dialect, String version, List<IndexFinding> drops, boolean declared) {
        SqlScript first = new SqlScript();
        SqlScript second = dialect == Dialect.POSTGRESQL ? null : new SqlScript();
        SqlScript rollback = new SqlScript();
        if (dialect == Dialect.POSTGRESQL) {
            first.comment("wastecheck tune: drop redundant and unused indexes, one at a time, without blocking writes");
            first.comment(
                    "(DROP INDEX CONCURRENTLY cannot run in a transaction block: run it with psql, not inside BEGIN)");
            rollback.comment("wastecheck tune: re-create the dropped indexes as they were (pg_get_indexdef)");
            List<TuneReport.IndexDrop> steps = new ArrayList<>();
            for (IndexFinding f : drops) {
                String drop = "DROP INDEX CONCURRENTLY IF EXISTS " + pgQuote(f.index());
                first.statement(SqlScript.Role.CHANGE, drop, trailing(f));
                rollback.statement(SqlScript.Role.CHANGE, concurrently(f.definition()), " -- " + f.table());
                steps.add(step(f, drop, null, concurrently(f.definition()), ".indexes.sql"));
            }
            return new IndexDrops(dialect, drops, first, null, rollback, steps, declared);
        }
        String hide = version == null ? null : hideKeyword(version);
        boolean maria = version != null && version.toLowerCase(Locale.ROOT).contains("mariadb");
        if (hide != null) {
            first.comment("wastecheck tune: step 1 of 2: the optimizer stops using these indexes; the server still"
                    + " maintains them");
            first.comment("watch the workload; if nothing slows down, run the second script (the DROP); the"
                    + " rollback puts them back");
            for (IndexFinding f : drops) {
                first.statement(
                        SqlScript.Role.CHANGE,
                        "ALTER TABLE " + myQuote(f.table()) + " ALTER INDEX " + myQuote(f.index()) + " " + hide,
                        trailing(f));
            }
        } else if (version == null) {
            first.comment("wastecheck tune: the dump does not name its server. MySQL 8.0+ can first make each index"
                    + " INVISIBLE (MariaDB 10.6+: IGNORED),");
            first.comment("ALTER TABLE t ALTER INDEX i INVISIBLE, and drop it once nothing slowed down; the second"
                    + " script drops them directly");
        } else {
            first.comment("wastecheck tune: this server (" + version + ") cannot make an index invisible"
                    + " (MySQL 8.0+, MariaDB 10.6+): the second script drops them directly");
        }
        second.comment("wastecheck tune: " + (hide != null ? "step 2 of 2: " : "") + "drop the indexes");
        rollback.comment("wastecheck tune: put the indexes back, after either step");
        List<TuneReport.IndexDrop> steps = new ArrayList<>();
        for (IndexFinding f : drops) {
            String drop = "ALTER TABLE " + myQuote(f.table()) + " DROP INDEX " + myQuote(f.index());
            second.statement(SqlScript.Role.CHANGE, drop, trailing(f));
            String add = f.definition();
            if (maria) {
                // MariaDB: IF NOT EXISTS makes the re-creation a no-op after step 1 alone
                add = add.replaceFirst("(?i) INDEX `", " INDEX IF NOT EXISTS `");
                rollback.statement(SqlScript.Role.CHANGE, add);
                if (hide != null) {
                    rollback.statement(
                            SqlScript.Role.CHANGE,
                            "ALTER TABLE " + myQuote(f.table()) + " ALTER INDEX " + myQuote(f.index()) + " NOT "
                                    + hide);
                }
            } else {
                rollback.comment("after step 1 only: ALTER TABLE " + myQuote(f.table()) + " ALTER INDEX "
                        + myQuote(f.index()) + " VISIBLE");
                rollback.statement(SqlScript.Role.CHANGE, add);
            }
            steps.add(step(
                    f,
                    drop,
                    hide == null
                            ? null
                            : "ALTER TABLE " + myQuote(f.table()) + " ALTER INDEX " + myQuote(f.index()) + " " + hide,
                    add,
                    ".indexes.drop.sql"));
        }
        return new IndexDrops(dialect, drops, first, second, rollback, steps, declared);
    }

    private static TuneReport.IndexDrop step(
            IndexFinding f, String drop, String firstStep, String rollback, String suffix) {
        return new TuneReport.IndexDrop(
                f.table(),
                f.index(),
                f.kind().key(),
                drop,
                firstStep,
                f.bytes(),
                f.bytesBasis(),
                f.predictedBytes(),
                rollback,
                suffix,
                null);
    }

    /** Each drop with the file that holds its statement beside {@code migrationFile} (null: none written). */
    List<TuneReport.IndexDrop> entries(Path migrationFile) {
        return steps.stream()
                .map(d -> new TuneReport.IndexDrop(
                        d.table(),
                        d.index(),
                        d.kind(),
                        d.statement(),
                        d.firstStep(),
                        d.bytes(),
                        d.bytesBasis(),
                        d.predictedBytes(),
                        d.rollback(),
                        d.script(),
                        migrationFile == null
                                ? null
                                : Tune.beside(migrationFile, d.script()).toString()))
                .toList();
    }

    /** {@code INVISIBLE} (MySQL 8.0+), {@code IGNORED} (MariaDB 10.6+), or null for older servers. */
    static String hideKeyword(String version) {
        Matcher m = Pattern.compile("^(\\d+)\\.(\\d+)").matcher(version);
        if (!m.find()) {
            return null;
        }
        int major = Integer.parseInt(m.group(1));
        int minor = Integer.parseInt(m.group(2));
        if (version.toLowerCase(Locale.ROOT).contains("mariadb")) {
            return major > 10 || (major == 10 && minor >= 6) ? "IGNORED" : null;
        }
        return major >= 8 ? "INVISIBLE" : null;
    }

    /** The bytes the drops free, as predicted (unknown sizes count 0). */
    public long bytes() {
        return drops.stream().mapToLong(f -> Math.max(0, f.bytes())).sum();
    }

    /** Writes the scripts beside the migration; the lines to tell the user. */
    List<String> write(Path migrationFile) throws IOException {
        List<String> out = new ArrayList<>();
        out.add(String.format(
                Locale.ROOT,
                "wastecheck tune: %d %s to drop (redundant or unused), %,d bytes as %s",
                drops.size(),
                drops.size() == 1 ? "index" : "indexes",
                bytes(),
                declared ? "the storage model predicts them from the dump" : "the server counts them"));
        if (drops.isEmpty()) {
            return out;
        }
        if (migrationFile == null) {
            out.add("  -o migration.sql writes the index scripts beside the migration (.indexes.sql,"
                    + (second != null ? " .indexes.drop.sql," : "") + " .indexes.rollback.sql)");
            return out;
        }
        Path f1 = Tune.beside(migrationFile, ".indexes.sql");
        Files.writeString(f1, first.toString(), StandardCharsets.UTF_8);
        out.add("  wrote " + f1
                + (dialect == Dialect.POSTGRESQL ? " (the drops)" : " (step 1: invisible to the optimizer)"));
        if (second != null) {
            Path f2 = Tune.beside(migrationFile, ".indexes.drop.sql");
            Files.writeString(f2, second.toString(), StandardCharsets.UTF_8);
            out.add("  wrote " + f2 + " (step 2: the drops)");
        }
        Path r = Tune.beside(migrationFile, ".indexes.rollback.sql");
        Files.writeString(r, rollback.toString(), StandardCharsets.UTF_8);
        out.add("  wrote " + r + " (puts every index back)");
        return out;
    }

    /** {@code --apply}: the first step on the live database; the DROP of MySQL/MariaDB stays for the user to run. */
    TuneReport.Applied apply(String url) {
        if (drops.isEmpty()) {
            return new TuneReport.Applied(true, List.of());
        }
        if (declared) {
            return new TuneReport.Applied(
                    true,
                    List.of("wastecheck tune: --apply leaves the index scripts to you: they come from the dump's"
                            + " declarations, and the server's indexes may differ (tune "
                            + MigrationRunner.redacted(url)
                            + " reads the server's own and applies its drops)"));
        }
        if (!first.hasChanges()) {
            return new TuneReport.Applied(true, List.of());
        }
        MigrationRunner.Outcome o = MigrationRunner.apply(first, dialect, url);
        if (o.succeeded()) {
            return new TuneReport.Applied(
                    true,
                    List.of(
                            dialect == Dialect.POSTGRESQL
                                    ? String.format(
                                            Locale.ROOT,
                                            "wastecheck tune: applied: %d index drops (%,d bytes)",
                                            o.executed(),
                                            bytes())
                                    : String.format(
                                            Locale.ROOT,
                                            "wastecheck tune: applied: %d indexes made invisible to the optimizer; the DROP"
                                                    + " (%,d bytes) is the second script",
                                            o.executed(),
                                            bytes())));
        }
        List<String> out = new ArrayList<>();
        out.add("wastecheck: --apply stopped at index statement " + (o.executed() + 1) + " ("
                + o.failed().sql() + "): " + o.error());
        if (o.kept().isEmpty()) {
            out.add("wastecheck: no index was changed");
        } else {
            out.add("wastecheck: " + o.kept().size() + " index statements ran before it and stay applied:");
            o.kept().forEach(k -> out.add("  " + k.sql() + ";"));
            out.add("wastecheck: migration.indexes.rollback.sql (written with -o) puts every index back");
        }
        return new TuneReport.Applied(false, out);
    }

    private static String trailing(IndexFinding f) {
        return String.format(
                Locale.ROOT,
                " -- %s.%s %s, %s",
                f.table(),
                f.index(),
                f.kind().key(),
                f.bytes() >= 0
                        ? String.format(Locale.ROOT, "%,d bytes (%s)", f.bytes(), f.bytesBasis())
                        : "bytes unknown");
    }

    /** {@code CREATE [UNIQUE] INDEX name ON ...} as {@code CREATE [UNIQUE] INDEX CONCURRENTLY name ON ...}. */
    static String concurrently(String definition) {
        return definition.replaceFirst("^(?i)(CREATE (UNIQUE )?INDEX) ", "$1 CONCURRENTLY ");
    }

    private static String pgQuote(String name) {
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    private static String myQuote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
