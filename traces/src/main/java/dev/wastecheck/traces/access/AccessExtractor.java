package dev.wastecheck.traces.access;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Bound;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.traces.access.ShapeTemplate.TableTemplate;
import dev.wastecheck.traces.access.ShapeTemplate.ValueSource;
import dev.wastecheck.traces.read.PageRequest;
import dev.wastecheck.traces.read.SqlStatement;
import dev.wastecheck.traces.read.TraceRecord;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Turns trace records into {@link AccessEvent}s, resolved against a schema with Calcite.
 *
 * <p>Each statement is reduced to its shape (literals out, see {@link StatementNormalizer}); a shape
 * is resolved once ({@link StatementResolver}) and its template cached, so a trace of a million
 * statements with a few dozen shapes costs a few dozen Calcite runs and a million cheap lexer
 * passes. Page requests from URL traces become the statements MediaWiki issues for a view (the page
 * by namespace and title, its latest revision, the revision's slot and content, the text) or an edit
 * (the page lookup, inserts into text, content, revision and slots, and the update of {@code
 * page_latest}); only the page's key is known from a URL, so the other lookups carry no key values.
 *
 * <p>Not thread-safe: use one extractor per thread.
 */
public final class AccessExtractor {
    private static final int CACHE_LIMIT = 100_000;
    private static final int MAX_KEY_COMBINATIONS = 10_000;
    private static final Set<String> NO_DATA = Set.of(
            "BEGIN",
            "COMMIT",
            "ROLLBACK",
            "SET",
            "SHOW",
            "USE",
            "START",
            "SAVEPOINT",
            "RELEASE",
            "DESCRIBE",
            "DESC",
            "EXPLAIN",
            "LOCK",
            "UNLOCK",
            "CREATE",
            "DROP",
            "ALTER",
            "TRUNCATE",
            "GRANT",
            "REVOKE",
            "ANALYZE",
            "VACUUM",
            "DISCARD",
            "DEALLOCATE",
            "PREPARE",
            "EXECUTE",
            "CALL",
            "DO",
            "RESET",
            "LISTEN",
            "NOTIFY",
            "CHECKPOINT",
            "FLUSH",
            "KILL",
            "OPTIMIZE",
            "REPAIR",
            "END",
            "ABORT",
            "CLOSE",
            "FETCH",
            "DECLARE",
            "COPY",
            "XA",
            "HANDLER");
    private static final Set<String> DATA = Set.of("SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "VALUES", "(");

    private final DatabaseSchema schema;
    private final StatementNormalizer normalizer;
    private final StatementResolver resolver;
    private final Map<String, Object> cache = new HashMap<>();
    private final ResolutionReport report = new ResolutionReport();

    public AccessExtractor(DatabaseSchema schema) {
        this.schema = schema;
        Set<String> names = new HashSet<>();
        for (TableDef t : schema.tables()) {
            names.add(t.name());
            names.addAll(t.columnNames());
        }
        this.normalizer = new StatementNormalizer(names);
        this.resolver = new StatementResolver(schema);
    }

    public DatabaseSchema schema() {
        return schema;
    }

    public ResolutionReport report() {
        return report;
    }

    /** The events of one record, in statement order. */
    public List<AccessEvent> extract(TraceRecord record) {
        List<AccessEvent> out = new ArrayList<>();
        extract(record, out::add);
        return out;
    }

    /** Resolves one statement outside any trace (line 0, no time). */
    public List<AccessEvent> extract(String sql, Dialect dialect) {
        return extract(new SqlStatement(sql, dialect, 0, -1));
    }

    public void extract(TraceRecord record, Consumer<AccessEvent> sink) {
        report.records++;
        if (record instanceof SqlStatement s) {
            statement(s.sql(), s.dialect(), 1, s.line(), s.timeMillis(), sink);
        } else if (record instanceof PageRequest p) {
            pageRequest(p, sink);
        }
    }

    private void statement(String sql, Dialect dialect, long count, long line, long time, Consumer<AccessEvent> sink) {
        report.statements++;
        StatementNormalizer.Normalized n = normalizer.normalize(sql, dialect);
        String shape = n.shape();
        String first = firstWord(shape);
        if (shape.isEmpty()) {
            report.ignored.merge("(empty)", 1L, Long::sum);
            return;
        }
        if (NO_DATA.contains(first) || shape.contains("@@")) {
            report.ignored.merge(NO_DATA.contains(first) ? first : "@@variable", 1L, Long::sum);
            return;
        }
        if (!DATA.contains(first)) {
            report.unresolved("not a data statement: " + first, line, sql);
            return;
        }
        String cacheKey = n.quote() + shape;
        Object t = cache.get(cacheKey);
        if (t == null) {
            report.shapes++;
            try {
                t = resolver.resolve(shape, n.quote());
            } catch (UnresolvedStatementException e) {
                t = e.getMessage();
            }
            if (cache.size() >= CACHE_LIMIT) {
                cache.clear();
            }
            cache.put(cacheKey, t);
        } else {
            report.shapeCacheHits++;
        }
        if (t instanceof String reason) {
            report.unresolved(reason, line, sql);
            return;
        }
        report.resolved++;
        for (TableTemplate tt : ((ShapeTemplate) t).tables()) {
            emit(tt, n.literals(), count, line, time, sink);
        }
    }

    private void emit(
            TableTemplate tt, List<String> literals, long count, long line, long time, Consumer<AccessEvent> sink) {
        if (tt.operation() == Operation.INSERT && !tt.insertRows().isEmpty()) {
            for (Map<String, ValueSource> row : tt.insertRows()) {
                Map<String, String> key = new LinkedHashMap<>();
                for (String kc : tt.keyColumns()) {
                    ValueSource src = row.get(kc);
                    String v = src == null ? null : src.value(literals);
                    if (v != null) {
                        key.put(kc, v);
                    }
                }
                event(tt, key, values(row, literals), literals, count, line, time, sink);
            }
            return;
        }
        if (tt.keyDisjuncts().isEmpty()) {
            emitCombinations(tt, tt.keyAlternatives(), literals, count, line, time, sink);
        } else {
            for (List<List<ValueSource>> d : tt.keyDisjuncts()) {
                emitCombinations(tt, d, literals, count, line, time, sink);
            }
        }
    }

    /** One event per combination of the key columns' values (an IN list on two key columns gives their product). */
    private void emitCombinations(
            TableTemplate tt,
            List<List<ValueSource>> alternatives,
            List<String> literals,
            long count,
            long line,
            long time,
            Consumer<AccessEvent> sink) {
        List<String> cols = tt.keyColumns();
        List<List<String>> values = new ArrayList<>();
        long combinations = 1;
        for (List<ValueSource> alt : alternatives) {
            List<String> vs = new ArrayList<>();
            for (ValueSource s : alt) {
                String v = s.value(literals);
                if (v != null) {
                    vs.add(v);
                }
            }
            values.add(vs);
            combinations *= Math.max(1, vs.size());
        }
        if (combinations > MAX_KEY_COMBINATIONS) {
            event(tt, Map.of(), setValues(tt, literals), literals, count, line, time, sink);
            return;
        }
        Map<String, String> assigned = setValues(tt, literals);
        int[] at = new int[cols.size()];
        for (long c = 0; c < combinations; c++) {
            Map<String, String> key = new LinkedHashMap<>();
            for (int i = 0; i < cols.size(); i++) {
                List<String> vs = values.get(i);
                if (!vs.isEmpty()) {
                    key.put(cols.get(i), vs.get(at[i]));
                }
            }
            event(tt, key, assigned, literals, count, line, time, sink);
            for (int i = cols.size() - 1; i >= 0; i--) {
                if (values.get(i).size() > 1 && ++at[i] < values.get(i).size()) {
                    break;
                }
                at[i] = 0;
            }
        }
    }

    /** The template's bounds with this statement's literals; a bound whose literal is an unknown parameter is left out. */
    private static List<Bound> bounds(TableTemplate tt, List<String> literals) {
        if (tt.bounds().isEmpty()) {
            return List.of();
        }
        List<Bound> out = new ArrayList<>();
        for (ShapeTemplate.BoundSource b : tt.bounds()) {
            String lo = b.lo() == null ? null : b.lo().value(literals);
            String hi = b.hi() == null ? null : b.hi().value(literals);
            if ((b.lo() != null && lo == null) || (b.hi() != null && hi == null)) {
                continue;
            }
            out.add(new Bound(b.column(), lo, b.loInclusive(), hi, b.hiInclusive()));
        }
        return out;
    }

    /** An UPDATE's literal SET values (empty for other operations); see {@link AccessEvent#values()}. */
    private static Map<String, String> setValues(TableTemplate tt, List<String> literals) {
        return tt.operation() == Operation.UPDATE && !tt.setValues().isEmpty()
                ? values(tt.setValues(), literals)
                : Map.of();
    }

    /** Column to literal value; a NULL literal maps to null, an unknown parameter is left out. */
    private static Map<String, String> values(Map<String, ValueSource> sources, List<String> literals) {
        Map<String, String> out = new LinkedHashMap<>();
        for (Map.Entry<String, ValueSource> s : sources.entrySet()) {
            if (s.getValue().isNull()) {
                out.put(s.getKey(), null);
            } else {
                String v = s.getValue().value(literals);
                if (v != null) {
                    out.put(s.getKey(), v);
                }
            }
        }
        return Collections.unmodifiableMap(out);
    }

    private void event(
            TableTemplate tt,
            Map<String, String> key,
            Map<String, String> values,
            List<String> literals,
            long count,
            long line,
            long time,
            Consumer<AccessEvent> sink) {
        AccessEvent e = new AccessEvent(
                tt.table(),
                tt.operation(),
                tt.index(),
                key,
                tt.keyColumns(),
                tt.projected(),
                tt.predicate(),
                tt.updated(),
                tt.joined(),
                tt.functions(),
                count,
                time,
                line,
                values,
                tt.joinKeys(),
                bounds(tt, literals));
        report.events++;
        if (!e.keyComplete()) {
            report.eventsWithoutKey++;
        }
        sink.accept(e);
    }

    private static String firstWord(String shape) {
        int i = 0;
        while (i < shape.length() && (Character.isLetter(shape.charAt(i)) || shape.charAt(i) == '_')) {
            i++;
        }
        return i == 0
                ? (shape.isEmpty() ? "" : shape.substring(0, 1))
                : shape.substring(0, i).toUpperCase(Locale.ROOT);
    }

    // ---- page requests: what MediaWiki asks the database for a view and an edit

    private void pageRequest(PageRequest p, Consumer<AccessEvent> sink) {
        if (schema.table("page").isEmpty()) {
            report.unresolved("page request needs MediaWiki's page table in the schema", p.line(), p.title());
            return;
        }
        for (String sql : mediaWikiStatements(p)) {
            statement(sql, Dialect.MYSQL, p.count(), p.line(), p.timeMillis(), sink);
        }
    }

    /** The statements a MediaWiki (1.31+, with slots and content when the schema has them) issues for the request. */
    public List<String> mediaWikiStatements(PageRequest p) {
        List<String> out = new ArrayList<>();
        String title = quote(p.title());
        out.add("SELECT page_id,page_latest FROM page WHERE page_namespace = " + p.namespace() + " AND page_title = "
                + title + " LIMIT 1");
        boolean slots =
                schema.table("slots").isPresent() && schema.table("content").isPresent();
        if (p.action() == PageRequest.Action.VIEW) {
            if (schema.table("revision").isPresent()) {
                out.add(
                        "SELECT rev_id,rev_page,rev_actor,rev_timestamp,rev_len,rev_sha1 FROM revision WHERE rev_id = ?");
            }
            if (slots) {
                out.add(
                        "SELECT slot_revision_id,slot_content_id,content_size,content_address FROM slots JOIN content ON slot_content_id = content_id WHERE slot_revision_id = ?");
            }
            if (schema.table("text").isPresent()) {
                out.add("SELECT old_text,old_flags FROM text WHERE old_id = ?");
            }
        } else {
            if (schema.table("text").isPresent()) {
                out.add("INSERT INTO text (old_id,old_text,old_flags) VALUES (?,?,?)");
            }
            if (slots) {
                out.add(
                        "INSERT INTO content (content_id,content_size,content_sha1,content_model,content_address) VALUES (?,?,?,?,?)");
            }
            if (schema.table("revision").isPresent()) {
                out.add("INSERT INTO revision (rev_id,rev_page,rev_timestamp,rev_len) VALUES (?,?,?,?)");
            }
            if (slots) {
                out.add(
                        "INSERT INTO slots (slot_revision_id,slot_role_id,slot_content_id,slot_origin) VALUES (?,?,?,?)");
            }
            out.add("UPDATE page SET page_latest = ?,page_touched = ?,page_len = ? WHERE page_id = ?");
        }
        return out;
    }

    private static String quote(String s) {
        StringBuilder sb = new StringBuilder(s.length() + 2).append('\'');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '\'' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('\'').toString();
    }
}
