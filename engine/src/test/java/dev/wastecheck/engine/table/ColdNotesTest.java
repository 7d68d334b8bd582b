package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntPredicate;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cold partition's lazily kept indexes (§3.1 upkeep): tuples demoted after the split are noted
 * by key, not inserted at random cold leaves, and every read still finds them: a unique lookup, a
 * key of a non-unique index, the uniqueness check of an insert, a delete, a walk of the table.
 */
class ColdNotesTest {
    private static final int ROWS = 3000;

    private static List<Long> find(Table t, int index, List<String> literals, boolean whole) {
        List<Long> out = new ArrayList<>();
        Record r = new Record(t.schema());
        t.find(index, t.keyOfLiterals(index, literals), whole, (p, tid) -> {
            t.read(p, tid, r);
            out.add(r.getLong(0));
            return true;
        });
        return out;
    }

    private static Database database(Layout layout) {
        TableDesign d = TableDesign.BASELINE.withLayout(layout);
        return new Database(List.of(ImplicitIdTest.spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME);
    }

    /** {@value #ROWS} revisions of 300 pages in the main partition, in id order; their tuple ids. */
    private static List<Long> load(Table t) {
        Record r = new Record(t.schema());
        List<Long> tids = new ArrayList<>();
        for (int i = 0; i < ROWS; i++) {
            r.setLong(0, i).setLong(1, i % 300).setString(2, "edit " + i);
            tids.add(t.insert(t.main(), r));
        }
        return tids;
    }

    /** Moves the rows whose position passes {@code hot} into a new hot partition, as the split does; their hot ids. */
    private static List<Long> split(Table t, List<Long> tids, IntPredicate hot) {
        Table.Part part = t.createHotPartition();
        Record scratch = new Record(t.schema());
        List<Long> out = new ArrayList<>();
        for (int i = 0; i < tids.size(); i++) if (hot.test(i)) out.add(t.move(t.main(), tids.get(i), part, scratch));
        t.buildColdFilters();
        t.deferColdIndexes();
        return out;
    }

    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void demotedTuplesAreNotedAndEveryReadFindsThem(Layout layout) {
        try (Database db = database(layout)) {
            Table t = db.table("revision");
            Record r = new Record(t.schema());
            // the latest revision of each page goes hot, as the split would move it
            List<Long> hotTids = split(t, load(t), i -> i >= ROWS - 300);
            Table.Part hot = t.hot();
            Record scratch = new Record(t.schema());
            long primary = t.main().tree(0).size(), byPage = t.main().tree(1).size();
            long pages = t.main().tree(0).pageCount();

            // every other page's latest revision is demoted (a new one replaced it)
            for (int k = 0; k < 300; k += 2) t.move(hot, hotTids.get(k), t.main(), scratch);
            assertThat(t.main().tree(0).size())
                    .as("no demotion reached the cold trees")
                    .isEqualTo(primary);
            assertThat(t.main().tree(1).size()).isEqualTo(byPage);
            assertThat(t.main().tree(0).pageCount()).isEqualTo(pages);
            assertThat(t.deferredBytes()).isGreaterThan(150L * 2 * 8);

            int demoted = ROWS - 300; // rev_id of page 0's latest revision
            assertThat(find(t, 0, List.of(Integer.toString(demoted)), true)).containsExactly((long) demoted);
            assertThat(t.noted(t.main(), 0, t.keyOfLiterals(0, List.of(Integer.toString(demoted)))))
                    .isNotEqualTo(TupleId.NONE);
            // every revision of page 0, the demoted one from the notes and nine from the tree
            assertThat(find(t, 1, List.of("0"), false)).hasSize(10).contains((long) demoted);
            // the uniqueness check sees a noted key
            r.setLong(0, demoted).setLong(1, 0).setString(2, "again");
            assertThat(t.insert(t.hot(), r)).isEqualTo(TupleId.NONE);
            // a noted tuple that leaves the cold partition leaves the notes
            long[] at = {TupleId.NONE};
            t.find(0, t.keyOfLiterals(0, List.of(Integer.toString(demoted))), true, (p, tid) -> {
                at[0] = tid;
                return false;
            });
            t.move(t.main(), at[0], hot, scratch);
            assertThat(t.noted(t.main(), 0, t.keyOfLiterals(0, List.of(Integer.toString(demoted)))))
                    .isEqualTo(TupleId.NONE);
            assertThat(find(t, 0, List.of(Integer.toString(demoted)), true)).containsExactly((long) demoted);
            // a walk of the cold partition writes the notes to the trees first, in key order
            long[] cold = {0};
            t.forEachTuple(t.main(), tid -> cold[0]++ >= 0);
            assertThat(cold[0]).isEqualTo(ROWS - 300 + 149);
            assertThat(t.deferredBytes()).isZero();
            assertThat(t.main().tree(0).size()).isEqualTo(primary + 149);
            assertThat(find(t, 1, List.of("2"), false)).hasSize(10);
        }
    }

    /**
     * A demotion reads no page of the cold partition's indexes: the tuple was unique when it left
     * the hot partition, so its keys are not looked up again there (each lookup descended to the
     * leaf of an old key, a random leaf). An insert's uniqueness check still reads them.
     */
    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void aDemotionReadsNoColdIndexPage(Layout layout) {
        try (Database db = database(layout)) {
            Table t = db.table("revision");
            // every 10th revision goes hot: keys spread over every leaf of the cold primary index
            List<Long> hotTids = split(t, load(t), i -> i % 10 == 0);
            Table.Part hot = t.hot();
            Record scratch = new Record(t.schema());
            assertThat(t.main().tree(0).pageCount())
                    .as("a cold index of several leaves")
                    .isGreaterThan(3);

            db.pool().trackTouched();
            for (long tid : hotTids)
                assertThat(t.move(hot, tid, t.main(), scratch)).isNotEqualTo(TupleId.NONE);
            var touched = db.touchedBytesByStructure();
            assertThat(touched).as("the demotions wrote the cold heap").containsKey("revision.heap");
            assertThat(touched).as("and read no cold index page").doesNotContainKey("revision.index");
            assertThat(t.main().tree(0).size())
                    .as("the demoted tuples are noted, not in the tree")
                    .isEqualTo(ROWS - hotTids.size());
            // every demoted tuple is found again by its id, from the notes
            for (int i = 0; i < ROWS; i += 10)
                assertThat(find(t, 0, List.of(Integer.toString(i)), true)).containsExactly((long) i);

            // an insert's uniqueness check still reads the cold partition's tree: a cold key is refused
            db.pool().trackTouched();
            Record r = new Record(t.schema());
            r.setLong(0, 1).setLong(1, 1).setString(2, "again");
            assertThat(t.insert(t.hot(), r)).isEqualTo(TupleId.NONE);
            assertThat(db.touchedBytesByStructure()).containsKey("revision.index");

            // a new revision, its id above every id the table has held: its uniqueness check in the cold
            // partition is answered by the tree's greatest key, in memory, and reads no cold index page
            db.pool().trackTouched();
            r.setLong(0, ROWS).setLong(1, 7).setString(2, "new");
            assertThat(t.insert(t.hot(), r)).isNotEqualTo(TupleId.NONE);
            assertThat(db.touchedBytesByStructure())
                    .containsKey("revision.hot_index")
                    .doesNotContainKey("revision.index");
            assertThat(find(t, 0, List.of(Integer.toString(ROWS)), true)).containsExactly((long) ROWS);
            // and it is still refused a second time
            r.setLong(0, ROWS).setLong(1, 8).setString(2, "again");
            assertThat(t.insert(t.hot(), r)).isEqualTo(TupleId.NONE);
        }
    }

    /**
     * The packed notes ({@link ColdNotes}) answer as the map of lists they replaced, under random adds, removes,
     * lookups and prefix reads with many equal keys and keys that are prefixes of others, across many merges of
     * the tail; and they count their key bytes plus 12 a note, not the map's 56.
     */
    @org.junit.jupiter.api.Test
    void packedNotesAnswerAsAMapOfListsAndCountTheirBytes() {
        java.util.Random rnd = new java.util.Random(27);
        ColdNotes notes = new ColdNotes();
        java.util.TreeMap<byte[], List<Long>> model = new java.util.TreeMap<>(java.util.Arrays::compareUnsigned);
        java.util.Map<Long, byte[]> byTid = new java.util.HashMap<>();
        long nextTid = 0, keyBytes = 0;
        for (int step = 0; step < 20_000; step++) {
            byte[] key = new byte[1 + rnd.nextInt(3)];
            for (int i = 0; i < key.length; i++)
                key[i] = (byte) (rnd.nextInt(4) * 70); // 0, 70, 140, 210: unsigned order
            int op = rnd.nextInt(10);
            if (op < 5) {
                long tid = nextTid++;
                notes.add(key, tid);
                model.computeIfAbsent(key, k -> new ArrayList<>()).add(tid);
                byTid.put(tid, key);
                keyBytes += key.length;
            } else if (op < 7 && !byTid.isEmpty()) {
                long tid = nextTid == 0 ? 0 : rnd.nextLong(nextTid);
                byte[] k = byTid.get(tid);
                boolean right = rnd.nextInt(4) > 0;
                byte[] asked = k != null && right ? k.clone() : key;
                boolean expected = k != null && java.util.Arrays.equals(k, asked);
                assertThat(notes.remove(asked, tid)).isEqualTo(expected);
                if (expected) {
                    byTid.remove(tid);
                    List<Long> l = model.get(k);
                    l.remove(tid);
                    if (l.isEmpty()) model.remove(k);
                    keyBytes -= k.length;
                }
            } else if (op < 9) {
                List<Long> l = model.get(key);
                assertThat(notes.first(key)).isEqualTo(l == null ? TupleId.NONE : l.get(0));
            } else {
                byte[] prefix = java.util.Arrays.copyOf(key, 1);
                List<Long> expected = new ArrayList<>();
                for (var e : model.tailMap(prefix, true).entrySet()) {
                    if (e.getKey()[0] != prefix[0]) break;
                    expected.addAll(e.getValue());
                }
                assertThat(notes.withPrefix(prefix)).containsExactlyElementsOf(expected);
            }
            assertThat(notes.size()).isEqualTo(byTid.size());
            if (byTid.isEmpty()) assertThat(notes.bytes()).isZero();
            else
                assertThat(notes.bytes())
                        .as("never more than the run of int offsets and long tuple ids it replaces")
                        .isBetween(keyBytes, keyBytes + 12L * byTid.size() + ColdNotes.HEADER);
        }
        assertThat(byTid.size()).as("enough notes to merge the tail many times").isGreaterThan(20 * ColdNotes.TAIL);
        List<Long> walked = new ArrayList<>();
        notes.forEach((k, tid) -> {
            assertThat(k).isEqualTo(byTid.get(tid));
            walked.add(tid);
        });
        List<Long> expected = new ArrayList<>();
        model.values().forEach(expected::addAll);
        assertThat(walked).containsExactlyElementsOf(expected);
        // merged by the walk: the run as stored, keys of 1-3 bytes with offsets, tuple ids by their distance
        long span = byTid.keySet().stream().mapToLong(Long::longValue).max().orElseThrow()
                - byTid.keySet().stream().mapToLong(Long::longValue).min().orElseThrow();
        assertThat(notes.bytes())
                .isEqualTo(ColdNotes.HEADER
                        + keyBytes
                        + (long) (ColdNotes.bytesFor(keyBytes) + ColdNotes.bytesFor(span)) * byTid.size());
    }

    /**
     * Notes of one key width on a few cold pages, as a demotion's are: the run stores no offsets and each tuple id
     * as its distance from the least in 3 bytes (pages 9,800-9,900 apart by at most 2^24 >> 16 = 256 pages), so a
     * note costs its key plus 3 bytes where the run of int offsets and long ids cost its key plus 12; every note
     * is read back exactly, by key and by prefix, after removals that re-encode the run.
     */
    @org.junit.jupiter.api.Test
    void aRunOfOneKeyWidthStoresNoOffsetsAndTupleIdsInTheirFewestBytes() {
        ColdNotes notes = new ColdNotes();
        java.util.Random rnd = new java.util.Random(3571);
        java.util.TreeMap<Long, Long> model = new java.util.TreeMap<>();
        int n = 455;
        for (int i = 0; i < n; i++) {
            long id = 1_000_000L + rnd.nextInt(1 << 20);
            if (model.containsKey(id)) {
                i--;
                continue;
            }
            long tid = TupleId.of(9_800 + i / 117, i % 117);
            notes.add(key4(id), tid);
            model.put(id, tid);
        }
        notes.forEach((k, tid) -> {}); // merges the tail into the run
        assertThat(notes.bytes()).isEqualTo(ColdNotes.HEADER + (4L + 3) * n);
        assertThat(notes.bytes()).isLessThan((4L + 12) * n);
        for (var e : model.entrySet()) assertThat(notes.first(key4(e.getKey()))).isEqualTo(e.getValue());
        assertThat(notes.first(key4(999_999))).isEqualTo(TupleId.NONE);
        // a removal re-encodes the run; the rest still answer, by key and by a 3-byte prefix
        long gone = model.firstKey();
        assertThat(notes.remove(key4(gone), model.remove(gone))).isTrue();
        assertThat(notes.bytes()).isEqualTo(ColdNotes.HEADER + (4L + 3) * (n - 1));
        for (var e : model.entrySet()) assertThat(notes.first(key4(e.getKey()))).isEqualTo(e.getValue());
        long some = model.lastKey();
        byte[] prefix = java.util.Arrays.copyOf(key4(some), 3);
        List<Long> expected = new ArrayList<>();
        for (var e : model.entrySet())
            if (java.util.Arrays.equals(java.util.Arrays.copyOf(key4(e.getKey()), 3), prefix))
                expected.add(e.getValue());
        assertThat(notes.withPrefix(prefix)).containsExactlyElementsOf(expected);
        // one note whose tuple id is far from the others widens every id, and is still read back
        long far = TupleId.of(1L << 30, 5);
        notes.add(key4(1), far);
        notes.forEach((k, tid) -> {});
        assertThat(notes.first(key4(1))).isEqualTo(far);
        assertThat(notes.bytes())
                .isEqualTo(ColdNotes.HEADER
                        + (4L + ColdNotes.bytesFor(far - java.util.Collections.min(model.values()))) * n);
        for (var e : model.entrySet()) assertThat(notes.first(key4(e.getKey()))).isEqualTo(e.getValue());
    }

    private static byte[] key4(long v) {
        return new byte[] {(byte) (v >>> 24), (byte) (v >>> 16), (byte) (v >>> 8), (byte) v};
    }
}
