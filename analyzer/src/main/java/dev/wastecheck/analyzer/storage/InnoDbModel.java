package dev.wastecheck.analyzer.storage;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.SqlType;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.sources.load.ColumnStorage;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A MySQL/MariaDB table's size in InnoDB, {@code data_length + index_length} as the server reports
 * it after {@code OPTIMIZE TABLE}, estimated from the rows: what a change of type saves on disk,
 * where the storage model's value bytes ({@link StorageModel}) say only what it saves in the values.
 *
 * <p>Each index is a B+tree of 16 KiB pages, rebuilt by OPTIMIZE with InnoDB's sorted bulk load
 * (btr0bulk), so the estimate packs the index's records in key order as the bulk load does. A
 * record of the COMPACT/DYNAMIC formats (MySQL Internals, "InnoDB record structure"):
 *
 * <pre>
 *   +--------------+-------------+---------------+--------+-------------------------------+
 *   | var lengths  | NULL bitmap | record header | key    | DB_TRX_ID DB_ROLL_PTR | rest  |
 *   | 1-2 B / var  | 1 bit/null- | 5 B           | fields | 6 B       7 B         | cols  |
 *   | field, rev.  | able field  |               |        | (clustered leaf only) |       |
 *   +--------------+-------------+---------------+--------+-------------------------------+
 * </pre>
 *
 * <ul>
 *   <li>The clustered index holds whole rows: the primary key (or the first UNIQUE index of NOT
 *       NULL columns, or a hidden 6-byte DB_ROW_ID), the transaction id and roll pointer, then
 *       every other column. A secondary index's record is its columns (a prefix index keeps the
 *       prefix) and the primary key's columns: a wider key widens every secondary index.</li>
 *   <li>A variable-length value has a 1-byte length when it is under 128 bytes or its column's
 *       maximum is at most 255 bytes (not a BLOB or TEXT); 2 bytes otherwise. NULL takes a bit.</li>
 *   <li>A record of half a page or more (8,126 bytes) moves its longest BLOB, TEXT or long
 *       VARCHAR values off the page, longest first, until it fits (DYNAMIC): each leaves a
 *       20-byte pointer and takes ceil(length / 16,330) overflow pages.</li>
 *   <li>A page holds 16,252 bytes of records and directory (38 B file header, 56 B page header,
 *       26 B infimum and supremum, 8 B trailer, two directory slots), a 2-byte directory slot per
 *       four records. The bulk load leaves 1/16 of each clustered index page free
 *       (innodb_fill_factor 100) and fills secondary index pages. Node pointers (the first
 *       record's key and a 4-byte page number) form the levels above, to one root page.</li>
 *   <li>The size counts the pages each index's two file segments reserve (fsp0fsp): a segment
 *       takes its first 32 pages one by one, then whole 64-page extents, and takes a new extent
 *       when less than an eighth of what it reserved is free, or less than four extents once an
 *       eighth is more than that (measured on MariaDB 11.4, {@link #FREE_AHEAD_MAX}).</li>
 * </ul>
 *
 * <p>docs/analyze.md holds its calibration against a real MariaDB, per table.
 */
public final class InnoDbModel {
    public static final int PAGE = 16384;
    /** page_get_free_space_of_empty(): a page's bytes for records and directory slots. */
    static final int PAGE_SPACE = 16252;
    /** What the bulk load leaves free on a clustered index page (dict_index_get_space_reserve, page / 16). */
    static final int CLUSTERED_RESERVE = PAGE / 16;

    static final int RECORD_HEADER = 5;
    static final int TRX_ID_AND_ROLL_PTR = 6 + 7;
    static final int ROW_ID = 6;
    static final int CHILD_PAGE_NO = 4;
    /** A record this long or longer moves values off the page. */
    static final int OFF_PAGE_THRESHOLD = PAGE_SPACE / 2;

    static final int EXTERN_REF = 20;
    /** Payload of an overflow page: the page less its 38-byte header, 8-byte BLOB header and 8-byte trailer. */
    static final int BLOB_PAGE_DATA = PAGE - 38 - 8 - 8;

    static final int EXTENT = 64;
    static final int FRAGMENT_PAGES = 32;
    /**
     * The most free pages a segment keeps ahead of its use: four extents (FSEG_FREE_LIST_MAX_LEN x
     * 64). Measured on MariaDB 11.4 (docs/analyze.md): a segment of 1,600 pages or fewer keeps an
     * eighth of what it reserved free, a larger one never more than this, so an eighth alone put a
     * 12,170-page clustered index at 13,934 pages where the server reserved 12,463.
     */
    static final int FREE_AHEAD_MAX = 4 * EXTENT;

    private InnoDbModel() {}

    /**
     * One index's estimated bytes (pages x 16 KiB, its two segments' reserved pages): as declared
     * and with the changes applied ({@code after == before} when there are none).
     *
     * @param name      the index's name; the clustered index of a table without a usable key is
     *                  {@code GEN_CLUST_INDEX}, as InnoDB names it
     * @param clustered whether this is the clustered index ({@code data_length}), else a secondary
     *                  one ({@code index_length})
     */
    public record IndexBytes(String name, boolean clustered, long before, long after) {}

    /** A table's indexes, clustered first: {@code data_length + index_length} as InnoDB counts it. */
    public record TableBytes(List<IndexBytes> indexes) {
        public long before() {
            return indexes.stream().mapToLong(IndexBytes::before).sum();
        }

        public long after() {
            return indexes.stream().mapToLong(IndexBytes::after).sum();
        }

        /** The clustered index's bytes as declared: {@code data_length}. */
        public long dataBefore() {
            return indexes.stream()
                    .filter(IndexBytes::clustered)
                    .mapToLong(IndexBytes::before)
                    .sum();
        }
    }

    /** The table's InnoDB size, as declared only. */
    public static TableBytes table(ProfilingDatabase db, LoadedTable t, DdlCatalog catalog) throws SQLException {
        return table(db, t, catalog, Map.of(), null);
    }

    /** One column as an index record stores it. */
    record Column(
            SqlType type,
            String value,
            ColumnStorage storage,
            boolean nullable,
            int fixed,
            int maxBytes,
            boolean big,
            boolean singleByte) {}

    /** A field of an index record: a column, whole or its first {@code prefix} characters. */
    record Field(Column column, int prefix) {}

    private static final Pattern FSP = Pattern.compile("\\((\\d)\\)");
    private static final Pattern GEOMETRY = Pattern.compile(
            "(?i)^(geometry|point|linestring|polygon|multipoint|multilinestring|multipolygon|geometrycollection)\\b");

    /** Bytes of a fixed-length value in InnoDB, or -1 for a variable-length type. */
    static int fixedWidth(SqlType t, boolean singleByte) {
        Matcher m = FSP.matcher(t.declared());
        int fsp = m.find() ? Integer.parseInt(m.group(1)) : 0;
        return switch (t.family()) {
            case INTEGER -> Math.max(1, t.intBits() / 8);
            case BOOLEAN, YEAR -> 1;
            case FLOAT -> 4;
            case DOUBLE -> 8;
            case DECIMAL -> StorageModel.mysqlDecimal(t.precision() < 0 ? 10 : t.precision(), Math.max(0, t.scale()));
            case DATE -> 3;
            case TIME -> 3 + (fsp + 1) / 2;
            case DATETIME -> 5 + (fsp + 1) / 2;
            case TIMESTAMP -> 4 + (fsp + 1) / 2;
            case ENUM -> t.enumValues().size() <= 255 ? 1 : 2;
            case SET -> {
                int b = (t.enumValues().size() + 7) / 8;
                yield b > 4 ? 8 : b == 3 ? 4 : Math.max(1, b);
            }
            case BIT -> Math.max(1, (Math.max(1, t.length()) + 7) / 8);
            case UUID -> 16;
            case BINARY -> t.length() < 0 ? 1 : t.length();
            case CHAR -> singleByte ? Math.max(0, t.length() < 0 ? 1 : t.length()) : -1;
            default -> -1;
        };
    }

    private static Column column(TableDef table, ColumnDef col, SqlType type, String value, ColumnStorage storage) {
        int mb = StorageModel.charsetMaxBytes(table, type);
        // A geometry is bytes (SRID and WKB), which the dump reader keeps one character per byte.
        boolean singleByte = mb == 1 || GEOMETRY.matcher(type.declared()).find();
        int fixed = fixedWidth(type, singleByte);
        TypeFamily f = type.family();
        boolean big = f == TypeFamily.TEXT || f == TypeFamily.BLOB || f == TypeFamily.JSON || f == TypeFamily.OTHER;
        int maxBytes = type.length() < 0 || big
                ? Integer.MAX_VALUE
                : (int) Math.min(Integer.MAX_VALUE, (long) type.length() * mb);
        return new Column(type, value, storage, col.nullable(), fixed, maxBytes, big, singleByte);
    }

    /** DuckDB: the bytes InnoDB stores for a field's value, NULL for NULL. */
    private static String lengthSql(Field field) {
        Column c = field.column();
        String v = c.value();
        String len;
        if (c.fixed() >= 0) {
            len = String.valueOf(c.fixed());
        } else {
            boolean bytes = c.storage() == ColumnStorage.BYTES
                    || c.type().family().isBinary() && c.storage() != ColumnStorage.TEXT;
            String whole = bytes
                    ? "octet_length(CAST(" + v + " AS BLOB))"
                    : (c.singleByte() ? "length(CAST(" + v + " AS VARCHAR))" : "strlen(CAST(" + v + " AS VARCHAR))");
            if (field.prefix() > 0) {
                whole = bytes
                        ? "least(" + whole + ", " + field.prefix() + ")"
                        : (c.singleByte()
                                ? "length(left(CAST(" + v + " AS VARCHAR), " + field.prefix() + "))"
                                : "strlen(left(CAST(" + v + " AS VARCHAR), " + field.prefix() + "))");
            }
            if (c.type().family() == TypeFamily.CHAR) { // CHAR(n) in a multi-byte character set keeps at least n bytes
                whole = "greatest(" + whole + ", " + Math.max(0, c.type().length()) + ")";
            }
            len = whole;
        }
        return "CAST(CASE WHEN " + v + " IS NULL THEN NULL ELSE " + len + " END AS BIGINT)";
    }

    /** The table's columns as an index record stores them, the {@code tuned} ones read from the tuned copy. */
    private static List<Column> columns(LoadedTable t, Map<Integer, SqlType> tuned) {
        TableDef def = t.def();
        List<Column> cols = new ArrayList<>();
        for (int i = 0; i < def.columns().size(); i++) {
            ColumnDef col = def.columns().get(i);
            SqlType type = tuned.get(i);
            cols.add(
                    type == null
                            ? column(def, col, col.type(), "o." + t.physicalColumn(i), t.storage()[i])
                            : column(def, col, type, "n.v" + i, ColumnStorage.NATIVE));
        }
        return cols;
    }

    /**
     * The table's estimated {@code data_length + index_length}, index by index, as declared and,
     * when {@code tuned} is not empty, with those columns (by position) of those types, their values
     * read from the tuned copy {@code copy} (column {@code v<i>}, joined on {@code wc_row}). Each
     * index is read once, in its key order, for both.
     */
    public static TableBytes table(
            ProfilingDatabase db, LoadedTable t, DdlCatalog catalog, Map<Integer, SqlType> tuned, String copy)
            throws SQLException {
        TableDef def = t.def();
        List<List<Column>> variants = new ArrayList<>(List.of(columns(t, Map.of())));
        if (!tuned.isEmpty() && copy != null) {
            variants.add(columns(t, tuned));
        }
        List<Column> cols = variants.get(0);
        // The clustered index: the primary key, else the first UNIQUE index of NOT NULL columns, else a hidden row id.
        List<Integer> key = positions(def, def.primaryKey());
        IndexDef clusteredBy = null;
        if (key.isEmpty()) {
            for (IndexDef ix : def.indexes()) {
                List<Integer> p = positions(def, ix.columns());
                if (ix.unique()
                        && ix.kind() == IndexDef.Kind.BTREE
                        && !p.isEmpty()
                        && p.stream().noneMatch(j -> cols.get(j).nullable())
                        && ix.prefixes().stream().allMatch(x -> x == 0)) {
                    key = p;
                    clusteredBy = ix;
                    break;
                }
            }
        }
        List<IndexDef> secondary = new ArrayList<>();
        for (IndexDef ix : def.indexes()) {
            // InnoDB keeps no statistics for a SPATIAL index (an R-tree): index_length leaves it out, and so does this.
            if (!ix.isPrimary()
                    && ix != clusteredBy
                    && ix.kind() == IndexDef.Kind.BTREE
                    && !positions(def, ix.columns()).isEmpty()) {
                secondary.add(ix);
            }
        }
        // A foreign key needs an index whose first columns are its own; InnoDB makes one when none is declared.
        for (DdlCatalog.ForeignKey fk : catalog.foreignKeys()) {
            if (!fk.table().equalsIgnoreCase(def.name())) {
                continue;
            }
            List<Integer> fkCols = positions(def, fk.columns());
            List<Integer> pk = key;
            boolean covered = startsWith(pk, fkCols)
                    || secondary.stream().anyMatch(ix -> startsWith(positions(def, ix.columns()), fkCols));
            if (!covered && !fkCols.isEmpty()) {
                secondary.add(new IndexDef(fk.name() == null ? "fk" : fk.name(), fk.columns(), false));
            }
        }
        String clusteredName =
                !def.primaryKey().isEmpty() ? "PRIMARY" : clusteredBy != null ? clusteredBy.name() : "GEN_CLUST_INDEX";
        List<IndexBytes> out = new ArrayList<>();
        if (t.relation() == null || t.rows() == 0) {
            out.add(new IndexBytes(clusteredName, true, PAGE, PAGE)); // each index is its root page
            for (IndexDef ix : secondary) {
                out.add(new IndexBytes(ix.name(), false, PAGE, PAGE));
            }
            return new TableBytes(out);
        }
        String from =
                t.relation() + " AS o" + (variants.size() > 1 ? " JOIN " + copy + " AS n ON o.rowid = n.wc_row" : "");
        // clustered: key, then every other column
        List<Integer> clusteredOrder = new ArrayList<>(key);
        for (int j = 0; j < cols.size(); j++) {
            if (!key.contains(j)) {
                clusteredOrder.add(j);
            }
        }
        List<List<Field>> clustered = new ArrayList<>();
        for (List<Column> v : variants) {
            clustered.add(
                    clusteredOrder.stream().map(j -> new Field(v.get(j), 0)).toList());
        }
        out.add(bytes(clusteredName, true, pages(db, from, clustered, key.size(), true, key.isEmpty())));
        for (IndexDef ix : secondary) {
            List<Integer> p = positions(def, ix.columns());
            List<List<Field>> fields = new ArrayList<>();
            for (List<Column> v : variants) {
                List<Field> f = new ArrayList<>();
                for (int k = 0; k < p.size(); k++) {
                    f.add(new Field(v.get(p.get(k)), ix.prefixes().get(k)));
                }
                for (int j : key) {
                    if (!p.contains(j) || ix.prefixes().get(p.indexOf(j)) > 0) {
                        f.add(new Field(v.get(j), 0));
                    }
                }
                if (key.isEmpty()) {
                    f.add(null); // the hidden row id
                }
                fields.add(f);
            }
            out.add(bytes(
                    ix.name(), false, pages(db, from, fields, fields.get(0).size(), false, false)));
        }
        return new TableBytes(out);
    }

    private static IndexBytes bytes(String name, boolean clustered, long[] pages) {
        return new IndexBytes(name, clustered, pages[0] * PAGE, pages[pages.length - 1] * PAGE);
    }

    private static boolean startsWith(List<Integer> index, List<Integer> prefix) {
        return index.size() >= prefix.size() && index.subList(0, prefix.size()).equals(prefix);
    }

    private static List<Integer> positions(TableDef def, List<String> names) {
        List<Integer> out = new ArrayList<>();
        for (String n : names) {
            int i = def.columnIndex(n);
            if (i < 0) {
                return List.of();
            }
            out.add(i);
        }
        return out;
    }

    /** One variant's pass over an index: its leaf level, leaf segment and node pointers so far. */
    private static final class Build {
        final List<Field> fields;
        final int[] at;
        final long[] len;
        final int nullable;
        final int nodeNullable;
        final Level leaves;
        final Segment leafSegment = new Segment();
        final List<Integer> pointers = new ArrayList<>(); // the node pointer of each leaf page's first record

        Build(List<Field> fields, int[] at, int nodeFields, int reserve) {
            this.fields = fields;
            this.at = at;
            this.len = new long[fields.size()];
            this.nullable = nullable(fields);
            this.nodeNullable = nullable(fields.subList(0, nodeFields));
            this.leaves = new Level(reserve);
        }
    }

    /**
     * The pages one index reserves, per variant: its records in key order (the first variant's,
     * the dump's values), packed as the bulk load packs them.
     *
     * @param variants   per variant, the leaf record's fields (null for the hidden row id)
     * @param nodeFields how many leading fields order the records and make a node pointer (the key)
     * @param clustered  whether this is the clustered index (transaction id and roll pointer, 1/16 free, off-page values)
     * @param rowId      whether the clustered index is keyed by the hidden row id
     */
    private static long[] pages(
            ProfilingDatabase db,
            String from,
            List<List<Field>> variants,
            int nodeFields,
            boolean clustered,
            boolean rowId)
            throws SQLException {
        Map<String, Integer> select = new LinkedHashMap<>();
        int reserve = clustered ? CLUSTERED_RESERVE : 0;
        List<Build> builds = new ArrayList<>();
        for (List<Field> fields : variants) {
            int[] at = new int[fields.size()];
            for (int k = 0; k < fields.size(); k++) {
                Field f = fields.get(k);
                at[k] = f == null ? -1 : select.computeIfAbsent(lengthSql(f), e -> select.size());
            }
            builds.add(new Build(fields, at, nodeFields, reserve));
        }
        List<String> order = new ArrayList<>();
        for (int k = 0; k < nodeFields; k++) {
            Field f = variants.get(0).get(k);
            if (f != null) {
                order.add(f.column().value() + " NULLS FIRST");
            }
        }
        if (order.isEmpty()) {
            order.add("o.rowid");
        }
        if (select.isEmpty()) {
            select.put("CAST(0 AS BIGINT)", 0);
        }
        String sql = "SELECT " + String.join(", ", select.keySet()) + " FROM " + from + " ORDER BY "
                + String.join(", ", order);
        LongRows.forEach(db.connection(), db.allocator(), sql, select.size(), (row, nulls) -> {
            for (Build b : builds) {
                for (int k = 0; k < b.fields.size(); k++) {
                    b.len[k] = b.at[k] < 0 ? ROW_ID : nulls[b.at[k]] ? -1 : row[b.at[k]];
                }
                long blobPages = 0;
                long size;
                if (clustered) {
                    long[] out = clusteredRecord(b.fields, b.len, b.nullable, rowId);
                    size = out[0];
                    blobPages = out[1];
                } else {
                    size = record(b.fields, b.len, b.nullable);
                }
                if (b.leaves.add(size)) {
                    b.leafSegment.allocate(true);
                    b.pointers.add((int) nodePointer(b.fields.subList(0, nodeFields), b.len, b.nodeNullable, rowId));
                }
                for (long p = 0; p < blobPages; p++) {
                    b.leafSegment.allocate(false); // overflow pages come from the leaf segment
                }
            }
        });
        long[] out = new long[variants.size()];
        for (int v = 0; v < builds.size(); v++) {
            out[v] = tree(builds.get(v), reserve);
        }
        return out;
    }

    /** The pages of a tree whose leaves are built: the levels of node pointers above them, to one root. */
    private static long tree(Build b, int reserve) {
        Segment top = new Segment();
        top.allocate(true); // the root page, made with the index
        if (b.leaves.pages == 1) {
            b.leafSegment.freeLast(); // a one-page tree lives in its root
            return b.leafSegment.reserved() + top.reserved();
        }
        List<Integer> level = b.pointers;
        while (level.size() > 1) {
            Level up = new Level(reserve);
            List<Integer> next = new ArrayList<>();
            for (int size : level) {
                if (up.add(size)) {
                    top.allocate(true);
                    next.add(size);
                }
            }
            level = next;
        }
        top.freeLast(); // the top level's one page is copied into the root
        return b.leafSegment.reserved() + top.reserved();
    }

    /** How many of the fields may be NULL: one bit each in the record's NULL bitmap. */
    private static int nullable(List<Field> fields) {
        int n = 0;
        for (Field f : fields) {
            n += f != null && f.column().nullable() ? 1 : 0;
        }
        return n;
    }

    /** A record's bytes: header, NULL bitmap, lengths and values. */
    private static long record(List<Field> fields, long[] len, int nullable) {
        long size = RECORD_HEADER + (nullable + 7) / 8;
        for (int k = 0; k < fields.size(); k++) {
            Field f = fields.get(k);
            if (len[k] < 0) {
                continue;
            }
            if (f == null || f.column().fixed() >= 0) {
                size += len[k];
            } else {
                size += lengthBytes(f.column(), len[k]) + len[k];
            }
        }
        return size;
    }

    private static int lengthBytes(Column c, long len) {
        return len < 128 || (!c.big() && c.maxBytes() <= 255) ? 1 : 2;
    }

    /** A clustered leaf record's bytes and the overflow pages of the values it moves off the page. */
    private static long[] clusteredRecord(List<Field> fields, long[] len, int nullable, boolean rowId) {
        long size = record(fields, len, nullable) + TRX_ID_AND_ROLL_PTR + (rowId ? ROW_ID : 0);
        long blobPages = 0;
        boolean[] external = new boolean[fields.size()];
        while (size >= OFF_PAGE_THRESHOLD) {
            int longest = -1;
            for (int k = 0; k < fields.size(); k++) {
                Field f = fields.get(k);
                if (f == null
                        || external[k]
                        || len[k] <= 2L * EXTERN_REF
                        || f.column().fixed() >= 0
                        || !(f.column().big() || f.column().maxBytes() > 255)) {
                    continue;
                }
                if (longest < 0 || len[k] > len[longest]) {
                    longest = k;
                }
            }
            if (longest < 0) {
                break;
            }
            external[longest] = true;
            size += 2 + EXTERN_REF - (lengthBytes(fields.get(longest).column(), len[longest]) + len[longest]);
            blobPages += (len[longest] + BLOB_PAGE_DATA - 1) / BLOB_PAGE_DATA;
        }
        return new long[] {size, blobPages};
    }

    /** A node pointer's bytes: the key fields of the page's first record and the child's page number. */
    private static long nodePointer(List<Field> keyFields, long[] len, int nullable, boolean rowId) {
        if (rowId) {
            return RECORD_HEADER + ROW_ID + CHILD_PAGE_NO;
        }
        return record(keyFields, Arrays.copyOf(len, keyFields.size()), nullable) + CHILD_PAGE_NO;
    }

    /** One level of a B+tree being filled by the bulk load: records go onto the page until the next would not fit. */
    static final class Level {
        final int reserve;
        long pages;
        long free;
        int records;

        Level(int reserve) {
            this.reserve = reserve;
        }

        /** Adds a record; true when it starts a new page. */
        boolean add(long size) {
            if (pages > 0) {
                long slot = slotBytes(records + 1) - slotBytes(records);
                long required = size + slot;
                if (required <= free && !(records >= 2 && free - required < reserve)) {
                    free -= required;
                    records++;
                    return false;
                }
            }
            pages++;
            records = 1;
            free = PAGE_SPACE - size - (slotBytes(1) - slotBytes(0));
            return true;
        }

        /** page_dir_calc_reserved_space: the directory's bytes for n records, a 2-byte slot per 4. */
        static long slotBytes(long n) {
            return (2 * n + 3) / 4;
        }
    }

    /** A file segment's reserved pages (fsp0fsp): 32 single pages, then 64-page extents, one ahead when less than 1/8 (at most 4 extents) is free. */
    static final class Segment {
        int fragments;
        long extents;
        long usedInExtents;
        boolean lastWasFragment;

        void allocate(boolean upward) {
            long reserved = reserved();
            long used = fragments + usedInExtents;
            if (upward && used >= FRAGMENT_PAGES && reserved - used < Math.min(reserved / 8, FREE_AHEAD_MAX)) {
                extents++;
                usedInExtents++;
                lastWasFragment = false;
            } else if (extents * EXTENT > usedInExtents) {
                usedInExtents++;
                lastWasFragment = false;
            } else if (used < FRAGMENT_PAGES) {
                fragments++;
                lastWasFragment = true;
            } else {
                extents++;
                usedInExtents++;
                lastWasFragment = false;
            }
        }

        /** A page freed: a single page goes back to the tablespace, an extent's page stays the segment's. */
        void freeLast() {
            if (lastWasFragment && fragments > 0) {
                fragments--;
            } else if (usedInExtents > 0) {
                usedInExtents--;
            }
        }

        long reserved() {
            return fragments + extents * EXTENT;
        }
    }
}
