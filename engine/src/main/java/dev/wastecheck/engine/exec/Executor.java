package dev.wastecheck.engine.exec;

import dev.wastecheck.engine.block.ArrowStorage;
import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.index.FieldSource;
import dev.wastecheck.engine.index.IndexCache;
import dev.wastecheck.engine.metrics.DeviceTime;
import dev.wastecheck.engine.metrics.LatencyRecorder;
import dev.wastecheck.engine.table.ColumnCodec;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.HotColdUpkeep;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.Values;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.access.ResultDigest;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.LongConsumer;

/**
 * Executes access events against a {@link Database}: the engine's executor (the {@code replay}
 * module runs the experiment around it: loading a source per configuration, repeats, checks and
 * reports). What runs:
 * <ul>
 *   <li>lookups and ranges through the B+tree with the statement's key or key prefix (answered
 *       from the index cache when the projection is covered by the key and cached fields);</li>
 *   <li>keys that only a join binds ({@code slots JOIN content ON slot_content_id = content_id}),
 *       as a nested loop: the statement's other table's event runs first and each row it finds
 *       gives the key of one lookup;</li>
 *   <li>scans: every page of the table, the page's column kernel selecting on one bound
 *       ({@code scanBetween}/{@code scanEquals}), the other bounds checked per tuple;</li>
 *   <li>updates and deletes of the matching tuples, inserts of the given values.</li>
 * </ul>
 * Every read is filtered by the event's other {@link dev.wastecheck.model.access.Bound}s. What the
 * trace cannot pin down is skipped and counted per reason ({@link ExecutionResult#skippedByReason()}).
 *
 * <p>Each executed event's result is reduced to a {@link ResultDigest}, so that configurations
 * (and SQLite and DuckDB) can be checked against one another event by event. The event's rows are
 * copied into {@link ResultRows} while it runs (the engine's result building) and digested after its
 * clock stops (the check is the harness's work, not the engine's).
 *
 * <p>Each event's statement is resolved by name once, before the run ({@code Prepared}: table, index,
 * projection, the key's literals), as a prepared statement is; executing it encodes the key and the
 * values from their literals and does the rest.
 *
 * <p>Latency is measured per event with {@link System#nanoTime()}; the device time of buffer-pool
 * misses is modeled apart ({@link DeviceTime}). Events before {@code measureFrom} run unmeasured:
 * a warm-up share, or with a train/held-out split the training events, after which the buffer
 * pool and the hot partitions are what the training left.
 */
public final class Executor {
    private final Database db;
    /** The current event's rows, as the engine returns them (inside its latency). */
    private final ResultRows result = new ResultRows();
    /** The rows reduced for --check, after the event's clock stopped (the harness's work). */
    private final ResultDigest digest = new ResultDigest();

    private final Map<Table, Record> records = new HashMap<>();
    private final Map<Table, Record> scratch = new HashMap<>();
    private long rowsReturned;
    /** The reads per tuple of a training (lookups, ranges, keys a join binds, updates). */
    private final TrainingHeat heat = new TrainingHeat();
    /** With {@link #recordJoins}: the keys each join-bound event looked up, else null. */
    private JoinBindings joinBindings;

    public Executor(Database db) {
        this.db = db;
    }

    /**
     * Makes {@link #run} record the keys each join-bound event looked up ({@link ExecutionResult#joinBindings()}),
     * so that a table's events can be replayed without the tables that drove them (autotune's per-table search).
     */
    public Executor recordJoins() {
        joinBindings = new JoinBindings();
        return this;
    }

    /** How an event runs, decided once per run with its statement's other events in view. */
    private enum Kind {
        KEY,
        JOIN,
        SCAN,
        INSERT,
        SKIP
    }

    /**
     * @param reason   for SKIP, why
     * @param driver   for JOIN, the event of the same statement whose rows bind the key
     * @param sources  for JOIN, per bound key column in index order: the driver column (a field of the driver's table)
     *                 giving its value, or -1 where the statement gives a literal
     * @param prep     what the statement resolves to before it runs ({@link #prepare}), or null until then
     */
    private record Step(Kind kind, String reason, int driver, int[] sources, Prepared prep) {
        static Step skip(String why) {
            return new Step(Kind.SKIP, why, -1, null, null);
        }

        Step with(Prepared p) {
            return new Step(kind, reason, driver, sources, p);
        }

        static final Step KEY_STEP = new Step(Kind.KEY, null, -1, null, null);
        static final Step SCAN_STEP = new Step(Kind.SCAN, null, -1, null, null);
        static final Step INSERT_STEP = new Step(Kind.INSERT, null, -1, null, null);
    }

    /**
     * What an event's statement resolves to by name, once, before it runs, as a prepared statement is
     * planned once and then executed with its parameters: the table, the index it goes through, the
     * projected fields, the key's literals in index order, the fields its values set, and for a join's
     * driver the fields its joins need. Executing it still encodes the key and the values from their
     * literals (the parameters' binding), which depends on the table's state (a dictionary's codes).
     * Resolving names took 10% of an event's CPU in a profile of the replay (docs/benchmarks.md, "The
     * measured cost, profiled").
     *
     * @param index         the index the event names, -1 for none (an insert, a scan)
     * @param fields        the projected fields in table order (a read, a join)
     * @param literals      for KEY: the bound key columns' literals in key order, or null when it binds none
     * @param whole         for KEY: whether every key column is bound
     * @param valueFields   per entry of the event's values, in their order: the field it sets, or -1
     * @param collectFields for a join's driver: the fields of its rows the joins it drives need, else null
     */
    private record Prepared(
            Table table,
            int index,
            int[] fields,
            List<String> literals,
            boolean whole,
            int[] valueFields,
            int[] collectFields) {}

    private Prepared prepare(AccessEvent e, Step s, int[] collectFields) {
        Table t = db.table(e.table());
        int ix = e.index() == null ? -1 : t.indexNamed(e.index());
        int[] fields = null;
        List<String> literals = null;
        boolean whole = false;
        if (s.kind == Kind.SCAN) fields = scanProjection(t, e);
        else if (s.kind == Kind.KEY || s.kind == Kind.JOIN) {
            fields = projection(t, ix, e);
            BoundKey b = s.kind == Kind.KEY ? BoundKey.bind(t, e) : null;
            if (b != null) {
                literals = b.literals();
                whole = b.whole();
            }
        }
        int[] valueFields = new int[e.values().size()];
        int k = 0;
        for (String c : e.values().keySet()) valueFields[k++] = t.spec().columnIndex(c);
        return new Prepared(t, ix, fields, literals, whole, valueFields, collectFields);
    }

    /** Whether the engine can execute this event from the trace alone, without its statement's other events. */
    public boolean executable(AccessEvent e) {
        return step(e).kind != Kind.SKIP;
    }

    /** Why an event alone cannot run, or null when it can. */
    public String skipReason(AccessEvent e) {
        return step(e).reason;
    }

    private Step step(AccessEvent e) {
        Table t = db.table(e.table());
        if (t == null) return Step.skip("table not loaded");
        switch (e.operation()) {
            case INSERT:
                return e.values().isEmpty() ? Step.skip("insert without literal values") : Step.INSERT_STEP;
            case UPDATE:
                if (e.values().isEmpty()) return Step.skip("update without literal values");
            // fall through: also needs its key
            case POINT_LOOKUP:
            case RANGE:
            case DELETE: {
                String bounds = BoundFilter.problem(t, e.bounds());
                if (bounds != null) return Step.skip(bounds);
                if (BoundKey.of(t, e) != null) return Step.KEY_STEP;
                if (e.index() == null)
                    return e.operation() == Operation.UPDATE || e.operation() == Operation.DELETE
                            ? Step.skip("update or delete without a key")
                            : Step.SCAN_STEP;
                return Step.skip("key not given (a parameter without a value)");
            }
            case SCAN: {
                String bounds = BoundFilter.problem(t, e.bounds());
                return bounds != null ? Step.skip(bounds) : Step.SCAN_STEP;
            }
            default:
                return Step.skip("operation " + e.operation());
        }
    }

    /** The steps of all events: per statement (consecutive events of one trace line and time), keys a join binds find their driver. */
    private Step[] plan(List<AccessEvent> events) {
        Step[] steps = new Step[events.size()];
        for (int i = 0; i < events.size(); i++) steps[i] = step(events.get(i));
        int start = 0;
        while (start < events.size()) {
            int end = start + 1;
            while (end < events.size() && sameStatement(events.get(start), events.get(end))) end++;
            if (end - start > 1) {
                for (int i = start; i < end; i++) {
                    if (steps[i].kind == Kind.SKIP && !events.get(i).joinKeys().isEmpty()) {
                        Step j = joinStep(events, steps, i, start, end);
                        if (j != null) steps[i] = j;
                        else steps[i] = Step.skip("key bound by a join with no driving row");
                    }
                }
            } else if (steps[start].kind == Kind.SKIP
                    && !events.get(start).joinKeys().isEmpty()) {
                steps[start] = Step.skip("key bound by a join with no driving row");
            }
            start = end;
        }
        boolean[] drives = new boolean[events.size()];
        for (Step s : steps) if (s.kind == Kind.JOIN) drives[s.driver] = true;
        for (int i = 0; i < events.size(); i++) {
            if (steps[i].kind == Kind.SKIP) continue;
            int[] collect = drives[i] ? collector(events, steps, i).fields : null;
            steps[i] = steps[i].with(prepare(events.get(i), steps[i], collect));
        }
        return steps;
    }

    private static boolean sameStatement(AccessEvent a, AccessEvent b) {
        return a.line() == b.line() && a.timeMillis() == b.timeMillis() && a.line() >= 0;
    }

    /** A nested loop for event i: every leading key column bound by a literal or by one driver table's column. */
    private Step joinStep(List<AccessEvent> events, Step[] steps, int i, int start, int end) {
        AccessEvent e = events.get(i);
        if (e.operation() == Operation.INSERT || e.operation() == Operation.SCAN || e.index() == null) return null;
        Table t = db.table(e.table());
        if (BoundFilter.problem(t, e.bounds()) != null) return null;
        int ix = t.indexNamed(e.index());
        if (ix < 0) return null;
        List<String> cols = t.spec().indexes().get(ix).columns();
        String driverTable = null;
        List<Integer> sources = new ArrayList<>();
        for (String c : cols) {
            if (e.key().containsKey(c) && e.key().get(c) != null) {
                sources.add(-1);
                continue;
            }
            String src = joinSource(e, c);
            if (src == null) break;
            int dot = src.lastIndexOf('.');
            String st = src.substring(0, dot);
            if (driverTable != null && !driverTable.equalsIgnoreCase(st)) break;
            Table s = db.table(st);
            if (s == null) return null;
            int f = s.spec().columnIndex(src.substring(dot + 1));
            if (f < 0) return null;
            driverTable = st;
            sources.add(f);
        }
        if (driverTable == null || sources.isEmpty()) return null;
        for (int d = start; d < end; d++) {
            if (d != i
                    && events.get(d).table().equalsIgnoreCase(driverTable)
                    && (steps[d].kind == Kind.KEY || steps[d].kind == Kind.SCAN)) {
                return new Step(
                        Kind.JOIN,
                        null,
                        d,
                        sources.stream().mapToInt(Integer::intValue).toArray(),
                        null);
            }
        }
        return null;
    }

    private static String joinSource(AccessEvent e, String column) {
        for (Map.Entry<String, String> j : e.joinKeys().entrySet())
            if (j.getKey().equalsIgnoreCase(column)) return j.getValue();
        return null;
    }

    /**
     * Replays {@code events}, the first {@code warmup} share unmeasured; events that cannot run are
     * skipped (digest 0).
     *
     * @param progress receives the number of events done, every 4,096
     */
    public ExecutionResult run(
            String label,
            String settings,
            List<AccessEvent> events,
            double warmup,
            long loadMillis,
            Map<String, Long> moved,
            LongConsumer progress) {
        return run(
                label,
                settings,
                events,
                (int) Math.min(events.size(), Math.round(events.size() * warmup)),
                loadMillis,
                moved,
                progress);
    }

    /**
     * Replays {@code events}, measuring from event {@code measureFrom} on (the events before it run
     * unmeasured: a warm-up, or the training part of a split trace).
     */
    public ExecutionResult run(
            String label,
            String settings,
            List<AccessEvent> events,
            int measureFrom,
            long loadMillis,
            Map<String, Long> moved,
            LongConsumer progress) {
        return run(label, settings, events, measureFrom, loadMillis, moved, null, progress);
    }

    /**
     * What a design learns from the training events, applied between the last of them and the
     * first measured one: given the reads per tuple the training made, it reorganizes the database
     * (clustering, the hot partition) and returns the tuples it moved per table.
     */
    @FunctionalInterface
    public interface Learner {
        /**
         * @param heat        reads per tuple id of each table's main partition, hottest first
         * @param indexesRead per table, the indexes the training's reads, updates and deletes went through
         */
        Map<String, Long> learn(Map<Table, LinkedHashMap<Long, Long>> heat, Map<Table, boolean[]> indexesRead);
    }

    /** The indexes the events counted so far went through (by {@link #heatOf} or a run's training), per table. */
    public Map<Table, boolean[]> indexesRead() {
        return heat.indexesRead();
    }

    /**
     * Per table, the tuple ids (of the main partition, as the last heat counted left them) that the
     * second half of those events read first: no event of the first half read them, and no event of
     * the second half inserted them.
     */
    public Map<Table, Set<Long>> readLate() {
        return heat.readLate();
    }

    /**
     * Replays {@code events}; the events before {@code measureFrom} are the training part: they run
     * unmeasured while the reads per tuple are counted, and then {@code learner} (when not null)
     * reorganizes the database from those counts before the first measured event.
     */
    public ExecutionResult run(
            String label,
            String settings,
            List<AccessEvent> events,
            int measureFrom,
            long loadMillis,
            Map<String, Long> moved,
            Learner learner,
            LongConsumer progress) {
        if (learner != null && measureFrom > 0) heat.start(db, measureFrom / 2);
        BufferPool pool = db.pool();
        double leafFill = db.leafFill();
        Step[] steps = plan(events);
        long[] digests = new long[events.size()];
        BitSet executedEvents = new BitSet(events.size());
        LatencyRecorder latency = new LatencyRecorder();
        int warm = Math.max(0, Math.min(events.size(), measureFrom));
        long executed = 0, skipped = 0, measured = 0, engineNanos = 0;
        long pins0 = 0, rows0 = 0, decompressed0 = 0;
        long[] split0 = new long[5];
        Map<String, Long> skippedBy = new TreeMap<>();
        DeviceTime device = new DeviceTime(db.device());
        long started = System.nanoTime();
        ArrowStorage arrow = db.arrow();
        Map<Integer, List<String[]>> driven = new HashMap<>();
        int groupEnd = -1;
        for (int i = 0; i < events.size(); i++) {
            heat.at(i);
            if (i == warm && heat.counting()) {
                Map<Table, LinkedHashMap<Long, Long>> learned = heat.finish();
                Map<String, Long> all = new LinkedHashMap<>(moved);
                learner.learn(learned, heat.indexesRead()).forEach((k, v) -> all.merge(k, v, Long::sum));
                moved = all;
            }
            if (i == warm) startMeasuring(pool);
            if (i == warm && arrow != null) arrow.trackTouched();
            // layout=arrow: one GC epoch per event, then the transformation, as a background thread
            // would run them between statements (outside the event's latency; cold_after counts events).
            if (arrow != null) arrow.tick();
            if (i == warm) {
                device.start();
                pins0 = pool.pins();
                rows0 = rowsReturned;
                decompressed0 = db.decompressedBytes();
                split0 = db.decompressionSplit();
            }
            if (i > groupEnd) {
                groupEnd = i;
                while (groupEnd + 1 < events.size() && sameStatement(events.get(i), events.get(groupEnd + 1)))
                    groupEnd++;
                driven.clear();
                // Drivers first: a join's driver may come after the event it drives in the statement's order.
                for (int k = i; k <= groupEnd; k++) if (steps[k].kind == Kind.JOIN) driven.put(steps[k].driver, null);
            }
            Step s = steps[i];
            if (s.kind == Kind.SKIP) {
                if (i >= warm) skippedBy.merge(s.reason, 1L, Long::sum);
                skipped++;
                continue;
            }
            if (s.kind == Kind.JOIN && driven.get(s.driver) == null) {
                // the driver comes later in the statement: run it now, unmeasured as an event of its own, for its rows
                runDriver(events, steps, s.driver, driven, i);
            }
            AccessEvent e = events.get(i);
            long t0 = System.nanoTime();
            execute(e, s, driven, i, events, steps);
            long dt = System.nanoTime() - t0;
            // --check's reduction of the rows, after the clock: the harness's work, not the engine's
            digests[i] = result.digest(digest);
            executedEvents.set(i);
            executed++;
            if (i >= warm) {
                latency.recordNanos(dt);
                engineNanos += dt;
                measured++;
            }
            if ((i & 4095) == 0) progress.accept(i);
        }
        progress.accept(events.size());
        long replayMillis = (System.nanoTime() - started) / 1_000_000;
        // Read the pool's figures before anything below pins pages (cache occupancy walks every leaf).
        // The prefix filters, heat counters and dictionaries live outside the pool and are read by lookups: part of the
        // working set.
        long touchedBytes = pool.touchedPages() * pool.pageSize() + db.sideBytes();
        for (Table t : db.tables())
            for (Table.Part p : t.parts()) touchedBytes += p.heap().touchedBytes(); // Arrow blocks touched
        Map<String, Long> byStructure = new LinkedHashMap<>();
        db.touchedBytesByStructure().entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed().thenComparing(Map.Entry.comparingByKey()))
                .forEach(x -> byStructure.put(x.getKey(), x.getValue()));
        long pins = pool.pins() - pins0;
        Map<String, Long> pinsByKind = db.pinsByKind(); // read before the cache walk below pins leaves
        double bufferHitRate = pool.hitRate();
        double devUs = device.microsPerQuery(measured);
        long cacheHits = 0, cacheLookups = 0;
        for (Table t : db.tables()) {
            for (Table.Part p : t.parts()) {
                for (int ix = 0; ix < t.indexCount(); ix++) {
                    IndexCache c = p.cache(ix);
                    if (c != null) {
                        cacheHits += c.hits();
                        cacheLookups += c.hits() + c.misses();
                    }
                }
            }
        }
        Map<String, Long> upkeep = new LinkedHashMap<>();
        for (Table t : db.tables()) {
            HotColdUpkeep u = t.upkeep();
            if (u != null) {
                upkeep.put(t.name() + ".promoted", u.promoted());
                upkeep.put(t.name() + ".demoted", u.demoted());
                if (u.promotedByReference() + u.demotedByReference() > 0) {
                    upkeep.put(t.name() + ".promoted_by_reference", u.promotedByReference());
                    upkeep.put(t.name() + ".demoted_by_reference", u.demotedByReference());
                }
            }
        }
        LatencyRecorder.Summary lat = latency.summary();
        double pagesPerQuery = measured == 0 ? 0 : (double) pins / measured;
        if (arrow != null && !arrow.moves().isEmpty()) {
            // Compaction relocates tuples too (§4.3): they count with the clustering's.
            Map<String, Long> all = new LinkedHashMap<>(moved);
            arrow.moves().forEach((t, n) -> all.merge(t, n, Long::sum));
            moved = all;
        }
        // Arrow blocks live in memory beside the buffer pool, which keeps the indexes.
        long memory = pool.memoryBytes() + (arrow == null ? 0 : arrow.bytes());
        long[] split1 = db.decompressionSplit();
        return new ExecutionResult(
                label,
                settings,
                measured,
                executed,
                skipped,
                rowsReturned - rows0,
                memory,
                db.heapBytes(),
                db.indexBytes(),
                db.cacheBytes(),
                touchedBytes,
                leafFill,
                bufferHitRate,
                cacheLookups == 0 ? 0 : (double) cacheHits / cacheLookups,
                pagesPerQuery,
                lat,
                devUs,
                (measured == 0 ? 0 : lat.mean()) + devUs,
                engineNanos == 0 ? 0 : measured * 1e9 / engineNanos,
                loadMillis,
                replayMillis,
                moved,
                digests,
                executedEvents,
                byStructure,
                skippedBy,
                pins,
                device.reads(),
                device.writes(),
                upkeep,
                joinBindings == null ? Map.of() : joinBindings.byEvent(),
                arrow == null ? 0 : arrow.tupleAccesses(),
                db.hotRules(),
                db.decompressedBytes() - decompressed0,
                db.deviceReadsByStructure(),
                split1[0] - split0[0],
                split1[1] - split0[1],
                split1[2] - split0[2],
                split1[3] - split0[3],
                split1[4] - split0[4],
                db.indexBytesByStructure(),
                db.indexBytesByIndex(),
                pool.pageSize(),
                pinsByKind);
    }

    /**
     * The reads per tuple of each table's main partition that {@code events} make, hottest first,
     * counted by running their reads (lookups, ranges, keys a join binds) and nothing else: the
     * oracle's heat, from the very events a run then measures. Changes nothing in the database.
     */
    public Map<Table, LinkedHashMap<Long, Long>> heatOf(List<AccessEvent> events) {
        Step[] steps = plan(events);
        heat.start(db, events.size() / 2);
        Map<Integer, List<String[]>> driven = new HashMap<>();
        int groupEnd = -1;
        for (int i = 0; i < events.size(); i++) {
            heat.at(i);
            if (i > groupEnd) {
                groupEnd = i;
                while (groupEnd + 1 < events.size() && sameStatement(events.get(i), events.get(groupEnd + 1)))
                    groupEnd++;
                driven.clear();
                for (int k = i; k <= groupEnd; k++) if (steps[k].kind == Kind.JOIN) driven.put(steps[k].driver, null);
            }
            AccessEvent e = events.get(i);
            Operation op = e.operation();
            // Updates and deletes are not run, but the indexes they go through must stay in a hot partition, as when
            // the training runs them: without its index, an update by a secondary key scans the partition's heap.
            Table target = db.table(e.table());
            if (target != null) heat.noteIndex(target, e);
            boolean read = op == Operation.POINT_LOOKUP || op == Operation.RANGE;
            if (!read || (steps[i].kind != Kind.KEY && steps[i].kind != Kind.JOIN)) continue;
            if (steps[i].kind == Kind.JOIN && driven.get(steps[i].driver) == null)
                runDriver(events, steps, steps[i].driver, driven, i);
            Table t = target;
            result.reset();
            Collector collect = driven.containsKey(i) && driven.get(i) == null ? collector(steps[i], t) : null;
            if (steps[i].kind == Kind.KEY) read(t, e, steps[i], collect);
            else join(t, e, steps[i], driven.get(steps[i].driver), i);
            if (collect != null) driven.put(i, collect.rows);
        }
        return heat.finish();
    }

    private void startMeasuring(BufferPool pool) {
        pool.resetCounters();
        resetCacheCounters();
        pool.trackTouched();
    }

    private void resetCacheCounters() {
        for (Table t : db.tables()) {
            for (Table.Part p : t.parts()) {
                for (int ix = 0; ix < t.indexCount(); ix++) {
                    if (p.cache(ix) != null) p.cache(ix).resetCounters();
                }
            }
        }
    }

    private Record record(Table t) {
        return records.computeIfAbsent(t, k -> new Record(k.schema()));
    }

    private Record scratchRecord(Table t) {
        return scratch.computeIfAbsent(t, k -> new Record(k.schema()));
    }

    /** Executes one event that can run on its own (no join-bound key); returns its result digest. */
    public long execute(AccessEvent e) {
        Step s = step(e);
        if (s.kind == Kind.SKIP) throw new IllegalArgumentException("event cannot run: " + s.reason);
        s = s.with(prepare(e, s, null));
        execute(e, s, Map.of(), -1, List.of(e), new Step[] {s});
        return result.digest(digest);
    }

    /** Runs a driver out of order for the rows a later event's key needs (its digest is what it will give in its own turn). */
    private void runDriver(
            List<AccessEvent> events, Step[] steps, int driver, Map<Integer, List<String[]>> driven, int by) {
        Step s = steps[driver];
        AccessEvent d = events.get(driver);
        Collector c = collector(s, s.prep.table);
        readOnly(d, s, c);
        driven.put(driver, c.rows);
    }

    /**
     * Which driver columns the joins it drives need, and the rows collected: each row an array
     * over the driver table's fields, the needed ones filled with their literal text.
     */
    private static final class Collector {
        final int[] fields;
        final int width;
        final List<String[]> rows = new ArrayList<>();

        Collector(int[] fields, int width) {
            this.fields = fields;
            this.width = width;
        }
    }

    /** A driver's collector, from the fields its statement's joins need (prepared). */
    private static Collector collector(Step s, Table t) {
        return new Collector(s.prep.collectFields, t.schema().fieldCount());
    }

    /** The collector of a driver: the fields the joins of its statement (the events around it with the same line and time) need. */
    private Collector collector(List<AccessEvent> events, Step[] steps, int driver) {
        int start = driver, end = driver + 1;
        while (start > 0 && sameStatement(events.get(start - 1), events.get(driver))) start--;
        while (end < events.size() && sameStatement(events.get(driver), events.get(end))) end++;
        List<Integer> fields = new ArrayList<>();
        for (int k = start; k < end; k++) {
            if (steps[k].kind == Kind.JOIN && steps[k].driver == driver) {
                for (int f : steps[k].sources) if (f >= 0 && !fields.contains(f)) fields.add(f);
            }
        }
        return new Collector(
                fields.stream().mapToInt(Integer::intValue).toArray(),
                db.table(events.get(driver).table()).schema().fieldCount());
    }

    /** Executes one event, its rows left in {@link #result}. */
    private void execute(
            AccessEvent e, Step s, Map<Integer, List<String[]>> driven, int i, List<AccessEvent> events, Step[] steps) {
        Table t = s.prep.table;
        heat.noteIndex(t, e);
        HotColdUpkeep up = t.upkeep();
        if (up != null) up.tick();
        result.reset();
        Collector collect = driven.containsKey(i) && driven.get(i) == null ? collector(s, t) : null;
        switch (s.kind) {
            case INSERT -> insert(t, e, s.prep);
            case KEY, SCAN -> {
                if (e.operation() == Operation.UPDATE || e.operation() == Operation.DELETE) modifyByKey(t, e, s.prep);
                else read(t, e, s, collect);
            }
            case JOIN -> join(t, e, s, driven.get(s.driver), i);
            default -> throw new IllegalStateException(s.kind.toString());
        }
        if (collect != null) driven.put(i, collect.rows);
        if (up != null) up.afterEvent();
        t.settleWatchers(); // §3.1 by reference: a new page_latest moved the revisions it names
    }

    /** Runs a read event for its rows only (no digest kept). */
    private void readOnly(AccessEvent e, Step s, Collector c) {
        long rows = rowsReturned;
        Table t = s.prep.table;
        result.reset();
        read(t, e, s, c);
        rowsReturned = rows;
        result.reset();
    }

    private void read(Table t, AccessEvent e, Step s, Collector collect) {
        Prepared p = s.prep;
        int[] fields = p.fields;
        BoundFilter filter = e.bounds().isEmpty() ? null : BoundFilter.of(t, e.bounds());
        if (s.kind == Kind.SCAN) {
            scan(t, e, fields, filter, collect);
            return;
        }
        byte[] key = t.keyOfLiterals(p.index, p.literals);
        if (key == null) return; // a literal no stored value can equal: no rows
        lookup(t, p.index, key, p.whole, p.literals, fields, filter, collect);
    }

    /** The projected fields in table order; the key's when the statement projects nothing of this table. */
    private static int[] projection(Table t, int ix, AccessEvent e) {
        int n = t.schema().fieldCount();
        boolean[] want = new boolean[n];
        int count = 0;
        for (String c : e.projected()) {
            int f = t.spec().columnIndex(c);
            if (f >= 0 && !want[f]) {
                want[f] = true;
                count++;
            }
        }
        if (count == 0) {
            for (int f : t.keyFields(ix))
                if (!want[f]) {
                    want[f] = true;
                    count++;
                }
        }
        int[] out = new int[count];
        for (int f = 0, k = 0; f < n; f++) if (want[f]) out[k++] = f;
        return out;
    }

    /** A scan's projected fields in table order; when it projects nothing of this table (count(*)), the primary key's, else the first column. */
    private static int[] scanProjection(Table t, AccessEvent e) {
        boolean[] want = new boolean[t.schema().fieldCount()];
        int count = 0;
        for (String c : e.projected()) {
            int f = t.spec().columnIndex(c);
            if (f >= 0 && !want[f]) {
                want[f] = true;
                count++;
            }
        }
        if (count == 0) {
            int pk = t.indexNamed(IndexSpec.PRIMARY);
            return pk >= 0 ? t.keyFields(pk).clone() : new int[] {0};
        }
        int[] out = new int[count];
        for (int f = 0, k = 0; f < want.length; f++) if (want[f]) out[k++] = f;
        return out;
    }

    /** {@code fields} plus {@code more}, in table order. */
    private static int[] union(Table t, int[] fields, int[] more) {
        if (more == null || more.length == 0) return fields;
        boolean[] want = new boolean[t.schema().fieldCount()];
        for (int f : fields) want[f] = true;
        for (int f : more) want[f] = true;
        int n = 0;
        for (boolean w : want) if (w) n++;
        int[] out = new int[n];
        for (int f = 0, k = 0; f < want.length; f++) if (want[f]) out[k++] = f;
        return out;
    }

    private void lookup(
            Table t,
            int ix,
            byte[] key,
            boolean whole,
            List<String> literals,
            int[] fields,
            BoundFilter filter,
            Collector collect) {
        HotColdUpkeep up = t.upkeep();
        if (filter == null
                && collect == null
                && whole
                && t.unique(ix)
                && t.main().cache(ix) != null
                && covered(t, ix, fields)
                && t.noted(t.main(), ix, key) == TupleId.NONE) { // a noted cold tuple is in no leaf yet
            for (Table.Part p : t.parts()) {
                IndexCache c = p.cache(ix);
                if (c == null) continue;
                byte[] out = cacheOut(c);
                long tid = c.lookup(key, fieldSource(p, t, ix), out);
                if (tid != TupleId.NONE) {
                    if (up != null) up.read(p, tid);
                    heat.read(t, p, tid);
                    digestFromCache(t, ix, fields, literals, out);
                    return;
                }
            }
            return;
        }
        Record r = record(t);
        int[] read = union(
                t, union(t, fields, filter == null ? null : filter.fields()), collect == null ? null : collect.fields);
        t.find(ix, key, whole, (p, tid) -> {
            t.project(p, tid, read, r);
            if (filter != null && !filter.matches(r)) return true;
            if (up != null) up.read(p, tid);
            heat.read(t, p, tid);
            digestRow(t, fields, r);
            if (collect != null) collect.rows.add(values(t, collect, r));
            return true;
        });
    }

    private void scan(Table t, AccessEvent e, int[] fields, BoundFilter filter, Collector collect) {
        if (filter != null && filter.matchesNothing()) return;
        Record r = record(t);
        int[] read = union(
                t, union(t, fields, filter == null ? null : filter.fields()), collect == null ? null : collect.fields);
        int kf = filter == null ? -1 : filter.kernelField;
        for (Table.Part p : t.parts()) {
            t.scan(
                    p,
                    kf,
                    kf < 0 ? 0 : filter.kernelLo,
                    kf < 0 ? 0 : filter.kernelHi,
                    kf < 0 ? null : filter.kernelEqual,
                    tid -> {
                        t.project(p, tid, read, r);
                        if (filter != null && !filter.matches(r)) return true;
                        digestRow(t, fields, r);
                        if (collect != null) collect.rows.add(values(t, collect, r));
                        return true;
                    });
        }
    }

    /** A row's values of the collected fields as literals (the text a trace would give for them), by field; null for NULL. */
    private static String[] values(Table t, Collector c, Record r) {
        String[] out = new String[c.width];
        for (int f : c.fields) out[f] = literal(t, f, r);
        return out;
    }

    private static String literal(Table t, int f, Record r) {
        return Values.literal(t, f, r);
    }

    /** A key a join binds: one lookup (or update, delete) per row of the driver, the rows' results together. */
    private void join(Table t, AccessEvent e, Step s, List<String[]> driverRows, int event) {
        if (joinBindings != null) joinBindings.begin(event);
        int ix = s.prep.index;
        List<String> cols = t.spec().indexes().get(ix).columns();
        boolean modify = e.operation() == Operation.UPDATE || e.operation() == Operation.DELETE;
        long changed = 0;
        int[] fields = s.prep.fields;
        BoundFilter filter = e.bounds().isEmpty() ? null : BoundFilter.of(t, e.bounds());
        for (String[] row : driverRows == null ? List.<String[]>of() : driverRows) {
            List<String> literals = new ArrayList<>();
            boolean nullKey = false;
            for (int k = 0; k < s.sources.length; k++) {
                String v = s.sources[k] < 0 ? e.key().get(keyColumn(e, cols.get(k))) : row[s.sources[k]];
                if (v == null) {
                    nullKey = true;
                    break;
                }
                literals.add(v);
            }
            if (nullKey) continue; // NULL equals nothing
            if (joinBindings != null) joinBindings.lookup(event, literals);
            byte[] key = t.keyOfLiterals(ix, literals);
            if (key == null) continue;
            boolean whole = literals.size() == cols.size();
            if (modify) changed += modify(t, e, s.prep, key, whole);
            else lookup(t, ix, key, whole, literals, fields, filter, null);
        }
        if (modify) {
            result.reset();
            countRow(changed);
        }
    }

    private static String keyColumn(AccessEvent e, String column) {
        for (String k : e.key().keySet()) if (k.equalsIgnoreCase(column)) return k;
        return column;
    }

    private static int indexOf(int[] a, int v) {
        if (a == null) return -1;
        for (int i = 0; i < a.length; i++) if (a[i] == v) return i;
        return -1;
    }

    private final Map<IndexCache, byte[]> cacheBuffers = new HashMap<>();
    private final Map<IndexCache, FieldSource> sources = new HashMap<>();

    private byte[] cacheOut(IndexCache c) {
        return cacheBuffers.computeIfAbsent(c, k -> new byte[k.fieldBytes()]);
    }

    private FieldSource fieldSource(Table.Part p, Table t, int ix) {
        IndexCache c = p.cache(ix);
        return sources.computeIfAbsent(c, k -> p.heap().fieldSource(t.cacheFields(ix)));
    }

    /** Whether every projected field is a key column or a cached field of the index. */
    private static boolean covered(Table t, int ix, int[] fields) {
        if (t.cacheFields(ix).length == 0) return false;
        outer:
        for (int f : fields) {
            for (int k : t.keyFields(ix)) if (k == f) continue outer;
            for (int c : t.cacheFields(ix)) if (c == f) continue outer;
            return false;
        }
        return true;
    }

    private void digestFromCache(Table t, int ix, int[] fields, List<String> literals, byte[] out) {
        result.beginRow();
        int[] keys = t.keyFields(ix);
        int[] cached = t.cacheFields(ix);
        for (int f : fields) {
            int k = indexOf(keys, f);
            if (k >= 0) {
                if (t.codec(f) != null || t.schema().type(f).isVariable()) result.addString(literals.get(k));
                else if (t.schema().type(f) == FieldType.FLOAT64) result.addDouble(Double.parseDouble(literals.get(k)));
                else result.addLong(Long.parseLong(literals.get(k)));
                continue;
            }
            int off = 0;
            for (int c : cached) {
                int w = t.schema().type(c).width;
                if (c == f) break;
                off += w;
            }
            FieldType type = t.schema().type(f);
            long v = HeapFile.decode(out, off, type);
            ColumnCodec codec = t.codec(f);
            if (codec != null) {
                byte[] b = codec.decode(v);
                result.addBytes(b, 0, b.length);
            } else if (type == FieldType.FLOAT64) result.addDouble(Double.longBitsToDouble(v));
            else result.addLong(v);
        }
        result.endRow();
        rowsReturned++;
    }

    private void digestRow(Table t, int[] fields, Record r) {
        result.beginRow();
        for (int f : fields) {
            if (r.isNull(f)) result.addNull();
            else {
                FieldType type = t.schema().type(f);
                ColumnCodec codec = t.codec(f);
                if (codec != null) {
                    byte[] b = codec.decode(r.getLong(f));
                    result.addBytes(b, 0, b.length);
                } else if (type.isVariable()) result.addBytes(r.bytes(f), 0, r.length(f));
                else if (type == FieldType.FLOAT64) result.addDouble(r.getDouble(f));
                else result.addLong(r.getLong(f));
            }
        }
        result.endRow();
        rowsReturned++;
    }

    private void countRow(long n) {
        result.beginRow();
        result.addLong(n);
        result.endRow();
    }

    /** The tuples an update or delete matches: {partition (0 main, 1 hot), tid}, bounds applied. */
    private List<long[]> matches(Table t, int ix, byte[] key, boolean whole, BoundFilter filter) {
        List<long[]> out = new ArrayList<>();
        Record r = filter == null ? null : scratchRecord(t);
        t.find(ix, key, whole, (p, tid) -> {
            if (filter != null) {
                t.project(p, tid, filter.fields(), r);
                if (!filter.matches(r)) return true;
            }
            out.add(new long[] {p == t.main() ? 0 : 1, tid});
            return true;
        });
        return out;
    }

    private Table.Part part(Table t, long which) {
        return which == 0 ? t.main() : t.hot();
    }

    /** An update or delete by the event's own key; its digest is the count of tuples changed. */
    private void modifyByKey(Table t, AccessEvent e, Prepared p) {
        byte[] key = p.literals == null ? null : t.keyOfLiterals(p.index, p.literals);
        if (key == null) {
            countRow(0);
            return;
        }
        countRow(modify(t, e, p, key, p.whole));
    }

    /** Applies an update or delete to the tuples {@code key} matches; returns how many changed. */
    private long modify(Table t, AccessEvent e, Prepared prep, byte[] key, boolean whole) {
        int ix = prep.index;
        BoundFilter filter = e.bounds().isEmpty() ? null : BoundFilter.of(t, e.bounds());
        HotColdUpkeep up = t.upkeep();
        if (e.operation() == Operation.DELETE) {
            long n = 0;
            for (long[] m : matches(t, ix, key, whole, filter)) {
                t.delete(part(t, m[0]), m[1], scratchRecord(t));
                if (m[0] == 0) heat.deleted(t, m[1]);
                n++;
            }
            return n;
        }
        Record values = record(t);
        int[] set = new int[prep.valueFields.length];
        int k = 0, n0 = 0;
        for (Map.Entry<String, String> v : e.values().entrySet()) {
            int f = prep.valueFields[k++];
            if (f < 0) continue;
            if (!t.setFromLiteral(values, f, v.getValue())) return 0;
            set[n0++] = f;
        }
        int[] fields = Arrays.copyOf(set, n0);
        long n = 0;
        for (long[] m : matches(t, ix, key, whole, filter)) {
            Table.Part p = part(t, m[0]);
            long tid = t.update(p, m[1], fields, values, scratchRecord(t));
            if (tid != TupleId.NONE) {
                n++;
                if (up != null) up.read(p, tid);
                if (tid != m[1] && p == t.main()) heat.moved(t, m[1], tid);
                heat.read(t, p, tid);
            }
        }
        return n;
    }

    private void insert(Table t, AccessEvent e, Prepared prep) {
        Record r = record(t);
        int nf = t.schema().fieldCount();
        // Columns the statement leaves out get NULL, or the empty value of a NOT NULL column (the baseline's
        // declared VARLEN stores an empty string); a coded column whose codec cannot hold that empty value fails the
        // insert.
        boolean[] missing = new boolean[nf];
        for (int f = 0; f < nf; f++) {
            if (t.schema().nullable(f)) r.setNull(f);
            else if (t.codec(f) != null) {
                long empty = t.codec(f).encode(new byte[0], 0, 0);
                if (empty == ColumnCodec.NONE) missing[f] = true;
                else r.setLong(f, empty);
            } else if (t.schema().type(f).isVariable()) r.setBytes(f, new byte[0], 0, 0);
            else r.setLong(f, 0);
        }
        int k = 0;
        for (Map.Entry<String, String> v : e.values().entrySet()) {
            int f = prep.valueFields[k++];
            if (f < 0 || !t.setFromLiteral(r, f, v.getValue())) {
                countRow(0);
                return;
            }
            missing[f] = false;
        }
        for (boolean m : missing) {
            if (m) {
                countRow(0);
                return;
            }
        }
        Table.Part p = t.hot() != null ? t.hot() : t.main();
        long tid = t.insert(p, r);
        countRow(tid == TupleId.NONE ? 0 : 1);
        if (tid != TupleId.NONE) heat.inserted(t, p, tid);
    }
}
