package dev.wastecheck.engine.table;

import dev.wastecheck.engine.block.ArrowStorage;
import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.heap.ImplicitIdStore;
import dev.wastecheck.engine.heap.VerticalStore;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.layouts.Layout;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The engine's database for one configuration: tables over one buffer pool (the memory budget)
 * over one storage device (a real temporary file, deleted on close).
 */
public final class Database implements AutoCloseable {
    private final StorageDevice device;
    private final BufferPool pool;
    private final Map<String, Table> tables = new TreeMap<>(String.CASE_INSENSITIVE_ORDER);
    private final ArrowStorage arrow;

    public Database(
            List<TableSpec> specs,
            Layout layout,
            CachePolicy cache,
            double cacheSize,
            int pageSize,
            long memoryBytes,
            DeviceModel model) {
        this(specs, layout, cache, cacheSize, pageSize, memoryBytes, model, null);
    }

    /** Tables of one layout and index cache, with their heaps in Arrow-native blocks when {@code arrow} is not null. */
    public Database(
            List<TableSpec> specs,
            Layout layout,
            CachePolicy cache,
            double cacheSize,
            int pageSize,
            long memoryBytes,
            DeviceModel model,
            ArrowStorage arrow) {
        this(
                specs,
                name -> TableDesign.BASELINE
                        .withLayout(layout)
                        .with("cache", cache.name())
                        .with("cache_size", String.valueOf(cacheSize)),
                pageSize,
                memoryBytes,
                model,
                arrow);
    }

    /** Tables each of its own design ({@code designs} gives a table's by its name), on pages. */
    public Database(
            List<TableSpec> specs,
            Function<String, TableDesign> designs,
            int pageSize,
            long memoryBytes,
            DeviceModel model) {
        this(specs, designs, pageSize, memoryBytes, model, null);
    }

    /**
     * Tables each of its own design ({@code designs} gives a table's by its name).
     *
     * @param arrow the tables' heaps in Arrow-native blocks ({@code layout=arrow}), or null for pages
     *              of each design's layout; indexes are B+trees in the buffer pool either way
     */
    public Database(
            List<TableSpec> specs,
            Function<String, TableDesign> designs,
            int pageSize,
            long memoryBytes,
            DeviceModel model,
            ArrowStorage arrow) {
        this.device = StorageDevice.temporary(pageSize, model);
        this.arrow = arrow;
        try {
            // compress_cache= keeps decompressed values beside the pool, compress_dict= a dictionary of that size for
            // each compressed long column: their memory comes out of the pool's
            long kept = 0;
            for (TableSpec s : specs) {
                TableDesign d = designs.apply(s.name());
                int compressedLong = 0; // as Table decides: long columns the design compresses, on pages
                for (ColumnSpec c : s.columns())
                    if (c.overflow() && d.compress().covers(c.name(), true)) compressedLong++;
                if (compressedLong > 0 && arrow == null)
                    kept += d.compress().cache()
                            + (long) compressedLong * d.compress().dictionary();
            }
            if (kept > 0 && memoryBytes - kept < 2L * pageSize)
                throw new IllegalArgumentException("compress_cache= and compress_dict= take " + kept + " B of the "
                        + memoryBytes
                        + " B of memory: the buffer pool would hold fewer than 2 pages");
            this.pool = new BufferPool(device, memoryBytes - kept);
            for (TableSpec s : specs) tables.put(s.name(), new Table(s, pool, designs.apply(s.name()), arrow));
        } catch (RuntimeException e) {
            device.close();
            throw e;
        }
    }

    private List<String> hotRules = List.of();

    /** The rules {@code hot=refs} learned for this database's hot partitions ({@link dev.wastecheck.engine.cluster.HotRules}), described. */
    public List<String> hotRules() {
        return hotRules;
    }

    public void noteHotRules(List<String> rules) {
        hotRules = List.copyOf(rules);
    }

    public StorageDevice device() {
        return device;
    }

    public BufferPool pool() {
        return pool;
    }
    /** The Arrow-native storage of {@code layout=arrow}, or null. */
    public ArrowStorage arrow() {
        return arrow;
    }

    public Collection<Table> tables() {
        return tables.values();
    }

    /** The table named so (case-insensitive), or null. */
    public Table table(String name) {
        return tables.get(name);
    }

    public long heapBytes() {
        return tables.values().stream().mapToLong(Table::heapBytes).sum();
    }

    public long indexBytes() {
        return tables.values().stream().mapToLong(Table::indexBytes).sum();
    }
    /** The cold partitions' prefix filters (kept in memory, outside the buffer pool). */
    public long filterBytes() {
        return tables.values().stream().mapToLong(Table::filterBytes).sum();
    }

    /**
     * Memory kept outside the buffer pool that every lookup may read, so part of the working set:
     * the cold partitions' prefix filters, the hot/cold upkeep's heat counters, the dictionaries.
     */
    public long sideBytes() {
        long b = filterBytes();
        for (Table t : tables.values())
            b += t.dictionaryBytes()
                    + t.decompressedCacheBytes()
                    + t.blockSideBytes()
                    + t.deferredBytes()
                    + (t.upkeep() == null ? 0 : t.upkeep().bytes());
        return b;
    }

    /**
     * {@link Table#decompressionSplit}, every table: dictionary frames' bytes decoded, bytes of plain frames written,
     * decompressed values' bytes copied into records, {@code compress_cache=} hits and misses.
     */
    public long[] decompressionSplit() {
        long[] s = new long[5];
        for (Table t : tables.values()) {
            long[] x = t.decompressionSplit();
            for (int i = 0; i < s.length; i++) s[i] += x[i];
        }
        return s;
    }

    /** Bytes reads of compressed fields have decompressed so far, every table ({@link Table#decompressedBytes}). */
    public long decompressedBytes() {
        return tables.values().stream().mapToLong(Table::decompressedBytes).sum();
    }

    public long cacheBytes() {
        return tables.values().stream().mapToLong(Table::cacheBytes).sum();
    }

    /** Bytes in use over bytes of all leaves of all indexes (the paper cites 68% for B+trees). */
    public double leafFill() {
        double used = 0;
        long leaves = 0;
        for (Table t : tables.values()) {
            for (Table.Part p : t.parts()) {
                for (int i = 0; i < t.indexCount(); i++) {
                    if (p.tree(i) == null) continue;
                    BTree.LeafStats s = p.tree(i).leafStats();
                    if (s.entries() == 0) continue;
                    used += s.fill() * s.leaves();
                    leaves += s.leaves();
                }
            }
        }
        return leaves == 0 ? 0 : used / leaves;
    }

    /**
     * The bytes of the pages pinned since the pool started tracking, per structure: keys
     * {@code table.heap}, {@code table.index}, {@code table.overflow}, and {@code table.hot_heap},
     * {@code table.hot_index} for a hot partition; structures with no touched page are left out.
     */
    public Map<String, Long> touchedBytesByStructure() {
        return byStructure(true);
    }

    /**
     * The B+tree pages allocated now, per table and partition, times the page size: keys {@code table.index} and
     * {@code table.hot_index} (the cold partition's, or the whole table's without a hot partition). The size of a
     * structure, whatever the events touched: "No Bits Left Behind" §3.1 measures the revision table's index this way
     * (27.1 GB for the full table against 1.4 GB for the hot partition, Fig. 3). Cold notes ({@code
     * table.cold_notes}) are not pages of a tree and are left out.
     */
    public Map<String, Long> indexBytesByStructure() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Table t : tables.values()) {
            for (Table.Part p : t.parts()) {
                long pages = 0;
                for (int i = 0; i < t.indexCount(); i++)
                    if (p.tree(i) != null) pages += p.tree(i).pageCount();
                if (pages > 0) out.put(t.name() + (p == t.main() ? ".index" : ".hot_index"), pages * pool.pageSize());
            }
        }
        return out;
    }

    /**
     * {@link #indexBytesByStructure} per index: keys {@code table.index.NAME} and {@code table.hot_index.NAME}; an
     * index a partition does not keep (a hot partition keeps only those its reads use) is left out.
     */
    public Map<String, Long> indexBytesByIndex() {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Table t : tables.values()) {
            for (Table.Part p : t.parts()) {
                String prefix = t.name() + (p == t.main() ? ".index." : ".hot_index.");
                for (int i = 0; i < t.indexCount(); i++)
                    if (p.tree(i) != null)
                        out.put(
                                prefix + t.spec().indexes().get(i).name(),
                                p.tree(i).pageCount() * pool.pageSize());
            }
        }
        return out;
    }

    /**
     * The device reads (buffer-pool misses) since the pool started tracking, per structure, keyed as
     * {@link #touchedBytesByStructure}: which structures the measured events found out of memory.
     */
    public Map<String, Long> deviceReadsByStructure() {
        return byStructure(false);
    }

    /** Per structure, the touched pages' bytes and the side structures' ({@code bytes}), or the device reads. */
    private Map<String, Long> byStructure(boolean bytes) {
        Map<String, Long> out = new LinkedHashMap<>();
        for (Table t : tables.values()) {
            for (Table.Part p : t.parts()) {
                String prefix = t.name() + (p == t.main() ? "." : ".hot_");
                if (p.heap() instanceof ImplicitIdStore s) {
                    // §4.2: the records without the id, the ids that do not follow their page's base, and the
                    // address map of the heap pages touched (a page's base is needed only to name its tuples)
                    if (s.inner() instanceof VerticalStore v) {
                        put(out, bytes, prefix + "heap", v.near().pageNumbers());
                        put(out, bytes, prefix + "apart_heap", v.apart().pageNumbers());
                    } else {
                        put(out, bytes, prefix + "heap", s.heapPageNumbers());
                    }
                    put(out, bytes, prefix + "id_exceptions", s.exceptionPages());
                    if (bytes && s.touchedBytes() > 0) out.merge(prefix + "id_map", s.touchedBytes(), Long::sum);
                } else if (p.heap() instanceof VerticalStore v) {
                    put(out, bytes, prefix + "heap", v.near().pageNumbers());
                    put(out, bytes, prefix + "apart_heap", v.apart().pageNumbers());
                } else {
                    put(out, bytes, prefix + "heap", p.heap().pageNumbers());
                }
                if (bytes && p.heap().touchedBytes() > 0 && !(p.heap() instanceof ImplicitIdStore))
                    out.merge(prefix + "heap", p.heap().touchedBytes(), Long::sum); // Arrow blocks
                for (int i = 0; i < t.indexCount(); i++)
                    if (p.tree(i) != null)
                        put(out, bytes, prefix + "index", p.tree(i).pageNumbers());
                if (p.overflow() != null)
                    put(out, bytes, prefix + "overflow", p.overflow().pageNumbers());
            }
            if (!bytes) continue;
            if (t.filterBytes() > 0)
                out.put(t.name() + ".cold_filter", t.filterBytes()); // in memory whenever it is used
            if (t.upkeep() != null && t.upkeep().bytes() > 0)
                out.put(t.name() + ".heat", t.upkeep().bytes());
            if (t.dictionaryBytes() > 0) out.put(t.name() + ".dictionary", t.dictionaryBytes());
            if (t.decompressedCacheBytes() > 0) out.put(t.name() + ".decompressed_cache", t.decompressedCacheBytes());
            if (t.blockSideBytes() > 0) out.put(t.name() + ".block_table", t.blockSideBytes());
            if (t.deferredBytes() > 0) out.put(t.name() + ".cold_notes", t.deferredBytes());
        }
        return out;
    }

    /**
     * The pins of the pages pinned since the pool started tracking, by kind of page, for the modeled cost's charge per
     * page touched (its charge depends on the kind and the page size): {@code index} (B+tree pages of a tree with
     * {@code BTreePage} leaves), {@code index_packed} (a tree with {@code PackedLeafPage} leaves, its inner nodes
     * included), {@code heap_nsm}, {@code heap_pax}, {@code heap_hpl} (heap pages in the table's layout, a vertical
     * split's and implicit ids' pages included) and {@code overflow}; kinds with no pin are left out.
     */
    public Map<String, Long> pinsByKind() {
        Map<String, Long> out = new TreeMap<>();
        for (Table t : tables.values()) {
            String heap = "heap_" + t.design().layout().name().toLowerCase(Locale.ROOT);
            for (Table.Part p : t.parts()) {
                if (p.heap() instanceof ImplicitIdStore s) {
                    pins(out, heap, s.exceptionPages());
                    if (s.inner() instanceof VerticalStore v) {
                        pins(out, heap, v.near().pageNumbers());
                        pins(out, heap, v.apart().pageNumbers());
                    } else {
                        pins(out, heap, s.heapPageNumbers());
                    }
                } else if (p.heap() instanceof VerticalStore v) {
                    pins(out, heap, v.near().pageNumbers());
                    pins(out, heap, v.apart().pageNumbers());
                } else {
                    pins(out, heap, p.heap().pageNumbers());
                }
                for (int i = 0; i < t.indexCount(); i++) {
                    BTree tree = p.tree(i);
                    if (tree != null)
                        pins(out, tree.packedKeyWidth() > 0 ? "index_packed" : "index", tree.pageNumbers());
                }
                if (p.overflow() != null) pins(out, "overflow", p.overflow().pageNumbers());
            }
        }
        return out;
    }

    private void pins(Map<String, Long> out, String kind, long[] pages) {
        long n = 0;
        for (long pg : pages) n += pool.pins(pg);
        if (n > 0) out.merge(kind, n, Long::sum);
    }

    private void put(Map<String, Long> out, boolean bytes, String key, long[] pages) {
        long n = 0;
        for (long pg : pages) n += bytes ? (pool.touched(pg) ? 1 : 0) : pool.misses(pg);
        if (n > 0) out.merge(key, bytes ? n * pool.pageSize() : n, Long::sum);
    }

    @Override
    public void close() {
        try {
            device.close();
        } finally {
            // layout=arrow,log=on: the last force, then the log's temporary directory goes
            if (arrow != null) arrow.close();
        }
    }
}
