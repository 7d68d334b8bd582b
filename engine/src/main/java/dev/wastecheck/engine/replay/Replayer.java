package dev.wastecheck.engine.replay;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.index.IndexCache;
import dev.wastecheck.engine.metrics.DeviceTime;
import dev.wastecheck.engine.metrics.LatencyRecorder;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.Values;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.access.ResultDigest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;

/**
 * Executes access events against a {@link Database}: the replay executor. Every event whose tuple
 * or range the trace identifies (a complete key or key prefix of a named index) runs as the
 * statement would: lookups and ranges through the B+tree (answered from the index cache when the
 * projection is covered by the key and cached fields), updates and deletes of the matching tuples,
 * inserts of the given values. Scans and keys bound only through a join are skipped and counted.
 *
 * <p>Each executed event's result is reduced to a {@link ResultDigest}, so that configurations
 * (and SQLite and DuckDB) can be checked against one another event by event.
 *
 * <p>Latency is measured per event with {@link System#nanoTime()}; the device time of buffer-pool
 * misses is modeled apart ({@link DeviceTime}). The first {@code warmup} share of the events runs
 * unmeasured, so that the buffer pool and the JIT reach their steady state.
 */
public final class Replayer {
    /** Events a run can execute, resolved once per database. */
    private final Database db;
    private final ResultDigest digest = new ResultDigest();
    private final Map<Table, Record> records = new HashMap<>();
    private final Map<Table, Record> scratch = new HashMap<>();
    private final List<Long> tids = new ArrayList<>();
    private long rowsReturned;

    public Replayer(Database db) {
        this.db = db;
    }

    /** Whether the engine can execute this event from the trace alone. */
    public boolean executable(AccessEvent e) {
        Table t = db.table(e.table());
        if (t == null) return false;
        switch (e.operation()) {
            case INSERT:
                return !e.values().isEmpty();
            case UPDATE:
                if (e.values().isEmpty()) return false;
                // fall through: also needs its key
            case POINT_LOOKUP:
            case RANGE:
            case DELETE:
                return BoundKey.of(t, e) != null;
            default:
                return false;
        }
    }

    /**
     * Replays {@code events}; those not {@link #executable} are skipped (digest 0).
     *
     * @param progress receives the number of events done, every 4,096
     */
    public RunResult run(String label, String settings, List<AccessEvent> events, double warmup, long loadMillis,
                         Map<String, Long> moved, LongConsumer progress) {
        BufferPool pool = db.pool();
        double leafFill = db.leafFill();
        long[] digests = new long[events.size()];
        java.util.BitSet executedEvents = new java.util.BitSet(events.size());
        LatencyRecorder latency = new LatencyRecorder();
        int warm = (int) Math.min(events.size(), Math.round(events.size() * warmup));
        long executed = 0, skipped = 0, measured = 0, engineNanos = 0;
        long pins0 = 0, rows0 = 0;
        DeviceTime device = new DeviceTime(db.device());
        long started = System.nanoTime();
        dev.wastecheck.engine.block.ArrowStorage arrow = db.arrow();
        for (int i = 0; i < events.size(); i++) {
            if (i == warm) {
                pool.resetCounters();
                resetCacheCounters();
                pool.trackTouched();
                if (arrow != null) arrow.trackTouched();
                device.start();
                pins0 = pool.pins();
                rows0 = rowsReturned;
            }
            // layout=arrow: one GC epoch per event, then the transformation, as a background thread
            // would run them between statements (outside the event's latency; cold_after counts events).
            if (arrow != null) arrow.tick();
            AccessEvent e = events.get(i);
            if (!executable(e)) {
                skipped++;
                continue;
            }
            long t0 = System.nanoTime();
            digests[i] = execute(e);
            executedEvents.set(i);
            long dt = System.nanoTime() - t0;
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
        // The prefix filters live outside the pool and are read by every prefix lookup: part of the working set.
        long touchedBytes = pool.touchedPages() * pool.pageSize() + db.filterBytes();
        for (Table t : db.tables()) for (Table.Part p : t.parts()) touchedBytes += p.heap().touchedBytes(); // Arrow blocks touched
        Map<String, Long> byStructure = new java.util.LinkedHashMap<>();
        db.touchedBytesByStructure().entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(e -> byStructure.put(e.getKey(), e.getValue()));
        long pins = pool.pins() - pins0;
        double bufferHitRate = pool.hitRate();
        double devUs = device.microsPerQuery(measured);
        long cacheHits = 0, cacheLookups = 0;
        for (Table t : db.tables()) {
            for (Table.Part p : t.parts()) {
                for (int ix = 0; ix < t.indexCount(); ix++) {
                    IndexCache c = p.cache(ix);
                    if (c != null) { cacheHits += c.hits(); cacheLookups += c.hits() + c.misses(); }
                }
            }
        }
        LatencyRecorder.Summary lat = latency.summary();
        double pagesPerQuery = measured == 0 ? 0 : (double) pins / measured;
        if (arrow != null && !arrow.moves().isEmpty()) {
            // Compaction relocates tuples too (§4.3): they count with the clustering's.
            Map<String, Long> all = new java.util.LinkedHashMap<>(moved);
            arrow.moves().forEach((t, n) -> all.merge(t, n, Long::sum));
            moved = all;
        }
        // Arrow blocks live in memory beside the buffer pool, which keeps the indexes.
        long memory = pool.memoryBytes() + (arrow == null ? 0 : arrow.bytes());
        return new RunResult(label, settings, measured, executed, skipped, rowsReturned - rows0, memory, db.heapBytes(),
                db.indexBytes(), db.cacheBytes(), touchedBytes, leafFill, bufferHitRate,
                cacheLookups == 0 ? 0 : (double) cacheHits / cacheLookups, pagesPerQuery, lat, devUs,
                (measured == 0 ? 0 : lat.mean()) + devUs, engineNanos == 0 ? 0 : measured * 1e9 / engineNanos, loadMillis, replayMillis,
                moved, digests, executedEvents, byStructure);
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

    /** Executes one executable event; returns its result digest. */
    public long execute(AccessEvent e) {
        Table t = db.table(e.table());
        digest.reset();
        if (e.operation() == Operation.INSERT) return insert(t, e);
        BoundKey b = BoundKey.of(t, e);
        int ix = b.index();
        List<String> literals = b.literals();
        byte[] key = b.key();
        boolean whole = b.whole();
        switch (e.operation()) {
            case POINT_LOOKUP, RANGE -> {
                if (key != null) lookup(t, ix, key, whole, literals, projection(t, ix, e));
            }
            case UPDATE -> { if (key != null) update(t, ix, key, whole, e); else countRow(0); }
            case DELETE -> { if (key != null) delete(t, ix, key, whole); else countRow(0); }
            default -> throw new IllegalStateException(e.operation().toString());
        }
        return digest.value();
    }

    /** The projected fields in table order; the key's when the statement projects nothing of this table. */
    private static int[] projection(Table t, int ix, AccessEvent e) {
        int n = t.schema().fieldCount();
        boolean[] want = new boolean[n];
        int count = 0;
        for (String c : e.projected()) {
            int f = t.spec().columnIndex(c);
            if (f >= 0 && !want[f]) { want[f] = true; count++; }
        }
        if (count == 0) {
            for (int f : t.keyFields(ix)) if (!want[f]) { want[f] = true; count++; }
        }
        int[] out = new int[count];
        for (int f = 0, k = 0; f < n; f++) if (want[f]) out[k++] = f;
        return out;
    }

    private void lookup(Table t, int ix, byte[] key, boolean whole, List<String> literals, int[] fields) {
        if (whole && t.unique(ix) && t.main().cache(ix) != null && covered(t, ix, fields)) {
            for (Table.Part p : t.parts()) {
                IndexCache c = p.cache(ix);
                byte[] out = cacheOut(c);
                long tid = c.lookup(key, fieldSource(p, t, ix), out);
                if (tid != TupleId.NONE) {
                    digestFromCache(t, ix, fields, literals, out);
                    return;
                }
            }
            return;
        }
        Record r = record(t);
        t.find(ix, key, whole, (p, tid) -> {
            t.project(p, tid, fields, r);
            digestRow(t, fields, r);
            return true;
        });
    }

    private final Map<IndexCache, byte[]> cacheBuffers = new HashMap<>();
    private final Map<IndexCache, dev.wastecheck.engine.index.FieldSource> sources = new HashMap<>();

    private byte[] cacheOut(IndexCache c) {
        return cacheBuffers.computeIfAbsent(c, k -> new byte[k.fieldBytes()]);
    }

    private dev.wastecheck.engine.index.FieldSource fieldSource(Table.Part p, Table t, int ix) {
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
        digest.beginRow();
        int[] keys = t.keyFields(ix);
        int[] cached = t.cacheFields(ix);
        for (int f : fields) {
            int k = indexOf(keys, f);
            if (k >= 0) {
                if (t.schema().type(f).isVariable()) digest.addString(literals.get(k));
                else if (t.schema().type(f) == FieldType.FLOAT64) digest.addString(Double.toString(Double.parseDouble(literals.get(k))));
                else digest.addLong(Long.parseLong(literals.get(k)));
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
            if (type == FieldType.FLOAT64) digest.addString(Double.toString(Double.longBitsToDouble(v)));
            else digest.addLong(v);
        }
        digest.endRow();
        rowsReturned++;
    }

    private static int indexOf(int[] a, int v) {
        for (int i = 0; i < a.length; i++) if (a[i] == v) return i;
        return -1;
    }

    private void digestRow(Table t, int[] fields, Record r) {
        digest.beginRow();
        for (int f : fields) {
            if (r.isNull(f)) digest.addNull();
            else {
                FieldType type = t.schema().type(f);
                if (type.isVariable()) digest.addBytes(r.bytes(f), 0, r.length(f));
                else if (type == FieldType.FLOAT64) digest.addString(Double.toString(r.getDouble(f)));
                else digest.addLong(r.getLong(f));
            }
        }
        digest.endRow();
        rowsReturned++;
    }

    private void countRow(long n) {
        digest.beginRow();
        digest.addLong(n);
        digest.endRow();
    }

    private List<long[]> matches(Table t, int ix, byte[] key, boolean whole) {
        List<long[]> out = new ArrayList<>();
        t.find(ix, key, whole, (p, tid) -> {
            out.add(new long[] {p == t.main() ? 0 : 1, tid});
            return true;
        });
        return out;
    }

    private Table.Part part(Table t, long which) {
        return which == 0 ? t.main() : t.hot();
    }

    private void update(Table t, int ix, byte[] key, boolean whole, AccessEvent e) {
        Record values = record(t);
        List<Integer> set = new ArrayList<>();
        for (Map.Entry<String, String> v : e.values().entrySet()) {
            int f = t.spec().columnIndex(v.getKey());
            if (f < 0) continue;
            if (!Values.setFromLiteral(values, f, t.schema().type(f), v.getValue())) { countRow(0); return; }
            set.add(f);
        }
        int[] fields = set.stream().mapToInt(Integer::intValue).toArray();
        long n = 0;
        for (long[] m : matches(t, ix, key, whole)) {
            if (t.update(part(t, m[0]), m[1], fields, values, scratchRecord(t)) != TupleId.NONE) n++;
        }
        countRow(n);
    }

    private void delete(Table t, int ix, byte[] key, boolean whole) {
        long n = 0;
        for (long[] m : matches(t, ix, key, whole)) {
            t.delete(part(t, m[0]), m[1], scratchRecord(t));
            n++;
        }
        countRow(n);
    }

    private long insert(Table t, AccessEvent e) {
        Record r = record(t);
        int nf = t.schema().fieldCount();
        for (int f = 0; f < nf; f++) {
            if (t.schema().nullable(f)) r.setNull(f);
            else if (t.schema().type(f).isVariable()) r.setBytes(f, new byte[0], 0, 0);
            else r.setLong(f, 0);
        }
        for (Map.Entry<String, String> v : e.values().entrySet()) {
            int f = t.spec().columnIndex(v.getKey());
            if (f < 0 || !Values.setFromLiteral(r, f, t.schema().type(f), v.getValue())) {
                countRow(0);
                return digest.value();
            }
        }
        Table.Part p = t.hot() != null ? t.hot() : t.main();
        countRow(t.insert(p, r) == TupleId.NONE ? 0 : 1);
        return digest.value();
    }
}
