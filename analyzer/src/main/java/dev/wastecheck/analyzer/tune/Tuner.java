package dev.wastecheck.analyzer.tune;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.load.ColumnStorage;
import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.load.ProfilingDatabase;
import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.analyzer.profile.Profiler;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.analyzer.schema.ColumnDef;
import dev.wastecheck.analyzer.schema.Dialect;
import dev.wastecheck.analyzer.schema.SqlType;
import dev.wastecheck.analyzer.schema.TableDef;
import dev.wastecheck.analyzer.schema.TypeFamily;
import dev.wastecheck.analyzer.schema.TypeParser;
import dev.wastecheck.analyzer.source.DdlCatalog;
import dev.wastecheck.analyzer.storage.StorageModel;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code wastecheck tune}: turns an analysis into verified changes of type ("No Bits Left
 * Behind" §2, encoding waste). For every table with suggestions it builds a tuned copy in the
 * profiling database, with each changed column in its new type, and reads every row of the copy
 * back against the original: a change enters the migration only when no value of any row
 * differs in the declared type's terms. The copy is then profiled like the original, so the bytes
 * the migration saves are counted on the tuned values themselves, in the source engine's storage
 * model, not taken from the suggestion.
 */
public final class Tuner {

    /**
     * A change that was checked on every row; {@code mismatches == 0} means it is lossless.
     *
     * @param declaredBytes the column's bytes as declared
     * @param tunedBytes    its bytes in the new type, counted on the tuned copy (= declared when not lossless)
     */
    public record Checked(Conversion conversion, String declaredType, String defaultValue, long mismatches, String example,
                          long declaredBytes, long tunedBytes) {
        public boolean lossless() {
            return mismatches == 0;
        }

        Checked withBytes(long declared, long tuned) {
            return new Checked(conversion, declaredType, defaultValue, mismatches, example, declared, tuned);
        }
    }

    /** A suggested change left out, and why. */
    public record Skipped(String table, String column, String declaredType, String suggestedType, String why) {
    }

    /**
     * One table's outcome. A partitioned table's is the sum of its partitions': its changes are
     * those every partition passed, applied once to the parent (PostgreSQL refuses to change a
     * partition's column alone).
     *
     * @param bytesBefore the table's bytes as declared (the analysis' count)
     */
    public record TableResult(String name, long rows, List<Checked> changes, long bytesBefore) {
        public List<Checked> applied() {
            return changes.stream().filter(Checked::lossless).toList();
        }

        /** The table's bytes with the lossless changes applied, each column counted on the tuned copy. */
        public long bytesAfter() {
            return bytesBefore - applied().stream().mapToLong(c -> c.declaredBytes() - c.tunedBytes()).sum();
        }
    }

    /**
     * @param views the views over changed tables, in the dump's order: a PostgreSQL migration
     *              drops them first and re-creates them from the dump's definitions last
     *              (PostgreSQL refuses to change the type of a column a view reads)
     */
    public record Result(Dialect dialect, List<String> sources, List<TableResult> tables, List<Skipped> skipped,
                         List<DdlCatalog.ViewDef> views) {
        public long bytesBefore() {
            return tables.stream().mapToLong(TableResult::bytesBefore).sum();
        }

        public long bytesAfter() {
            return tables.stream().mapToLong(TableResult::bytesAfter).sum();
        }

        public long rowsChecked() {
            return tables.stream().filter(t -> !t.changes().isEmpty()).mapToLong(TableResult::rows).sum();
        }
    }

    private Tuner() {
    }

    public static Result tune(Analyzer.Session session, AnalysisReport report, Analyzer.Progress progress) throws SQLException {
        Dialect dialect = session.dialect();
        ProfilingDatabase db = session.database();
        List<TableResult> tables = new ArrayList<>();
        List<Skipped> skipped = new ArrayList<>();
        StorageModel model = new StorageModel(dialect);
        Profiler profiler = new Profiler(db, dialect == Dialect.POSTGRESQL, dialect == Dialect.SQLITE);
        progress.begin("verifying", session.tables().size());
        int done = 0;
        for (LoadedTable t : session.tables().values()) {
            TableReport tr = report.table(t.def().name());
            List<Conversion> conversions = new ArrayList<>();
            List<ColumnDef> cols = t.def().columns();
            for (int i = 0; i < cols.size(); i++) {
                ColumnReport cr = tr.columns().get(i);
                if (cr.suggestedType().equals(cr.declaredType())) {
                    continue;
                }
                try {
                    conversions.add(Conversion.of(t.def(), i, cols.get(i), cr, dialect));
                } catch (Conversion.Unsupported e) {
                    skipped.add(new Skipped(t.def().name(), cr.name(), cr.declaredType(), cr.suggestedType(), e.getMessage()));
                }
            }
            if (!conversions.isEmpty() && t.relation() != null && t.rows() > 0) {
                tables.add(verify(db, profiler, model, t, tr, conversions, skipped));
            } else if (!conversions.isEmpty()) {
                // No rows: nothing can be lost, and a type chosen from no values is no suggestion.
                for (Conversion c : conversions) {
                    skipped.add(new Skipped(t.def().name(), c.column().name(), c.column().type().declared(), c.target(),
                            "the table has no rows to choose a type from"));
                }
            }
            progress.advance(++done);
        }
        progress.end();
        List<TableResult> merged = mergePartitions(report, tables, skipped);
        List<DdlCatalog.ViewDef> views = dialect == Dialect.POSTGRESQL ? viewsOver(session.views(), merged) : List.of();
        return new Result(dialect, report.sources(), merged, skipped, views);
    }

    /** The views that read a changed table, or a view that does, in the dump's order. */
    static List<DdlCatalog.ViewDef> viewsOver(List<DdlCatalog.ViewDef> all, List<TableResult> tables) {
        java.util.Set<String> names = new java.util.HashSet<>();
        for (TableResult t : tables) {
            if (!t.applied().isEmpty()) {
                names.add(t.name().toLowerCase(java.util.Locale.ROOT));
            }
        }
        java.util.Set<DdlCatalog.ViewDef> chosen = new java.util.LinkedHashSet<>();
        boolean grew = !names.isEmpty();
        while (grew) {
            grew = false;
            for (DdlCatalog.ViewDef v : all) {
                if (!chosen.contains(v) && mentionsAny(v.text(), names)) {
                    chosen.add(v);
                    names.add(DdlCatalog.simpleName(v.name()).toLowerCase(java.util.Locale.ROOT));
                    grew = true;
                }
            }
        }
        return all.stream().filter(chosen::contains).toList();
    }

    /** Whether a view's text names one of the tables (a word match: naming one too many only re-creates a view). */
    private static boolean mentionsAny(String text, java.util.Set<String> names) {
        String lower = text.toLowerCase(java.util.Locale.ROOT);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("[\\p{L}_][\\p{L}\\p{N}_$]*").matcher(lower);
        while (m.find()) {
            if (names.contains(m.group())) {
                return true;
            }
        }
        return false;
    }

    /**
     * Folds each partitioned table's partitions into one result for the parent: a column changes
     * when every partition with rows passed the same change, and is left out otherwise.
     */
    static List<TableResult> mergePartitions(AnalysisReport report, List<TableResult> tables, List<Skipped> skipped) {
        java.util.Map<String, List<TableResult>> byParent = new java.util.LinkedHashMap<>();
        List<TableResult> out = new ArrayList<>();
        for (TableResult t : tables) {
            String parent = report.table(t.name()).partitionOf();
            if (parent == null) {
                out.add(t);
            } else {
                byParent.computeIfAbsent(parent, k -> new ArrayList<>()).add(t);
            }
        }
        for (java.util.Map.Entry<String, List<TableResult>> e : byParent.entrySet()) {
            String parent = report.tables().stream().map(TableReport::name).filter(n -> n.equalsIgnoreCase(e.getKey()))
                    .findFirst().orElse(e.getKey());
            List<String> partitions = report.tables().stream().filter(t -> e.getKey().equalsIgnoreCase(t.partitionOf()) && t.rows() > 0)
                    .map(TableReport::name).toList();
            List<TableResult> parts = e.getValue();
            long rows = parts.stream().mapToLong(TableResult::rows).sum();
            long before = report.tables().stream().filter(t -> partitions.contains(t.name())).mapToLong(TableReport::declaredBytes).sum();
            java.util.Map<String, List<Checked>> byColumn = new java.util.LinkedHashMap<>();
            for (TableResult p : parts) {
                for (Checked c : p.changes()) {
                    byColumn.computeIfAbsent(c.conversion().column().name(), k -> new ArrayList<>()).add(c);
                }
            }
            List<Checked> merged = new ArrayList<>();
            for (java.util.Map.Entry<String, List<Checked>> col : byColumn.entrySet()) {
                List<Checked> cs = col.getValue();
                Checked first = cs.get(0);
                boolean everyPartition = cs.size() == partitions.size();
                boolean same = cs.stream().allMatch(c -> c.conversion().target().equals(first.conversion().target()));
                boolean lossless = cs.stream().allMatch(Checked::lossless);
                if (everyPartition && same && lossless) {
                    merged.add(first.withBytes(cs.stream().mapToLong(Checked::declaredBytes).sum(),
                            cs.stream().mapToLong(Checked::tunedBytes).sum()));
                } else {
                    String why = !lossless ? "a partition's values would change under " + first.conversion().target()
                            : !same ? "its partitions call for different types ("
                            + cs.stream().map(c -> c.conversion().target()).distinct().collect(java.util.stream.Collectors.joining(", "))
                            + "): a partitioned table's column takes one" : "not every partition can take " + first.conversion().target();
                    skipped.add(new Skipped(parent, col.getKey(), first.declaredType(), first.conversion().target(), why));
                }
            }
            out.add(new TableResult(parent, rows, merged, before));
        }
        return out;
    }

    private static TableResult verify(ProfilingDatabase db, Profiler profiler, StorageModel model, LoadedTable t,
                                      TableReport tr, List<Conversion> conversions, List<Skipped> skipped) throws SQLException {
        // A column's DEFAULT is a value too: a change that cannot carry it would break inserts
        // that omit the column.
        List<Conversion> candidates = new ArrayList<>();
        List<String> defaults = new ArrayList<>();
        for (Conversion c : conversions) {
            String d = c.column().defaultValue();
            if (d == null || c.column().autoIncrement()) {
                candidates.add(c);
                defaults.add(null);
                continue;
            }
            String converted = convertLiteral(db, c, d);
            if (converted == null) {
                skipped.add(new Skipped(t.def().name(), c.column().name(), c.column().type().declared(), c.target(),
                        "its DEFAULT " + Conversion.literal(d) + " has no " + c.target() + " value that gives it back; "
                                + "change the default first"));
            } else {
                candidates.add(c);
                defaults.add(converted);
            }
        }
        List<Checked> checked = new ArrayList<>();
        if (candidates.isEmpty()) {
            return new TableResult(t.def().name(), t.rows(), checked, tr.declaredBytes());
        }
        String copy = db.nextRelationName();
        StringBuilder sql = new StringBuilder("CREATE TABLE " + copy + " AS SELECT rowid AS wc_row");
        for (Conversion c : candidates) {
            sql.append(",\n  CAST(").append(Conversion.apply(c.toTuned(), t.physicalColumn(c.index()))).append(" AS ")
                    .append(c.duckType()).append(") AS ").append(ProfilingDatabase.quote(c.column().name()));
        }
        sql.append("\nFROM ").append(t.relation());
        db.execute(sql.toString());
        try {
            // Every row of the copy against its original, by row id: a value lost, changed, or
            // turned into NULL is a mismatch.
            StringBuilder check = new StringBuilder("SELECT count(*)");
            StringBuilder example = new StringBuilder();
            for (Conversion c : candidates) {
                String o = "o." + t.physicalColumn(c.index());
                String n = "n." + ProfilingDatabase.quote(c.column().name());
                String bad = "(" + o + " IS NULL) <> (" + n + " IS NULL) OR (" + o + " IS NOT NULL AND ("
                        + Conversion.apply(c.originalKey(), o) + " IS NULL OR " + Conversion.apply(c.tunedKey(), n)
                        + " IS DISTINCT FROM " + Conversion.apply(c.originalKey(), o) + "))";
                check.append(",\n  count(*) FILTER (WHERE ").append(bad).append(")");
                check.append(",\n  arg_min(CAST(").append(o).append(" AS VARCHAR), o.rowid) FILTER (WHERE ").append(bad).append(")");
            }
            check.append("\nFROM ").append(t.relation()).append(" AS o JOIN ").append(copy).append(" AS n ON o.rowid = n.wc_row");
            long[] mismatches = new long[candidates.size()];
            String[] examples = new String[candidates.size()];
            long joined;
            try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(check.toString())) {
                rs.next();
                joined = rs.getLong(1);
                for (int k = 0; k < candidates.size(); k++) {
                    mismatches[k] = rs.getLong(2 + 2 * k);
                    examples[k] = rs.getString(3 + 2 * k);
                }
            }
            if (joined != t.rows()) {
                throw new IllegalStateException("the tuned copy of " + t.def().name() + " has " + joined + " rows, the table " + t.rows());
            }
            for (int k = 0; k < candidates.size(); k++) {
                Conversion c = candidates.get(k);
                long declared = tr.columns().get(c.index()).declaredBytes();
                checked.add(new Checked(c, c.column().type().declared(), defaults.get(k), mismatches[k], examples[k], declared, declared));
            }
            return new TableResult(t.def().name(), t.rows(), measure(profiler, model, t, checked, copy), tr.declaredBytes());
        } finally {
            db.execute("DROP TABLE IF EXISTS " + copy);
        }
    }

    /**
     * Each lossless change's bytes in its new type: the tuned copy's column profiled like the
     * original's and counted in the source engine's storage model.
     */
    private static List<Checked> measure(Profiler profiler, StorageModel model, LoadedTable t, List<Checked> checked,
                                         String copy) throws SQLException {
        List<ColumnDef> tunedCols = new ArrayList<>();
        List<Integer> which = new ArrayList<>();
        for (int k = 0; k < checked.size(); k++) {
            Checked c = checked.get(k);
            if (c.lossless()) {
                tunedCols.add(c.conversion().column().withType(tunedType(c.conversion(), model.dialect())));
                which.add(k);
            }
        }
        if (tunedCols.isEmpty()) {
            return checked;
        }
        ColumnStorage[] storage = new ColumnStorage[tunedCols.size()];
        java.util.Arrays.fill(storage, ColumnStorage.NATIVE);
        TableDef def = new TableDef(t.def().name(), tunedCols, t.def().primaryKey(), t.def().indexes(), t.def().charset(),
                t.def().origin(), t.def().ddlKnown());
        List<ColumnProfile> profiles = profiler.profile(new LoadedTable(def, copy, t.rows(), storage));
        List<Checked> out = new ArrayList<>(checked);
        for (int j = 0; j < tunedCols.size(); j++) {
            Checked c = out.get(which.get(j));
            out.set(which.get(j), c.withBytes(c.declaredBytes(), model.declaredBytes(def, tunedCols.get(j), profiles.get(j))));
        }
        return out;
    }

    /** The tuned column's type as the storage model reads it. */
    static SqlType tunedType(Conversion c, Dialect dialect) {
        if (c.kind().equals("low_cardinality")) {
            String d = c.duckType();
            List<String> members = TypeParser.quoted(d.substring(d.indexOf('(') + 1, d.lastIndexOf(')')));
            return new SqlType(c.target(), TypeFamily.ENUM, 0, false, -1, -1, -1, members);
        }
        return TypeParser.parse(c.target(), dialect);
    }

    /** A DEFAULT literal in the tuned type, as text, or null when it does not come back unchanged. */
    private static String convertLiteral(ProfilingDatabase db, Conversion c, String literal) throws SQLException {
        String lit = Conversion.literal(literal);
        String tunedValue = "CAST(" + Conversion.apply(c.toTuned(), lit) + " AS " + c.duckType() + ")";
        String sql = "SELECT CAST(" + tunedValue + " AS VARCHAR), " + Conversion.apply(c.tunedKey(), tunedValue)
                + " IS NOT DISTINCT FROM " + Conversion.apply(c.originalKey(), lit) + " AND " + tunedValue + " IS NOT NULL";
        try (Statement st = db.connection().createStatement(); ResultSet rs = st.executeQuery(sql)) {
            rs.next();
            return rs.getBoolean(2) ? rs.getString(1) : null;
        } catch (SQLException e) {
            return null;
        }
    }
}
