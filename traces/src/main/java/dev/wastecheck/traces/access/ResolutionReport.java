package dev.wastecheck.traces.access;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What access extraction made of a trace: statements resolved, statements that carry no data
 * access (transaction control, SET, SHOW: ignored, counted by keyword), and statements Calcite could
 * not resolve, counted by reason with the first examples (line and text), never guessed.
 */
public final class ResolutionReport {
    static final int EXAMPLES = 3;

    public record Example(long line, String statement) {}

    public record Reason(String reason, long count, List<Example> examples) {}

    long records;
    long statements;
    long resolved;
    long events;
    long eventsWithoutKey;
    long shapes;
    long shapeCacheHits;
    final Map<String, Long> ignored = new LinkedHashMap<>();
    final Map<String, long[]> unresolvedCounts = new LinkedHashMap<>();
    final Map<String, List<Example>> unresolvedExamples = new LinkedHashMap<>();

    void unresolved(String reason, long line, String sql) {
        unresolvedCounts.computeIfAbsent(reason, k -> new long[1])[0]++;
        List<Example> ex = unresolvedExamples.computeIfAbsent(reason, k -> new ArrayList<>());
        if (ex.size() < EXAMPLES) {
            ex.add(new Example(line, sql.length() > 200 ? sql.substring(0, 200) + "..." : sql));
        }
    }

    /** Trace records read (statements and page requests). */
    public long records() {
        return records;
    }

    /** SQL statements seen, including those a page request expands to. */
    public long statements() {
        return statements;
    }

    public long resolved() {
        return resolved;
    }

    public long unresolved() {
        return unresolvedCounts.values().stream().mapToLong(c -> c[0]).sum();
    }

    public long ignoredTotal() {
        return ignored.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Statements that touch no data, by first keyword (BEGIN, SET, SHOW, ...). */
    public Map<String, Long> ignored() {
        return Map.copyOf(ignored);
    }

    public long events() {
        return events;
    }

    /** Events whose key is not literal in the statement (bound by a join or a parameter the trace does not give). */
    public long eventsWithoutKey() {
        return eventsWithoutKey;
    }

    /** Distinct statement shapes Calcite resolved or rejected. */
    public long shapes() {
        return shapes;
    }

    public long shapeCacheHits() {
        return shapeCacheHits;
    }

    /**
     * When no statement resolved: what is missing, in a sentence (the tables the statements name
     * that the schema lacks), so that the user knows to give the schema or the data; null when
     * some statement resolved or none was tried.
     */
    public String missing() {
        if (resolved > 0 || unresolved() == 0) {
            return null;
        }
        Set<String> tables = new TreeSet<>();
        Pattern p = Pattern.compile("(?:Object|Table) '([^']+)' not found");
        for (String reason : unresolvedCounts.keySet()) {
            Matcher m = p.matcher(reason);
            while (m.find() && tables.size() < 5) {
                tables.add(m.group(1));
            }
        }
        return "none of the " + unresolved() + " statements resolved against the schema"
                + (tables.isEmpty() ? "" : " (it has no table " + String.join(", ", tables) + ")")
                + ": give the schema the trace runs on (trace stats --schema FILE, or the dump with analyze --trace or replay --data)";
    }

    /** Unresolved statements by reason, most frequent first. */
    public List<Reason> unresolvedReasons() {
        List<Reason> out = new ArrayList<>();
        unresolvedCounts.forEach((r, c) -> out.add(new Reason(r, c[0], List.copyOf(unresolvedExamples.get(r)))));
        out.sort((a, b) -> Long.compare(b.count, a.count));
        return out;
    }
}
