package dev.wastecheck.engine.table;

import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdDictTrainer;
import com.github.luben.zstd.ZstdException;
import dev.wastecheck.engine.block.ArrowStorage;
import dev.wastecheck.engine.block.ArrowStore;
import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.heap.ImplicitIdStore;
import dev.wastecheck.engine.heap.TupleStore;
import dev.wastecheck.engine.heap.VerticalStore;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.engine.index.CachePolicy;
import dev.wastecheck.engine.index.FieldSource;
import dev.wastecheck.engine.index.IndexCache;
import dev.wastecheck.engine.index.KeyEncoder;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * A table: a heap file in one page layout, its B+tree indexes (each with an optional index cache
 * in its leaves), long values out of line, and optionally a hot partition ("No Bits Left Behind"
 * §3.1): a second heap with its own indexes that holds the hot tuples, so that the pages and index
 * nodes serving most lookups are few and stay in the buffer pool.
 *
 * <p>Values travel as {@link Record}s of the table's {@link RecordSchema}; a variable-length
 * value of an {@link ColumnSpec#overflow() overflow} column is stored behind a tag byte, inline
 * (tag 0) or as a reference into the {@link OverflowStore} (tag 1), and callers see only the value.
 *
 * <p>Lookups search the hot partition first. A tuple lives in exactly one partition, so a unique
 * key found in the hot partition is not searched again in the cold one.
 *
 * <p>The table's {@link TableDesign} chooses its page layout, index cache and vertical split
 * (§3.2: a {@link VerticalStore} keeps the columns stored apart in a second heap); columns with a
 * {@link ColumnCodec} hold text as integer codes, and this class converts literals and keys.
 */
public final class Table {
    private final TableSpec spec;
    private final RecordSchema schema;
    private final BufferPool pool;
    private final Layout layout;
    /** Arrow-native blocks instead of pages ({@code layout=arrow}), or null. */
    private final ArrowStorage arrow;

    private final int[][] keyFields;
    private final int[][] cacheFields;
    /** Per field: part of an index's key or of its cached projection (a demotion moves its value, {@link #demote}). */
    private final boolean[] keyOrCached;

    private final CachePolicy policy;
    private final double cacheSize;
    private final TableDesign design;
    /** Per field: stored in the apart heap of a vertical split. */
    private final boolean[] apart;
    /** Per field: values stored as zstd frames where that is shorter (§4.1, {@code compress=}). */
    private final boolean[] compressed;
    /** The field of an implicit id ({@code id=implicit}, §4.2: not stored, derived from the address), or -1. */
    private final int implicitId;
    /** Values compressed and bytes saved by it (plain minus stored), for the report. */
    private long compressedValues, compressionSaved;
    /** Bytes the reads of single-value frames decompressed (blocks count their own). */
    private long decompressedBytes;
    /** Of those, bytes of the single-value frames made with a dictionary, and bytes decompressed from the others. */
    private long dictionaryFrameBytes, plainDecompressedBytes, decompressedCopiedBytes;
    /** The contexts the reads decompress frames and blocks with. */
    private final FrameReader frames = new FrameReader();
    /** With {@code compress_cache=}: the values last read out of line, decompressed; else null. */
    private final DecompressedCache decompressedCache;

    private final Part main;
    private Part hot;
    private final byte[] scratch;
    private final byte[] refScratch = new byte[OverflowStore.REF_BYTES];
    /** A compressed value's frame while it is decompressed into a record ({@link #frameScratch(int)}). */
    private byte[] frameScratch = new byte[256];

    private final KeyEncoder encoder = new KeyEncoder();
    /**
     * With a hot partition: per index, per prefix length (columns - 1), a filter of the cold
     * partition's key prefixes; null where lookups never need one (a unique index's whole key).
     */
    private PrefixFilter[][] coldFilters;

    private HotColdUpkeep upkeep;
    /** Per field, who follows its changes ({@link #watch}); null until a rule asks. */
    private List<ReferenceListener>[] watchers;
    /** Whether a watched field changed since {@link #settleWatchers}. */
    private boolean watched;
    /**
     * Per field, the values updates overwrote while a training ran ({@link #recordOverwrites}), as literals; null
     * before the first training. What the split learns "superseded" from (§3.1 by reference).
     */
    private Set<String>[] overwritten;
    /** Whether updates note the values they overwrite now. */
    private boolean recordingOverwrites;

    private final int[] ends = new int[64];

    /**
     * One heap and its indexes. The cold (main) partition has every index; a hot partition may
     * leave out non-unique indexes that no read uses ({@link #createHotPartition(boolean[])}): a
     * lookup by such an index then reads the hot heap, which is small and in memory.
     */
    public final class Part {
        final TupleStore heap;
        /**
         * The part's long values (pages only; empty with Arrow blocks): a partition's values live with it,
         * so the hot partition's texts fill overflow pages of their own; a demoted tuple's value out of line
         * stays in the hot partition's pages, the cold row keeping its reference ({@code Table.demote}, §3.1).
         */
        final OverflowStore overflow;
        /**
         * Per field, with {@code compress_block=}: the part's long values of the field packed into blocks, each
         * block one zstd frame in {@link #overflow}'s pages ({@link BlockOverflow}); null until a value is stored.
         */
        final BlockOverflow[] blocks;

        final BTree[] trees;
        final IndexCache[] caches;
        final FieldSource[] sources;

        Part() {
            this(null);
        }

        /** @param indexed which indexes the part keeps (index 0 and unique ones always); null for all */
        Part(boolean[] indexed) {
            if (arrow != null) {
                ArrowStore store = arrow.newStore(spec.name() + (main == null ? "" : ".hot"), schema);
                // Compaction moves tuples (§4.3): the indexes follow once the move commits.
                store.onMove((txn, from, to) -> txn.onCommit(() -> moved(this, from, to)));
                heap = store;
            } else {
                heap = implicitId >= 0
                        ? new ImplicitIdStore(pool, layout, schema, implicitId, splits() ? apart : null)
                        : splits()
                                ? new VerticalStore(pool, layout, schema, apart)
                                : new HeapFile(pool, layout, schema);
            }
            overflow = new OverflowStore(pool); // no page until a value goes out of line (never with Arrow blocks)
            blocks = new BlockOverflow[schema.fieldCount()];
            trees = new BTree[spec.indexes().size()];
            caches = new IndexCache[trees.length];
            sources = new FieldSource[trees.length];
            for (int i = 0; i < trees.length; i++) {
                if (indexed != null
                        && !indexed[i]
                        && i > 0
                        && !spec.indexes().get(i).unique()) continue;
                boolean cached = policy != CachePolicy.OFF && cacheFields[i].length > 0;
                // The hot partition's trees take packed leaves whenever the key is fixed-width integers
                // of at most 8 bytes and no index cache lives in the leaves (PackedLeafPage, NBLB §4.1).
                int packed = main != null && !cached ? packedKeyWidth(i) : 0;
                trees[i] = new BTree(pool, spec.indexes().get(i).unique(), packed);
                if (cached) {
                    caches[i] = new IndexCache(trees[i], heap.fieldBytes(cacheFields[i]), policy, cacheSize);
                    sources[i] = heap.fieldSource(cacheFields[i]);
                }
            }
        }

        public TupleStore heap() {
            return heap;
        }
        /** The part's overflow pages (long values; none with Arrow blocks). */
        public OverflowStore overflow() {
            return overflow;
        }
        /** The part's blocks of field {@code f}'s long values ({@code compress_block=}), or null. */
        public BlockOverflow blocks(int f) {
            return blocks[f];
        }

        /** The part's B+tree of an index, or null when the (hot) part leaves that index out. */
        public BTree tree(int index) {
            return trees[index];
        }
        /** The index cache of an index, or null. */
        public IndexCache cache(int index) {
            return caches[index];
        }

        FieldSource source(int index) {
            return sources[index];
        }
    }

    public Table(TableSpec spec, BufferPool pool, Layout layout, CachePolicy policy, double cacheSize) {
        this(
                spec,
                pool,
                TableDesign.BASELINE
                        .withLayout(layout)
                        .with("cache", policy.name())
                        .with("cache_size", String.valueOf(cacheSize)),
                null);
    }

    /**
     * A table of {@code design}'s layout, index cache and vertical split ({@code design.split().columns()}, resolved).
     *
     * @param arrow Arrow-native blocks for the heaps ({@code layout=arrow}; the design's layout and
     *              split are then unused), or null for pages. Arrow blocks hold values of any
     *              length, so no column overflows.
     */
    public Table(TableSpec spec, BufferPool pool, TableDesign design, ArrowStorage arrow) {
        this.spec = spec;
        this.pool = pool;
        this.design = design;
        this.arrow = arrow;
        this.plainWriter = FrameWriter.plain(plainLevel());
        if (design.layout() == Layout.ARROW && arrow == null)
            throw new IllegalArgumentException(spec.name() + ": layout=arrow needs the database's Arrow storage");
        this.layout = design.layout();
        this.policy = design.cache();
        this.cacheSize = design.cacheSize();
        List<Field> fields = new ArrayList<>();
        for (ColumnSpec c : spec.columns()) {
            // Arrow blocks keep a sub-byte column as its UINT8: the packing is the page formats' (PackedPage)
            fields.add(new Field(
                    c.name(), c.type(), c.nullable(), c.type().isVariable() ? 16 : 0, arrow == null ? c.bits() : 0));
        }
        this.schema = new RecordSchema(fields);
        this.apart = new boolean[fields.size()];
        for (String c : design.split().columns()) {
            int f = spec.columnIndex(c);
            if (f < 0) throw new IllegalArgumentException(spec.name() + ": split names no column " + c);
            apart[f] = true;
        }
        this.compressed = new boolean[fields.size()];
        if (!design.compress().none()) {
            for (int f = 0; f < fields.size(); f++) {
                ColumnSpec c = spec.columns().get(f);
                compressed[f] = arrow == null && design.compress().covers(c.name(), c.overflow());
            }
            for (String c : design.compress().columns()) {
                int f = spec.columnIndex(c);
                if (f < 0 || !spec.columns().get(f).overflow())
                    throw new IllegalArgumentException(spec.name() + ": compress names " + c
                            + (f < 0 ? ", no column" : ", which is not a long variable-length column"));
            }
        }
        boolean anyCompressed = false;
        for (boolean c : compressed) anyCompressed |= c;
        this.decompressedCache = !anyCompressed || design.compress().cache() == 0
                ? null
                : new DecompressedCache(design.compress().cache());
        this.implicitId = design.implicitId() && arrow == null ? implicitIdField(spec) : -1;
        this.scratch = new byte[pool.pageSize() * 2];
        int n = spec.indexes().size();
        keyFields = new int[n][];
        cacheFields = new int[n][];
        for (int i = 0; i < n; i++) {
            IndexSpec ix = spec.indexes().get(i);
            keyFields[i] = columns(ix.columns(), ix.name());
            cacheFields[i] = cacheable(ix);
        }
        keyOrCached = new boolean[schema.fieldCount()];
        for (int i = 0; i < n; i++) {
            for (int f : keyFields[i]) keyOrCached[f] = true;
            for (int f : cacheFields[i]) keyOrCached[f] = true;
        }
        this.main = new Part();
    }

    /**
     * The column an implicit id can replace ("No Bits Left Behind" §4.2): the primary key when it
     * is one NOT NULL integer field (a text column of digits kept as the integer it spells, by
     * {@code tight=int}'s codec, included: the records hold the integer); -1 when the table has
     * none, and {@code id=implicit} then leaves the table as it is.
     */
    static int implicitIdField(TableSpec spec) {
        if (spec.indexes().isEmpty()) return -1;
        IndexSpec pk = spec.indexes().get(0);
        if (!pk.unique() || pk.columns().size() != 1) return -1;
        int f = spec.columnIndex(pk.columns().get(0));
        if (f < 0) return -1;
        ColumnSpec c = spec.columns().get(f);
        FieldType t = c.type();
        boolean integer = t.isFixedBytes() && t != FieldType.FLOAT64;
        return integer && !c.nullable() ? f : -1;
    }

    /** The field of the implicit id (not stored in the records, §4.2), or -1. */
    public int implicitId() {
        return implicitId;
    }

    private int[] columns(List<String> names, String what) {
        int[] out = new int[names.size()];
        for (int k = 0; k < out.length; k++) {
            out[k] = spec.columnIndex(names.get(k));
            if (out[k] < 0)
                throw new IllegalArgumentException(spec.name() + "." + what + ": no column " + names.get(k));
        }
        return out;
    }

    /** The index's cache fields the cache can serve exactly: NOT NULL, fixed width, not in the key, at most 248 bytes. */
    private int[] cacheable(IndexSpec ix) {
        if (!ix.unique()) return new int[0];
        List<Integer> out = new ArrayList<>();
        int bytes = 0;
        for (String c : ix.cacheFields()) {
            int f = spec.columnIndex(c);
            if (f < 0
                    || apart[f]
                    || f == implicitId
                    || ix.columns().stream().anyMatch(k -> k.equalsIgnoreCase(c))
                    || out.contains(f)) continue;
            ColumnSpec col = spec.columns().get(f);
            if (col.nullable() || !col.type().isFixedBytes() || bytes + col.type().width > 248) continue;
            out.add(f);
            bytes += col.type().width;
        }
        return out.stream().mapToInt(Integer::intValue).toArray();
    }

    public TableSpec spec() {
        return spec;
    }

    public TableDesign design() {
        return design;
    }

    /** Whether some columns, but not all, live apart (§3.2). */
    private boolean splits() {
        if (arrow != null) return false; // Arrow blocks are one store per part
        int n = 0;
        for (boolean b : apart) if (b) n++;
        return n > 0 && n < apart.length;
    }

    /** Whether field {@code f} is stored apart (a vertical split's second heap). */
    public boolean storedApart(int f) {
        return splits() && apart[f];
    }

    /** The codec of a field whose text is kept as integer codes, or null. */
    public ColumnCodec codec(int f) {
        return spec.columns().get(f).codec();
    }

    public String name() {
        return spec.name();
    }

    public RecordSchema schema() {
        return schema;
    }

    /** The cold (main) partition's overflow store; each partition has its own ({@link Part#overflow()}). */
    public OverflowStore overflow() {
        return main.overflow;
    }

    /** Overflow pages of every partition. */
    public long overflowPageCount() {
        long n = 0;
        for (Part p : parts()) if (p.overflow != null) n += p.overflow.pageCount();
        return n;
    }

    public Part main() {
        return main;
    }
    /** The hot partition, or null. */
    public Part hot() {
        return hot;
    }

    public int indexCount() {
        return keyFields.length;
    }

    public int[] keyFields(int index) {
        return keyFields[index];
    }

    public int[] cacheFields(int index) {
        return cacheFields[index];
    }

    public boolean unique(int index) {
        return spec.indexes().get(index).unique();
    }

    /** The index named so (case-insensitive; {@code PRIMARY} for the primary key), or -1. */
    public int indexNamed(String name) {
        for (int i = 0; i < keyFields.length; i++) {
            if (spec.indexes().get(i).name().equalsIgnoreCase(name)) return i;
        }
        return -1;
    }

    /**
     * Told when an update changes a watched field: the value before and after, as literals (null
     * for NULL). "No Bits Left Behind" §3.1: a new {@code page_latest} names the revision that is
     * now hot, and the one it named before goes cold.
     */
    public interface ReferenceListener {
        void changed(String before, String after);

        /** Once the event is over: act on the changes noted (moves never run under an index scan). */
        void settle();
    }

    /** After an event of this table: lets every listener act on the changes it was told of. */
    public void settleWatchers() {
        if (watchers == null || !watched) return;
        watched = false;
        for (List<ReferenceListener> ls : watchers) if (ls != null) for (ReferenceListener l : ls) l.settle();
    }

    /**
     * From now until {@link #stopRecordingOverwrites}, every update notes the values it overwrites
     * (of fields kept in the page: not the long ones). A training runs so: at the split, a reference
     * that moved on names a tuple that was hot and is no longer ("No Bits Left Behind" §3.1, "newly
     * inserted revision tuples can replace the previously hot tuple for the same page"), which
     * the split ({@code HotRules}) then leaves cold.
     */
    @SuppressWarnings("unchecked")
    public void recordOverwrites() {
        overwritten = new Set[schema.fieldCount()];
        recordingOverwrites = true;
    }

    /** Updates stop noting what they overwrite; what was noted stays readable until the next recording. */
    public void stopRecordingOverwrites() {
        recordingOverwrites = false;
    }

    /** The literals of field {@code f} that updates overwrote while recording (in no order); empty if none. */
    public Set<String> overwritten(int f) {
        return overwritten == null || overwritten[f] == null ? Set.of() : overwritten[f];
    }

    /** Forgets what was recorded (after the split has learned from it). */
    public void forgetOverwrites() {
        overwritten = null;
        recordingOverwrites = false;
    }

    /** Calls {@code listener} after every update that changes field {@code f}. */
    @SuppressWarnings("unchecked")
    public void watch(int f, ReferenceListener listener) {
        if (watchers == null) watchers = new List[schema.fieldCount()];
        if (watchers[f] == null) watchers[f] = new ArrayList<>();
        watchers[f].add(listener);
    }

    /** The hot partition's upkeep (§3.1: inserts hot, idle tuples demoted, hot cold ones promoted), or null. */
    public HotColdUpkeep upkeep() {
        return upkeep;
    }

    /**
     * Starts keeping the hot partition up to date as the workload runs: see {@link HotColdUpkeep}.
     * Needs the hot partition and at least one index.
     */
    public HotColdUpkeep startUpkeep(long demoteAfter, int promoteAfter) {
        if (hot == null || keyFields.length == 0)
            throw new IllegalStateException(spec.name() + ": upkeep needs a hot partition and an index");
        upkeep = new HotColdUpkeep(this, demoteAfter, promoteAfter);
        return upkeep;
    }

    /** Memory the dictionaries of dictionary-coded columns take (outside the pages). */
    /** With {@code compress_cache=}: the memory its decompressed values take now; else 0. */
    public long decompressedCacheBytes() {
        return decompressedCache == null ? 0 : decompressedCache.bytes();
    }

    /** With {@code compress_cache=}: reads of a compressed value out of line that it answered; else 0. */
    public long decompressedCacheHits() {
        return decompressedCache == null ? 0 : decompressedCache.hits();
    }

    public long dictionaryBytes() {
        long b = 0;
        for (ColumnSpec c : spec.columns()) if (c.codec() instanceof ColumnCodec.Dictionary d) b += d.bytes();
        if (dictionaries != null) for (FieldDictionary d : dictionaries) if (d != null) b += d.bytes().length;
        return b;
    }

    /** Creates the (empty) hot partition. */
    public Part createHotPartition() {
        trainDictionaries();
        if (hot == null) hot = new Part();
        return hot;
    }

    /**
     * Creates the (empty) hot partition with only the indexes {@code indexed} marks, plus index 0
     * and every unique one (uniqueness is checked in every partition). A hot copy of an index no
     * read uses would only serve inserts, and its leaves would sit in the working set.
     */
    public Part createHotPartition(boolean[] indexed) {
        trainDictionaries();
        if (hot == null) hot = new Part(indexed);
        return hot;
    }

    /** The partitions to search, hot first. */
    public Part[] parts() {
        return hot == null ? new Part[] {main} : new Part[] {hot, main};
    }

    public long rows() {
        return main.heap.rows() + (hot == null ? 0 : hot.heap.rows());
    }

    // ---- keys ---------------------------------------------------------------------------

    /** The encoded key of {@code index} for a record. Null when a key column is NULL (not indexed). */
    public byte[] key(int index, Record r) {
        encoder.reset();
        for (int f : keyFields[index]) {
            if (r.isNull(f)) return null;
            FieldType t = schema.type(f);
            if (t.isVariable()) encoder.appendBytes(r.bytes(f), 0, r.length(f));
            else if (t == FieldType.FLOAT64) encoder.appendDouble(r.getDouble(f));
            else appendInteger(t, r.getLong(f));
        }
        return encoder.toBytes();
    }

    /**
     * The bytes of index {@code index}'s keys when every key column is an integer stored in whole
     * bytes ({@link #key}: {@code appendSigned}/{@code appendUnsigned} at the column's width) and they
     * add up to at most 8, so a key is one fixed-width number ({@link dev.wastecheck.engine.index.PackedLeafPage});
     * 0 otherwise (strings, doubles, bits, wider keys).
     */
    int packedKeyWidth(int index) {
        int w = 0;
        for (int f : keyFields[index]) {
            FieldType t = schema.type(f);
            if (t.isVariable() || t == FieldType.FLOAT64 || !t.isFixedBytes()) return 0;
            w += t.width;
        }
        return w <= 8 ? w : 0;
    }

    private void appendInteger(FieldType t, long v) {
        if (t.isUnsigned()) encoder.appendUnsigned(v, t.width);
        else encoder.appendSigned(v, Math.max(1, t.width));
    }

    /**
     * The encoded key prefix of {@code index} bound by literal values (as a trace writes them) for
     * its first {@code literals.size()} columns, or null if a literal cannot equal any stored value
     * (text in an integer column, a number out of the column's range).
     */
    public byte[] keyOfLiterals(int index, List<String> literals) {
        encoder.reset();
        for (int k = 0; k < literals.size(); k++) {
            int f = keyFields[index][k];
            String v = literals.get(k);
            if (v == null) return null;
            FieldType t = schema.type(f);
            ColumnCodec codec = codec(f);
            if (codec != null) {
                byte[] b = v.getBytes(StandardCharsets.UTF_8);
                long code = codec instanceof ColumnCodec.Dictionary d
                        ? d.find(b, 0, b.length)
                        : codec.encode(b, 0, b.length);
                if (code == ColumnCodec.NONE) return null; // no stored value is this text
                appendInteger(t, code);
            } else if (t.isVariable()) {
                byte[] b = v.getBytes(StandardCharsets.UTF_8);
                encoder.appendBytes(b, 0, b.length);
            } else if (t == FieldType.FLOAT64) {
                try {
                    encoder.appendDouble(Double.parseDouble(v));
                } catch (NumberFormatException e) {
                    return null;
                }
            } else {
                Long l = Values.parseLong(v);
                if (l == null || !t.fits(l)) return null;
                appendInteger(t, l);
            }
        }
        return encoder.toBytes();
    }

    /**
     * Where each whole column ends in an encoded key (or key prefix) of {@code index}, written to
     * {@code out}; returns the number of whole columns in the first {@code len} bytes.
     */
    private int prefixEnds(int index, byte[] key, int len, int[] out) {
        int pos = 0, cols = 0;
        for (int f : keyFields[index]) {
            FieldType t = schema.type(f);
            if (t.isVariable()) {
                while (pos + 1 < len && !(key[pos] == 0 && key[pos + 1] == 1)) pos += key[pos] == 0 ? 2 : 1;
                if (pos + 1 >= len) return cols;
                pos += 2;
            } else {
                pos += t == FieldType.FLOAT64 ? 8 : Math.max(1, t.width);
                if (pos > len) return cols;
            }
            out[cols++] = pos;
            if (pos == len) return cols;
        }
        return cols;
    }

    /**
     * Rewrites the cold partition's B+trees in key order once the split has moved the hot tuples out
     * (called before {@link #buildColdFilters}): each move deleted an entry from every cold tree, and
     * a B+tree does not merge leaves, so a table whose hot share is large kept its cold trees at the
     * leaf count of the whole table with a fraction of the entries, and every first read of a cold
     * tuple descended to one of those leaves (held out on the 3,000-page wiki: `page`, 2,663 of its
     * rows hot, 0.48 MiB of cold index pages touched; docs/benchmarks.md, issue 27). Ascending
     * appends fill the new leaves ({@link BTree}); the cold partition is read far more than it is
     * written (§3.1), and its demotions are noted, not inserted ({@link #deferColdIndexes}). An index
     * with an index cache is left alone: the cache lives in its leaves' free space (§2). The old
     * trees' pages are dropped from the table (the device keeps them, as it keeps every freed page).
     * Returns the pages the cold trees hold fewer.
     */
    public long packColdIndexes() {
        if (hot == null || arrow != null) return 0;
        long fewer = 0;
        for (int i = 0; i < main.trees.length; i++) {
            BTree old = main.trees[i];
            if (old == null || main.caches[i] != null) continue;
            BTree packed = new BTree(pool, old.unique());
            old.scan(null, null, true, (key, tid) -> {
                packed.insert(key, tid);
                return true;
            });
            if (packed.pageCount() >= old.pageCount()) continue; // nothing gained: keep the old tree
            fewer += old.pageCount() - packed.pageCount();
            main.trees[i] = packed;
        }
        return fewer;
    }

    /**
     * Builds the cold partition's prefix filters from its indexes (called once the hot partition
     * is filled). From then on, tuples that enter the cold partition add their prefixes.
     */
    public void buildColdFilters() {
        PrefixFilter[][] filters = new PrefixFilter[keyFields.length][];
        for (int i = 0; i < keyFields.length; i++) {
            int cols = keyFields[i].length;
            filters[i] = new PrefixFilter[cols];
            long entries = main.trees[i].size();
            for (int k = 1; k <= cols; k++) {
                if (k == cols && unique(i)) continue; // a whole unique key is looked up, found in one place
                filters[i][k - 1] = new PrefixFilter(Math.max(1, entries));
            }
            PrefixFilter[] fi = filters[i];
            int index = i;
            int[] e = new int[cols];
            main.trees[i].scan(null, null, true, (key, tid) -> {
                addPrefixes(fi, index, key, e);
                return true;
            });
        }
        coldFilters = filters;
    }

    private void addPrefixes(PrefixFilter[] fi, int index, byte[] key, int[] e) {
        int cols = prefixEnds(index, key, key.length, e);
        for (int k = 1; k <= cols; k++) {
            if (fi[k - 1] != null) fi[k - 1].add(key, e[k - 1]);
        }
    }

    private void noteColdKey(int index, byte[] key) {
        if (coldFilters != null && key != null)
            addPrefixes(coldFilters[index], index, key, new int[keyFields[index].length]);
    }

    /**
     * Memory of the cold partition's prefix filters that lookups have consulted (the others could
     * be dropped: no lookup of the workload binds that prefix of that index).
     */
    public long filterBytes() {
        if (coldFilters == null) return 0;
        long b = 0;
        for (PrefixFilter[] fi : coldFilters) for (PrefixFilter f : fi) if (f != null && f.consulted()) b += f.bytes();
        return b;
    }

    // ---- the cold partition's lazily kept indexes ----------------------------------------

    /**
     * Per index of the cold partition, the entries not yet written to its B+tree, or null where the
     * tree is kept up to date at once ({@link #deferColdIndexes}).
     */
    private ColdNotes[] notes;

    /** The most notes a table keeps before it writes them all to their trees. */
    static final int MAX_NOTES = 1 << 16;

    /**
     * From now on, the cold partition's indexes are kept lazily (§3.1: a demotion moves "the
     * previously hot tuple ... to the cold partition", and each demotion inserted into every cold
     * index at a random leaf, which put those leaves in the working set): a tuple that enters the
     * cold partition is noted in memory, per index, by key; lookups of the cold partition read the
     * notes and then the tree; the notes are written to the trees, in key order, when the table
     * holds {@value #MAX_NOTES} of them or something walks a whole tree. A tuple that leaves the
     * cold partition is removed from the notes, or from the tree at once. The notes count in the
     * working set ({@link #deferredBytes}: packed, {@link ColdNotes}: key, offset and tuple id each).
     */
    public void deferColdIndexes() {
        if (arrow != null || keyFields.length == 0) return;
        ColdNotes[] n = new ColdNotes[keyFields.length];
        for (int i = 0; i < n.length; i++) if (main.trees[i] != null) n[i] = new ColdNotes();
        notes = n;
    }

    /** Memory of the notes waiting for their cold index ({@link #deferColdIndexes}). */
    public long deferredBytes() {
        if (notes == null) return 0;
        long b = 0;
        for (ColdNotes d : notes) if (d != null) b += d.bytes();
        return b;
    }

    private ColdNotes notes(Part p, int i) {
        return p == main && notes != null ? notes[i] : null;
    }

    private void treeInsert(Part p, int i, byte[] key, long tid) {
        if (key == null || p.trees[i] == null) return;
        ColdNotes d = notes(p, i);
        if (d == null) {
            p.trees[i].insert(key, tid);
            return;
        }
        d.add(key, tid);
        if (d.size() >= MAX_NOTES) writeNotes();
    }

    private void treeDelete(Part p, int i, byte[] key, long tid) {
        if (key == null || p.trees[i] == null) return;
        ColdNotes d = notes(p, i);
        if (d == null || !d.remove(key, tid)) p.trees[i].delete(key, tid);
    }

    /** The tuple a unique index holds for {@code key} in part {@code p}, notes first; NONE if none. */
    private long treeLookup(Part p, int i, byte[] key) {
        ColdNotes d = notes(p, i);
        if (d != null) {
            long tid = d.first(key);
            if (tid != TupleId.NONE) return tid;
        }
        return p.trees[i].lookup(key);
    }

    /**
     * The cold partition's noted tuple of unique index {@code i} for {@code key}, or NONE: what a
     * lookup through the index cache must ask before the tree (a noted tuple is not in any leaf).
     */
    public long noted(Part p, int i, byte[] key) {
        ColdNotes d = notes(p, i);
        if (d == null) return TupleId.NONE;
        return d.first(key);
    }

    /** Writes every note to its tree, in key order, and starts the notes afresh. */
    private void writeNotes() {
        if (notes == null) return;
        for (int i = 0; i < notes.length; i++) {
            ColdNotes d = notes[i];
            if (d == null || d.isEmpty()) continue;
            BTree tree = main.trees[i];
            d.forEach(tree::insert);
            notes[i] = new ColdNotes();
        }
    }

    // ---- reads --------------------------------------------------------------------------

    /**
     * Visits the tuples whose key for {@code index} starts with {@code prefix} (a whole key or a
     * prefix of whole columns), hot partition first; the visitor returns false to stop.
     */
    public void find(int index, byte[] prefix, boolean wholeKey, TupleVisitor visitor) {
        // the hot partition, then the main one (not parts(): an array a call)
        if (hot != null && !findIn(hot, index, prefix, wholeKey, visitor)) return;
        findIn(main, index, prefix, wholeKey, visitor);
    }

    /** {@link #find} in partition {@code p}; false when the search ends there (the visitor stopped, or a unique key was found). */
    private boolean findIn(Part p, int index, byte[] prefix, boolean wholeKey, TupleVisitor visitor) {
        if (p == main && coldFilters != null && !(wholeKey && unique(index))) {
            int cols = prefixEnds(index, prefix, prefix.length, ends);
            PrefixFilter f = cols > 0 ? coldFilters[index][cols - 1] : null;
            if (f != null && !f.mightContain(prefix, prefix.length)) return true; // no cold tuple has this prefix
        }
        ColdNotes noted = notes(p, index);
        if (noted != null && !noted.isEmpty()) {
            // tuples that entered the cold partition lately: in the notes, not yet in the tree
            List<Long> hits = noted.withPrefix(prefix);
            for (long tid : hits) if (!visitor.visit(p, tid)) return false;
            if (!hits.isEmpty() && wholeKey && unique(index)) return false; // a unique key lives in one place
        }
        BTree tree = p.trees[index];
        if (tree == null) {
            // a hot partition without this index: read its heap, which lookups keep in memory anyway
            return scanForKey(p, index, prefix, visitor);
        }
        if (wholeKey && tree.unique()) {
            long tid = tree.lookup(prefix);
            if (tid == TupleId.NONE) return true;
            visitor.visit(p, tid);
            return false; // a unique key lives in one partition
        }
        PrefixScan scan = new PrefixScan(p, prefix, visitor);
        tree.scan(prefix, null, true, scan);
        return !scan.stopped;
    }

    /**
     * A scan's visitor of the entries whose key starts with a prefix: the key compared where it lies in the leaf
     * ({@link BTree.KeyRefVisitor}), not copied out for every entry as the copying scan did.
     */
    private static final class PrefixScan implements BTree.KeyRefVisitor {
        private final Part part;
        private final byte[] prefix;
        private final TupleVisitor visitor;
        /** Whether the visitor asked to stop (then no partition after this one is searched). */
        boolean stopped;

        PrefixScan(Part part, byte[] prefix, TupleVisitor visitor) {
            this.part = part;
            this.prefix = prefix;
            this.visitor = visitor;
        }

        @Override
        public boolean visit(byte[] bytes, int offset, int length, long tid) {
            if (length < prefix.length
                    || !Arrays.equals(bytes, offset, offset + prefix.length, prefix, 0, prefix.length))
                return false; // past the prefix: the keys after it sort after it too
            if (visitor.visit(part, tid)) return true;
            stopped = true;
            return false;
        }
    }

    /** Visits the tuples of {@code p} whose key of {@code index} starts with {@code prefix}, by reading every tuple; false to stop. */
    private boolean scanForKey(Part p, int index, byte[] prefix, TupleVisitor visitor) {
        Record r = new Record(schema);
        List<Long> matches = new ArrayList<>();
        forEachTuple(p, tid -> {
            read(p, tid, r);
            byte[] k = key(index, r);
            if (k != null && startsWith(k, prefix)) matches.add(tid);
            return true;
        });
        for (long tid : matches) if (!visitor.visit(p, tid)) return false;
        return true;
    }

    @FunctionalInterface
    public interface TupleVisitor {
        boolean visit(Part part, long tid);
    }

    private static boolean startsWith(byte[] k, byte[] prefix) {
        return k.length >= prefix.length && Arrays.equals(k, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** Reads {@code fields} of a tuple into {@code into}, long values brought back from overflow. */
    public void project(Part p, long tid, int[] fields, Record into) {
        p.heap.project(tid, fields, into, scratch);
        for (int f : fields) {
            if (overflows(f) && !into.isNull(f)) untag(p, into, f);
        }
    }

    /** Whether column {@code f} keeps its values behind a tag byte (pages only). */
    private boolean overflows(int f) {
        return arrow == null && spec.columns().get(f).overflow();
    }

    /** Told when compaction moves a tuple of the main partition (Arrow blocks), so that what holds tuple ids can follow. */
    public interface MoveListener {
        void moved(long from, long to);
    }

    private MoveListener mainMoves;

    /** {@code listener} hears of every move compaction makes in the main partition from now on; null for none. */
    public void onMainMove(MoveListener listener) {
        this.mainMoves = listener;
    }

    /**
     * A tuple compaction moved from {@code from} to {@code to}: every index entry follows it, and so
     * do the hot/cold upkeep and whoever counts heat by tuple id (the replay's learner).
     */
    private void moved(Part p, long from, long to) {
        Record r = new Record(schema);
        p.heap.read(to, r);
        for (int i = 0; i < keyFields.length; i++) {
            byte[] k = key(i, r);
            if (k != null && p.trees[i] != null) { // a hot partition may leave an index out
                treeDelete(p, i, k, from);
                treeInsert(p, i, k, to);
            }
            if (p.caches[i] != null) p.caches[i].tupleUpdated(from);
        }
        if (upkeep != null) upkeep.moved(p, from, to);
        if (p == main && mainMoves != null) mainMoves.moved(from, to);
    }

    /** Reads the whole tuple (values brought back from overflow). */
    public void read(Part p, long tid, Record into) {
        p.heap.read(tid, into);
        for (int f = 0; f < schema.fieldCount(); f++) {
            if (overflows(f) && !into.isNull(f)) untag(p, into, f);
        }
    }

    private void untag(Part p, Record r, int f) {
        byte[] b = r.bytes(f);
        int len = r.length(f);
        if (len == 0)
            throw new IllegalStateException(
                    spec.name() + "." + spec.columns().get(f).name() + ": value without its tag byte");
        if (b[0] == OverflowStore.INLINE) {
            System.arraycopy(b, 1, scratch, 0, len - 1);
            r.setBytes(f, scratch, 0, len - 1);
        } else if (b[0] == OverflowStore.INLINE_COMPRESSED || b[0] == OverflowStore.INLINE_DICTIONARY) {
            // compress_cache= keeps these too, keyed by the frame's bytes (b is the record's buffer, which decompress
            // overwrites: the frame is compared before that and moved to the table's frame buffer, which the cache
            // copies)
            long key = decompressedCache == null ? 0 : DecompressedCache.inlineKey(b, len);
            byte[] kept = decompressedCache == null ? null : decompressedCache.get(key, b, len);
            if (kept != null) {
                r.setBytes(f, kept, 0, kept.length);
                return;
            }
            byte[] frame = frameScratch(len);
            System.arraycopy(b, 0, frame, 0, len);
            decompress(r, f, frame, 1, len - 1, b[0] == OverflowStore.INLINE_DICTIONARY);
            if (decompressedCache != null) decompressedCache.put(key, r.bytes(f), r.length(f), frame, len);
        } else if (b[0] == BlockOverflow.TAG) {
            BlockOverflow store = p.blocks[f];
            if (store == null || len != BlockOverflow.REF_BYTES)
                throw new IllegalStateException(
                        spec.name() + "." + spec.columns().get(f).name() + ": block reference without its blocks");
            int n = BlockOverflow.length(b, 0);
            byte[] dst = n <= scratch.length ? scratch : new byte[n];
            FieldDictionary d = dictionaries == null ? null : dictionaries[f];
            store.read(b, 0, dst, d == null ? null : d.decompress, frames);
            r.setBytes(f, dst, 0, n);
            decompressedCopiedBytes += n;
        } else if (b[0] == OverflowStore.OUT_OF_LINE_COMPRESSED || b[0] == OverflowStore.OUT_OF_LINE_DICTIONARY) {
            boolean dict = b[0] == OverflowStore.OUT_OF_LINE_DICTIONARY;
            System.arraycopy(b, 0, refScratch, 0, OverflowStore.REF_BYTES);
            long key = decompressedCache == null ? -1 : DecompressedCache.key(refScratch);
            byte[] kept = key < 0 ? null : decompressedCache.get(key);
            if (kept != null) {
                r.setBytes(f, kept, 0, kept.length); // neither the frame's pages nor its decompression
                return;
            }
            int n = OverflowStore.length(refScratch, 0);
            byte[] frame = frameScratch(n);
            main.overflow.read(refScratch, 0, frame); // a reference names its page: any store reads it
            decompress(r, f, frame, 0, n, dict);
            if (key >= 0) decompressedCache.put(key, r.bytes(f), r.length(f));
        } else {
            System.arraycopy(b, 0, refScratch, 0, OverflowStore.REF_BYTES);
            int n = OverflowStore.length(refScratch, 0);
            byte[] dst = n <= scratch.length ? scratch : new byte[n];
            main.overflow.read(refScratch, 0, dst);
            r.setBytes(f, dst, 0, n);
        }
    }

    /**
     * Sets field {@code f} of {@code r} to the value the zstd frame at {@code src[off..off+len)} holds,
     * made with the field's dictionary when {@code dict}. The frame is decompressed straight into the
     * record's buffer for the field ({@link Record#buffer}, grown once to the largest value read), so
     * {@code src} must not be that buffer. Before, it went into the table's scratch (or a fresh array
     * for a value above two pages) and was then copied into the record.
     */
    private void decompress(Record r, int f, byte[] src, int off, int len, boolean dict) {
        long n = FrameWriter.contentSize(src, off, len); // one frame's header, or several frames' skippable one
        if (n < 0 || n > Integer.MAX_VALUE || (dict && dictionaries[f] == null))
            throw new IllegalStateException(
                    spec.name() + "." + spec.columns().get(f).name() + ": corrupt zstd frame");
        byte[] dst = r.buffer(f, (int) n);
        if (!frames.decompress(dst, (int) n, src, off, len, dict ? dictionaries[f].decompress : null))
            throw new IllegalStateException(
                    spec.name() + "." + spec.columns().get(f).name() + ": corrupt zstd frame");
        decompressedBytes += n;
        if (dict) dictionaryFrameBytes += len;
        else plainDecompressedBytes += n;
        // no copy: the frame decodes into the record's own buffer, so decompressedCopiedBytes (which Autotune's model
        // charges a copy per byte) counts nothing here; it counted these bytes until the model's copy was seen to be
        // charged for a copy no longer made (docs/benchmarks.md, issue 27, "The copy no longer charged")
    }

    /** A frame's bytes on their way to {@link #decompress}: the table's buffer, grown to the longest frame read. */
    private byte[] frameScratch(int n) {
        if (frameScratch.length < n) frameScratch = new byte[Math.max(n, frameScratch.length * 2)];
        return frameScratch;
    }

    /** Below this many bytes a value is stored as it is: a zstd frame's header and checksum would not pay. */
    static final int MIN_COMPRESSED = 64;

    /** zstd's level: its default, the fast end ("No Bits Left Behind" §4.1 leaves the codec open). */
    static final int ZSTD_LEVEL = 3;

    /**
     * The value of field {@code f} of {@code r} as a zstd frame when that is shorter than the value
     * by at least a byte (the tag), or null to store it plain.
     */
    private byte[] compress(Record r, int f) {
        int len = r.length(f);
        if (!compressed[f] || len < MIN_COMPRESSED) return null;
        byte[] dst = new byte[FrameWriter.bound(len)];
        FieldDictionary d = dictionaries == null ? null : dictionaries[f];
        int n;
        try {
            n = d != null ? d.writer.compress(dst, r.bytes(f), len) : plainWriter.compress(dst, r.bytes(f), len);
        } catch (ZstdException e) {
            return null; // as a failed static call did: the value is stored plain
        }
        if (n >= len) return null;
        compressedValues++;
        compressionSaved += len - n;
        return Arrays.copyOf(dst, (int) n);
    }

    /** zstd's level with a trained dictionary, whose frames are written far less often (the hot partition's values). */
    static final int ZSTD_DICTIONARY_LEVEL = 9;
    /** A trained dictionary's size without {@code compress_dict=}: zstd's default (110 KiB). */
    static final int DICTIONARY_BYTES = 112_640;
    /**
     * The most values, and value bytes, a dictionary is trained on; a dictionary larger than 1 MiB
     * ({@code compress_dict=}) gets 16 times its size in sample bytes, zstd's advice for the trainer.
     */
    static final int SAMPLE_VALUES = 4096, SAMPLE_BYTES = 16 << 20;

    /**
     * A zstd dictionary trained on a compressed field's values, with its digested forms and the context its values
     * are compressed with ({@link FrameWriter}).
     */
    private record FieldDictionary(
            byte[] bytes, ZstdDictCompress compress, ZstdDictDecompress decompress, FrameWriter writer) {
        FieldDictionary(byte[] bytes, int level, ZstdDictDecompress decompress) {
            this(bytes, new ZstdDictCompress(bytes, level), decompress, level);
        }

        private FieldDictionary(byte[] bytes, ZstdDictCompress compress, ZstdDictDecompress decompress, int level) {
            this(bytes, compress, decompress, FrameWriter.withDictionary(compress, level));
        }
    }

    /** The context values without a dictionary are compressed with, at {@link #plainLevel}. */
    private final FrameWriter plainWriter;

    /** zstd's level for frames made without a dictionary: {@code compress_level=}'s, or {@link #ZSTD_LEVEL}. */
    private int plainLevel() {
        int l = design.compress().level();
        return l != 0 ? l : ZSTD_LEVEL;
    }

    /** zstd's level for frames made with a dictionary: {@code compress_level=}'s, or {@link #ZSTD_DICTIONARY_LEVEL}. */
    private int dictionaryLevel() {
        int l = design.compress().level();
        return l != 0 ? l : ZSTD_DICTIONARY_LEVEL;
    }

    /** Per field, its trained dictionary ({@link #trainDictionaries}); null before, and for fields without one. */
    private FieldDictionary[] dictionaries;

    /**
     * Trains a zstd dictionary for each compressed field on a sample of the values the table holds
     * (evenly spaced over the cold partition, at most {@value #SAMPLE_VALUES} values), as a
     * per-field dictionary would be built from the data; called at the split (a hot partition's
     * creation, a relocation). Values stored from then on (the hot partition's, relocated, new and
     * moved ones) are compressed with it, under tags 4 and 5
     * ({@link OverflowStore}), and read with it. The workload is not consulted. The dictionaries
     * live in memory (beside the pool at the default size, out of the pool's memory with
     * {@code compress_dict=SIZE}: {@link Database}) and count as side bytes ({@link #dictionaryBytes}).
     * The dictionary's size is the design's: zstd's default, or {@code compress_dict=}'s (a larger
     * one holds more of what the values share, so each frame refers to it for more of its bytes). With {@code
     * compress_dict_kind=content} the same sample is not given to zstd's trainer: the dictionary is its distinct
     * bytes, up to that size ({@link ContentDictionary}).
     */
    public void trainDictionaries() {
        if (arrow != null || dictionaries != null) return;
        boolean any = false;
        for (boolean c : compressed) any |= c;
        if (!any) return;
        FieldDictionary[] out = new FieldDictionary[compressed.length];
        if (main.trees.length == 0) { // no index to walk the rows by: every field keeps plain frames
            dictionaries = out;
            return;
        }
        long rows = Math.max(1, main.heap.rows());
        long every = Math.max(1, rows / SAMPLE_VALUES);
        int dictionaryBytes =
                design.compress().dictionary() > 0 ? design.compress().dictionary() : DICTIONARY_BYTES;
        int sampleBytes = (int) Math.min(Integer.MAX_VALUE - 8, Math.max(SAMPLE_BYTES, 16L * dictionaryBytes));
        Record r = new Record(schema);
        for (int f = 0; f < compressed.length; f++) {
            if (!compressed[f]) continue;
            int field = f;
            ZstdDictTrainer trainer =
                    design.compress().content() ? null : new ZstdDictTrainer(sampleBytes, dictionaryBytes);
            List<byte[]> content = new ArrayList<>();
            long[] seen = {0, 0};
            forEachTuple(main, tid -> {
                if (seen[0]++ % every != 0) return true;
                project(main, tid, new int[] {field}, r);
                if (r.isNull(field) || r.length(field) < MIN_COMPRESSED) return true;
                byte[] v = Arrays.copyOf(r.bytes(field), r.length(field));
                if (trainer != null) return trainer.addSample(v);
                content.add(v); // compress_dict_kind=content: the same sample, the same bytes' budget
                return (seen[1] += v.length) < sampleBytes;
            });
            byte[] dict;
            if (trainer == null) {
                dict = ContentDictionary.build(content, dictionaryBytes);
                if (dict == null) continue; // too few bytes to be a dictionary: the field keeps its plain frames
            } else {
                try {
                    dict = trainer.trainSamples();
                } catch (ZstdException tooFewSamples) {
                    continue; // zstd needs enough samples; the field keeps its plain frames
                }
            }
            out[f] = new FieldDictionary(dict, dictionaryLevel(), new ZstdDictDecompress(dict));
        }
        dictionaries = out;
    }

    /** Values stored compressed so far, and the bytes that saved (plain minus frame), in that order. */
    public long[] compression() {
        return new long[] {compressedValues, compressionSaved};
    }

    /**
     * Bytes reads have decompressed so far: single-value frames and whole blocks ({@code compress_block=}), the
     * CPU a compressed field costs its reads (the modeled cost charges it per byte).
     */
    public long decompressedBytes() {
        long b = decompressedBytes;
        for (Part p : parts()) for (BlockOverflow o : p.blocks) if (o != null) b += o.decompressedBytes();
        return b;
    }

    /**
     * What reads of compressed values have cost so far, split as the modeled cost charges it ({@code
     * Autotune.modeledUs}): [0] bytes of the zstd frames made with a dictionary that they decoded (such a frame's
     * decoding time follows its own bytes, not what it writes), [1] bytes they wrote from frames made without one
     * (single-value frames and whole blocks); [2] bytes of the values decompressed reads then copied into the
     * reader's record (a block's read copies its value, not the block; a frame decodes into the record, no copy); with {@code compress_cache=}, [3] its hits
     * and [4] its misses (each followed by the value's decompression and its copy into the cache).
     */
    public long[] decompressionSplit() {
        long d = dictionaryFrameBytes, plain = plainDecompressedBytes;
        for (Part p : parts())
            for (BlockOverflow o : p.blocks)
                if (o != null) {
                    d += o.dictionaryFrameBytes();
                    plain += o.plainDecompressedBytes();
                }
        return new long[] {
            d,
            plain,
            decompressedCopiedBytes,
            decompressedCache == null ? 0 : decompressedCache.hits(),
            decompressedCache == null ? 0 : decompressedCache.misses()
        };
    }

    /** Memory of the block tables and open blocks of every partition ({@link BlockOverflow#sideBytes}). */
    public long blockSideBytes() {
        long b = 0;
        for (Part p : parts()) for (BlockOverflow o : p.blocks) if (o != null) b += o.sideBytes();
        return b;
    }

    /** Whether field {@code f} is stored compressed where that is shorter ({@code compress=}). */
    public boolean compressed(int f) {
        return compressed[f];
    }

    /**
     * Turns the plain values of overflow columns in {@code r} into their stored (tagged) form, in place, long ones
     * into {@code p}'s overflow store; fields marked in {@code stored} (null for none) hold their stored form already.
     */
    private void tag(Part p, Record r, boolean[] stored) {
        OverflowStore overflow = p.overflow;
        int block = design.compress().block();
        for (int f = 0; f < schema.fieldCount(); f++) {
            if (!overflows(f) || r.isNull(f) || (stored != null && stored[f])) continue;
            if (block > 0 && compressed[f] && r.length(f) >= overflow.threshold()) {
                // compress_block=: the value joins the part's open block; the block is compressed once full
                if (p.blocks[f] == null)
                    p.blocks[f] = new BlockOverflow(
                            overflow,
                            block,
                            plainLevel(),
                            spec.name() + "." + spec.columns().get(f).name());
                FieldDictionary d = dictionaries == null ? null : dictionaries[f];
                byte[] ref = new byte[BlockOverflow.REF_BYTES];
                p.blocks[f].store(r.bytes(f), 0, r.length(f), ref, 0, d == null ? null : d.compress);
                compressedValues++;
                r.setBytes(f, ref, 0, BlockOverflow.REF_BYTES);
                continue;
            }
            byte[] frame = compress(r, f);
            if (frame != null) {
                boolean dict = dictionaries != null && dictionaries[f] != null;
                if (frame.length + 1 >= overflow.threshold()) {
                    overflow.store(frame, 0, frame.length, refScratch, 0);
                    refScratch[0] = dict ? OverflowStore.OUT_OF_LINE_DICTIONARY : OverflowStore.OUT_OF_LINE_COMPRESSED;
                    r.setBytes(f, refScratch, 0, OverflowStore.REF_BYTES);
                } else {
                    byte[] t = new byte[frame.length + 1];
                    t[0] = dict ? OverflowStore.INLINE_DICTIONARY : OverflowStore.INLINE_COMPRESSED;
                    System.arraycopy(frame, 0, t, 1, frame.length);
                    r.setBytes(f, t, 0, t.length);
                }
                continue;
            }
            byte[] b = r.bytes(f);
            int len = r.length(f);
            if (len >= overflow.threshold()) {
                overflow.store(b, 0, len, refScratch, 0);
                r.setBytes(f, refScratch, 0, OverflowStore.REF_BYTES);
            } else {
                byte[] t = len + 1 <= scratch.length ? scratch : new byte[len + 1];
                t[0] = OverflowStore.INLINE;
                System.arraycopy(b, 0, t, 1, len);
                r.setBytes(f, t, 0, len + 1);
            }
        }
    }

    // ---- writes -------------------------------------------------------------------------

    /**
     * Inserts a record (plain values; {@code r} is changed to its stored form) into partition
     * {@code p} and all its indexes. Returns the tuple id, or {@link TupleId#NONE} when a unique
     * key already exists in any partition (nothing is changed then).
     */
    public long insert(Part p, Record r) {
        return insert(p, r, true, null);
    }

    /**
     * {@link #insert(Part, Record)}, with the uniqueness check in every partition only when
     * {@code checkUnique}: a tuple that moves between partitions ({@link #move}) was unique when it
     * left, so looking its keys up again would only descend the other partition's trees. Each
     * demotion's check read the cold unique index's leaf for an old key, a random leaf: on the
     * generated wikis, held out, the 550 demotions touched every leaf of the cold primary indexes of
     * `revision`, `slots`, `content` and `text` (docs/benchmarks.md, issue 27).
     */
    private long insert(Part p, Record r, boolean checkUnique, boolean[] stored) {
        byte[][] keys = new byte[keyFields.length][];
        for (int i = 0; i < keys.length; i++) {
            keys[i] = key(i, r);
            if (checkUnique && keys[i] != null && unique(i)) {
                for (Part q : parts()) {
                    if (treeLookup(q, i, keys[i]) != TupleId.NONE) return TupleId.NONE;
                }
            }
        }
        tag(p, r, stored);
        long tid = p.heap.insert(r);
        for (int i = 0; i < keys.length; i++) {
            treeInsert(p, i, keys[i], tid);
            if (p == main) noteColdKey(i, keys[i]);
        }
        if (upkeep != null) upkeep.inserted(p, tid);
        return tid;
    }

    /** Removes a tuple from its heap and from every index of its partition. */
    public void delete(Part p, long tid, Record scratchRecord) {
        read(p, tid, scratchRecord);
        for (int i = 0; i < keyFields.length; i++) {
            byte[] k = key(i, scratchRecord);
            treeDelete(p, i, k, tid);
            if (p.caches[i] != null) p.caches[i].tupleUpdated(tid);
        }
        p.heap.delete(tid);
        if (upkeep != null) upkeep.deleted(p, tid);
    }

    /**
     * Moves a tuple into partition {@code to} (possibly its own, which relocates it to the heap's
     * end): delete and append, with every index entry updated to the new tuple id. Its keys are not
     * checked for uniqueness again: the tuple was unique where it was, and it leaves that place.
     */
    public long move(Part from, long tid, Part to, Record scratchRecord) {
        if (from == hot && to == main && hot != main) return demote(tid, scratchRecord);
        delete(from, tid, scratchRecord);
        return insert(to, scratchRecord, false, null);
    }

    /**
     * A demotion (the hot partition to the cold one: by reference, §3.1, or idle): the tuple moves with
     * every index entry, and its long values out of line stay in the hot partition's overflow pages where
     * they are, the cold row keeping the 17-byte reference to them (a reference names its page, and any
     * partition reads it: {@link #untag}). §3.1 moves "the previously hot tuple ... to the cold partition";
     * the tuple does move, a lookup by the old id finds it and reads its value through the reference, and the
     * demotion neither reads, decompresses nor rewrites the value. On the generated wikis, held out, the
     * cold overflow pages that rewriting wrote (550 predecessors' texts, 0.86 MiB) were never read again
     * (docs/benchmarks.md, issue 27). The price: the hot partition's overflow pages keep cold values
     * beside hot ones, until something rewrites them (nothing does yet). Inline values, values in blocks
     * ({@code compress_block=}: a block belongs to its partition's table of blocks) and values of indexed
     * or cached fields move as before.
     */
    private long demote(long tid, Record r) {
        Part from = hot;
        from.heap.read(tid, r);
        boolean[] kept = new boolean[schema.fieldCount()];
        for (int f = 0; f < kept.length; f++) {
            if (!overflows(f) || r.isNull(f)) continue;
            byte tag = r.length(f) == OverflowStore.REF_BYTES ? r.bytes(f)[0] : OverflowStore.INLINE;
            kept[f] = !keyOrCached[f]
                    && (tag == OverflowStore.OUT_OF_LINE
                            || tag == OverflowStore.OUT_OF_LINE_COMPRESSED
                            || tag == OverflowStore.OUT_OF_LINE_DICTIONARY
                            || inlineStored(r, f));
            if (!kept[f]) untag(from, r, f);
        }
        for (int i = 0; i < keyFields.length; i++) {
            treeDelete(from, i, key(i, r), tid);
            if (from.caches[i] != null) from.caches[i].tupleUpdated(tid);
        }
        from.heap.delete(tid);
        if (upkeep != null) upkeep.deleted(from, tid);
        return insert(main, r, false, kept);
    }

    /**
     * Whether field {@code f} of {@code r} is stored inline as a value or a zstd frame (tags {@code INLINE},
     * {@code INLINE_COMPRESSED}, {@code INLINE_DICTIONARY}, {@link OverflowStore}): the stored bytes name no page
     * and the frames the table's dictionary of the field, which both partitions share, so the cold partition
     * stores the same bytes (untagging and tagging again decompressed the frame and compressed it again at
     * the same level to the same frame). A 17-byte value of a tag of its own is a reference.
     */
    private boolean inlineStored(Record r, int f) {
        int len = r.length(f);
        if (len == 0 || len == OverflowStore.REF_BYTES) return false;
        byte tag = r.bytes(f)[0];
        return tag == OverflowStore.INLINE
                || tag == OverflowStore.INLINE_COMPRESSED
                || tag == OverflowStore.INLINE_DICTIONARY;
    }

    /**
     * Updates fields of a tuple to the values in {@code values} (fields listed in {@code fields}).
     * Fixed-width fields change in place; a variable-length value that no longer fits its page
     * moves the tuple (delete and append in the same partition, index entries updated). Index
     * keys that change are re-inserted; cached copies are invalidated. Returns the tuple id, which
     * changes if the tuple moved, or NONE if a unique key would be duplicated (nothing changed).
     */
    public long update(Part p, long tid, int[] fields, Record values, Record scratchRecord) {
        read(p, tid, scratchRecord);
        String[] before = null;
        if (watchers != null || recordingOverwrites) {
            for (int f : fields) {
                if (!watched(f) && !recorded(f)) continue;
                if (before == null) before = new String[schema.fieldCount()];
                before[f] = Values.literal(this, f, scratchRecord);
            }
        }
        long result = rewrite(p, tid, fields, values, scratchRecord);
        if (before != null && result != TupleId.NONE) {
            for (int f : fields) {
                if (!watched(f) && !recorded(f)) continue;
                String after = values.isNull(f) ? null : Values.literal(this, f, values);
                if (Objects.equals(before[f], after)) continue;
                if (recorded(f) && before[f] != null) {
                    if (overwritten[f] == null) overwritten[f] = new HashSet<>();
                    overwritten[f].add(before[f]);
                }
                if (!watched(f)) continue;
                watched = true;
                for (ReferenceListener l : watchers[f]) l.changed(before[f], after);
            }
        }
        return result;
    }

    private boolean watched(int f) {
        return watchers != null && watchers[f] != null;
    }

    /** Whether an update of field {@code f} notes the value it overwrites (recording, and not a long field). */
    private boolean recorded(int f) {
        return recordingOverwrites && !spec.columns().get(f).overflow();
    }

    private long rewrite(Part p, long tid, int[] fields, Record values, Record scratchRecord) {
        byte[][] oldKeys = new byte[keyFields.length][];
        for (int i = 0; i < keyFields.length; i++) oldKeys[i] = key(i, scratchRecord);
        boolean varlen = false;
        for (int f : fields) {
            if (values.isNull(f)) scratchRecord.setNull(f);
            else if (schema.type(f).isVariable()) {
                scratchRecord.setBytes(f, values.bytes(f), 0, values.length(f));
                varlen = true;
            } else scratchRecord.setLong(f, values.getLong(f));
        }
        boolean keysChange = false;
        byte[][] newKeys = new byte[keyFields.length][];
        for (int i = 0; i < keyFields.length; i++) {
            newKeys[i] = key(i, scratchRecord);
            if (!Arrays.equals(oldKeys[i], newKeys[i])) {
                keysChange = true;
                if (newKeys[i] != null && unique(i)) {
                    for (Part q : parts()) {
                        if (treeLookup(q, i, newKeys[i]) != TupleId.NONE) return TupleId.NONE;
                    }
                }
            }
        }
        for (int i = 0; i < keyFields.length; i++) {
            if (p.caches[i] != null) p.caches[i].tupleUpdated(tid);
        }
        if (!keysChange && p.heap.updateInPlace(tid, fields, scratchRecord))
            return tid; // Arrow: a fixed-size write (§4.1)
        boolean inPlace = !varlen && (!keysChange || keysInPlace(oldKeys, newKeys));
        if (!inPlace) {
            // Rewrite the tuple: the simplest way that is right for every layout and for overflow.
            for (int i = 0; i < keyFields.length; i++) {
                treeDelete(p, i, oldKeys[i], tid);
            }
            p.heap.delete(tid);
            tag(p, scratchRecord, null);
            long moved = p.heap.insert(scratchRecord);
            for (int i = 0; i < keyFields.length; i++) {
                treeInsert(p, i, newKeys[i], moved);
                if (p == main) noteColdKey(i, newKeys[i]);
            }
            if (upkeep != null) upkeep.moved(p, tid, moved);
            return moved;
        }
        // Only fixed-width fields change: the tuple keeps its place and its id, and only the indexes whose key
        // changed move its entry (a page update's page_len: 2 of page's 5 indexes, where the rewrite above moved
        // all 5 and the tuple to the heap's end).
        for (int i = 0; i < keyFields.length; i++) {
            if (!Arrays.equals(oldKeys[i], newKeys[i])) treeDelete(p, i, oldKeys[i], tid);
        }
        int n = 0;
        for (int f : fields) if (!values.isNull(f)) n++;
        int[] set = new int[n];
        long[] vals = new long[n];
        n = 0;
        for (int f : fields) {
            if (values.isNull(f)) p.heap.setNull(tid, f);
            else {
                set[n] = f;
                vals[n++] = values.getLong(f);
            }
        }
        if (n > 0) p.heap.setLongs(tid, set, vals);
        for (int i = 0; i < keyFields.length; i++) {
            if (Arrays.equals(oldKeys[i], newKeys[i])) continue;
            treeInsert(p, i, newKeys[i], tid);
            if (p == main) noteColdKey(i, newKeys[i]);
        }
        return tid;
    }

    /**
     * Whether a tuple whose index keys change from {@code oldKeys} to {@code newKeys} (fixed-width fields only)
     * can keep its id: not with Arrow blocks (their fixed-size writes are {@code updateInPlace}'s), nor when the
     * implicit id (§4.2: the key is the tuple's address) would change.
     */
    private boolean keysInPlace(byte[][] oldKeys, byte[][] newKeys) {
        if (arrow != null) return false;
        if (implicitId < 0) return true;
        for (int i = 0; i < keyFields.length; i++) {
            if (Arrays.equals(oldKeys[i], newKeys[i])) continue;
            for (int f : keyFields[i]) if (f == implicitId) return false;
        }
        return true;
    }

    /**
     * Sets field {@code f} of {@code r} from a literal as a trace writes it (a codec's column gets
     * the value's code; a new dictionary value is added). False when the literal is no value of
     * the field (it would not print back the same), or a dictionary is full.
     */
    public boolean setFromLiteral(Record r, int f, String literal) {
        ColumnCodec codec = codec(f);
        if (codec == null || literal == null) return Values.setFromLiteral(r, f, schema.type(f), literal);
        long code = codec.encode(literal);
        if (code == ColumnCodec.NONE) return false;
        r.setLong(f, code);
        return true;
    }

    /**
     * Visits the live tuples of a partition whose field {@code field} is in [lo, hi] (an integer
     * or BIT field), equals {@code equal} (a VARLEN field, when not null), or all of them when
     * {@code field < 0}, page by page, with the page layout's own column kernel where the store
     * has one; the visitor returns false to stop. A store without pages (or a field kept apart)
     * visits every tuple and leaves the filtering to the caller, who checks every condition anyway.
     */
    public void scan(Part p, int field, long lo, long hi, byte[] equal, LongPredicate visitor) {
        if (p.heap instanceof HeapFile h) h.scan(field, lo, hi, equal, visitor);
        else if (p.heap instanceof VerticalStore v) v.scan(field, lo, hi, equal, visitor);
        else if (p.heap instanceof ImplicitIdStore s) s.scan(field, lo, hi, equal, visitor);
        else forEachTuple(p, visitor);
    }

    /** Visits every tuple id of a partition's heap in (page, slot) order via the first index; for clustering. */
    public void forEachTuple(Part p, LongPredicate visitor) {
        if (p == main) writeNotes(); // a whole walk: the notes join the tree first
        p.trees[0].scan(null, null, true, (k, tid) -> visitor.test(tid));
    }

    // ---- sizes ---------------------------------------------------------------------------

    public long heapBytes() {
        return main.heap.bytes() + (hot == null ? 0 : hot.heap.bytes()) + overflowPageCount() * pool.pageSize();
    }

    public long indexBytes() {
        long pages = 0;
        for (Part p : parts()) for (BTree t : p.trees) if (t != null) pages += t.pageCount();
        return pages * pool.pageSize();
    }

    /** Bytes the index caches hold right now (items times item size). */
    public long cacheBytes() {
        long b = 0;
        for (Part p : parts()) {
            for (IndexCache c : p.caches) if (c != null) b += c.occupancy().items() * c.itemSize();
        }
        return b;
    }
}
