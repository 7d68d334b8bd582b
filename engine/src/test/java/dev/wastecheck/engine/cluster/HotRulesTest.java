package dev.wastecheck.engine.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.exec.ExecutionResult;
import dev.wastecheck.engine.exec.Executor;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.table.ColumnSpec;
import dev.wastecheck.engine.table.Database;
import dev.wastecheck.engine.table.HotColdUpkeep;
import dev.wastecheck.engine.table.IndexSpec;
import dev.wastecheck.engine.table.Table;
import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.engine.table.TableSpec;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hot tuples by reference (hot=refs): a rule is kept only when the training's second half confirms
 * what its first half learned, it reaches tuples the training never read, and no held-out event
 * decides anything. A small wiki: 600 pages, 8 revisions each, the latest anywhere among them.
 */
class HotRulesTest {
    private static final int PAGES = 600, REVS = 8;

    private static List<TableSpec> specs() {
        return List.of(
                // a table with no index at all (a heap-only log): nothing refers to it, and learning must skip it
                new TableSpec("log", List.of(new ColumnSpec("log_page", FieldType.INT64, false, false)), List.of()),
                new TableSpec(
                        "page",
                        List.of(
                                new ColumnSpec("page_id", FieldType.INT64, false, false),
                                new ColumnSpec("page_latest", FieldType.INT64, false, false),
                                new ColumnSpec("page_title", FieldType.VARLEN, false, false)),
                        List.of(new IndexSpec("PRIMARY", List.of("page_id"), true))),
                new TableSpec(
                        "revision",
                        List.of(
                                new ColumnSpec("rev_id", FieldType.INT64, false, false),
                                new ColumnSpec("rev_page", FieldType.INT64, false, false),
                                // long enough to leave the page in the block-compressed variant (compress_block=)
                                new ColumnSpec("rev_note", FieldType.VARLEN, false, true)),
                        List.of(new IndexSpec("PRIMARY", List.of("rev_id"), true))));
    }

    /** Revision ids start at 100,000 (no chance overlap with page ids); page p's latest is one of its eight, at random. */
    private static long[] latest() {
        Random rnd = new Random(3);
        long[] out = new long[PAGES + 1];
        for (int p = 1; p <= PAGES; p++) out[p] = revId(p, rnd.nextInt(REVS));
        return out;
    }

    private static long revId(int page, int k) {
        return 100_000L + (long) (page - 1) * REVS + k;
    }

    private static void load(Database db, long[] latest) {
        load(db, latest, 13, false);
    }

    /** A revision's note: its id, {@code repeat} times (13: about 200 bytes, inline; 60: out of line). */
    private static String note(long revId, int repeat) {
        return note(revId, repeat, false);
    }

    /**
     * {@link #note(long, int)}, and when {@code noisy} 2,000 hex digits drawn from the id: a value that a zstd
     * frame shortens only about 2x, so that compressed it still goes out of line.
     */
    private static String note(long revId, int repeat, boolean noisy) {
        StringBuilder b = new StringBuilder(("note of " + revId + ";").repeat(repeat));
        Random rnd = new Random(revId);
        if (noisy) for (int i = 0; i < 2000; i++) b.append(Character.forDigit(rnd.nextInt(16), 16));
        return b.toString();
    }

    private static void load(Database db, long[] latest, int noteRepeat, boolean noisy) {
        Table page = db.table("page"), rev = db.table("revision");
        Record r = new Record(page.schema());
        for (int p = 1; p <= PAGES; p++) {
            r.setLong(0, p).setLong(1, latest[p]).setString(2, "Title_" + p);
            page.insert(page.main(), r);
        }
        Table log = db.table("log");
        Record l = new Record(log.schema());
        for (int p = 1; p <= 50; p++) log.insert(log.main(), l.setLong(0, p));
        Record v = new Record(rev.schema());
        for (int p = 1; p <= PAGES; p++) {
            for (int k = 0; k < REVS; k++) {
                v.setLong(0, revId(p, k)).setLong(1, p).setString(2, note(revId(p, k), noteRepeat, noisy));
                rev.insert(rev.main(), v);
            }
        }
    }

    private static AccessEvent lookup(String table, String column, long id) {
        return lookup(table, "PRIMARY", column, id, Set.of());
    }

    /** A point lookup of {@code column = id} through {@code index}, reading {@code read} besides. */
    private static AccessEvent lookup(String table, String index, String column, long id, Set<String> read) {
        return new AccessEvent(
                table,
                Operation.POINT_LOOKUP,
                index,
                Map.of(column, Long.toString(id)),
                List.of(column),
                read,
                Set.of(),
                Set.of(),
                Set.of(),
                Map.of(),
                1,
                -1,
                0,
                Map.of());
    }

    /** A page view: the page, then its latest revision. */
    private static void view(List<AccessEvent> out, int page, long[] latest) {
        out.add(lookup("page", "page_id", page));
        out.add(lookup("revision", "rev_id", latest[page]));
    }

    private record Outcome(ExecutionResult run, List<String> rules, boolean[] hot) {}

    /** Replays {@code events} with the first {@code split} of them as the training, then {@code learner}. */
    private static ExecutionResult train(
            Executor replayer, String label, List<AccessEvent> events, int split, Executor.Learner learner) {
        return replayer.run(label, "", events, split, 0, Map.of(), learner, n -> {});
    }

    /**
     * Runs {@code events} with the training before {@code split}; returns the run, the rules, and for each probe
     * revision id whether it ended in the hot partition.
     */
    private static Outcome run(List<AccessEvent> events, int split, long[] latest, String hot, long... probes) {
        TableDesign d = TableDesign.BASELINE.with("cluster", "partition").with("hot", hot);
        Function<String, TableDesign> designs = n -> n.equals("revision") ? d : TableDesign.BASELINE;
        try (Database db = new Database(specs(), designs, 8192, 8L << 20, DeviceModel.NVME)) {
            load(db, latest);
            Executor replayer = new Executor(db);
            ExecutionResult r = train(
                    replayer, hot, events, split, (heat, read) -> Clusterer.apply(db, heat, read, replayer.readLate()));
            Table rev = db.table("revision");
            boolean[] out = new boolean[probes.length];
            for (int i = 0; i < probes.length; i++)
                out[i] = rev.hot().tree(0).lookup(rev.keyOfLiterals(0, List.of(Long.toString(probes[i]))))
                        != TupleId.NONE;
            return new Outcome(r, r.hotRules(), out);
        }
    }

    @Test
    void theLatestRevisionOfAPageNobodyReadYetIsHotAndAnOldOneReadOnlyLaterIsNot() {
        long[] latest = latest();
        List<AccessEvent> events = new ArrayList<>();
        // Training: views of pages 1..300 in a random order, each followed by another view of a page seen already, so
        // the
        // second half of the training keeps meeting pages its first half never read: the evidence a rule is scored on.
        List<Integer> pages = new ArrayList<>();
        for (int p = 1; p <= 300; p++) pages.add(p);
        Collections.shuffle(pages, new Random(5));
        Random rnd = new Random(7);
        for (int i = 0; i < 300; i++) {
            view(events, pages.get(i), latest);
            view(events, pages.get(rnd.nextInt(i + 1)), latest);
        }
        int split = events.size();
        // Held out: views of pages the training never read, and 200 reads of one old revision, planted only here.
        for (int p = 301; p <= PAGES; p++) view(events, p, latest);
        long planted = latest[450] == revId(450, 0) ? revId(450, 1) : revId(450, 0);
        for (int i = 0; i < 200; i++) events.add(lookup("revision", "rev_id", planted));

        Outcome refs = run(events, split, latest, "refs", latest[500], planted, latest[1]);
        assertThat(refs.rules())
                .singleElement()
                .asString()
                .startsWith("revision: hot when referenced by page.page_latest -> revision.rev_id: 600 of 4,800 tuples")
                .contains("300 of them not read in training");
        assertThat(refs.hot()[0])
                .as("page 500's latest revision, never read in training")
                .isTrue();
        assertThat(refs.hot()[1])
                .as("the planted old revision, read only in the held-out half")
                .isFalse();
        assertThat(refs.hot()[2]).as("a revision the training read").isTrue();

        Outcome read = run(events, split, latest, "read", latest[500], planted, latest[1]);
        assertThat(read.rules()).isEmpty();
        assertThat(read.hot()).containsExactly(false, false, true);
        // The same results either way, and the rule keeps the held-out views off the cold partition.
        assertThat(refs.run().digests()).isEqualTo(read.run().digests());
        assertThat(refs.run().workingSetByStructure().getOrDefault("revision.heap", 0L))
                .isLessThan(read.run().workingSetByStructure().get("revision.heap"));
    }

    @Test
    void aRuleTheTrainingDoesNotConfirmIsNotKept() {
        long[] latest = latest();
        // Training reads old revisions at random, never through page_latest: "referenced by page.page_latest" foresees
        // few of the tuples the second half reads first, so no rule is kept and only what was read goes hot.
        Random rnd = new Random(9);
        List<AccessEvent> events = new ArrayList<>();
        for (int i = 0; i < 1200; i++) {
            int p = 1 + rnd.nextInt(PAGES);
            events.add(lookup("revision", "rev_id", revId(p, rnd.nextInt(REVS))));
        }
        int split = events.size();
        for (int p = 1; p <= 100; p++) view(events, p, latest);
        Outcome refs = run(events, split, latest, "refs", latest[600]);
        assertThat(refs.rules())
                .singleElement()
                .asString()
                .startsWith("revision: no rule: of the ")
                .contains("no reference foresaw 50%");
        assertThat(refs.run().moved().get("revision"))
                .isEqualTo(run(events, split, latest, "read").run().moved().get("revision"));
    }

    private static AccessEvent write(
            Operation op, String table, String keyColumn, Long key, Map<String, String> values) {
        return new AccessEvent(
                table,
                op,
                key == null ? null : "PRIMARY",
                key == null ? Map.of() : Map.of(keyColumn, Long.toString(key)),
                key == null ? List.of() : List.of(keyColumn),
                Set.of(),
                Set.of(),
                values.keySet(),
                Set.of(),
                Map.of(),
                1,
                -1,
                0,
                values);
    }

    /**
     * §3.1: "newly inserted revision tuples can replace the previously hot tuple for the same page,
     * which is then moved to the cold partition". Held out, an edit inserts a revision and points
     * {@code page_latest} at it: the rule learned once keeps itself true, so the predecessor goes
     * cold, and lookups by its id (and by its old tuple address, through the forwarding table)
     * still find it. The same with the notes long and block-compressed ({@code compress_block=4k}): the
     * predecessor's note leaves the hot partition's block and is written to the cold partition's, and
     * reads back whole. With the notes out of line ({@code out_of_line}: plain, or compressed frames), the
     * predecessor's note stays where it is, in the hot partition's overflow pages: the demotion writes no
     * cold overflow page and decompresses nothing, and the lookup by the old id reads the note through the
     * reference the cold row keeps.
     */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "",
                "compress=large,compress_block=4k",
                "out_of_line",
                "compress=large,out_of_line",
                "compress=large,compress_cache=64k,out_of_line"
            })
    void aNewRevisionDemotesItsPredecessorAndTheOldIdStillFindsIt(String variant) {
        boolean outOfLine = variant.contains("out_of_line");
        String compress = variant.replace("out_of_line", "").replaceAll(",$", "");
        int noteRepeat = variant.isEmpty() ? 13 : 60;
        long[] latest = latest();
        List<AccessEvent> events = new ArrayList<>();
        List<Integer> pages = new ArrayList<>();
        for (int p = 1; p <= 300; p++) pages.add(p);
        Collections.shuffle(pages, new Random(5));
        Random rnd = new Random(7);
        for (int i = 0; i < 300; i++) {
            view(events, pages.get(i), latest);
            view(events, pages.get(rnd.nextInt(i + 1)), latest);
        }
        int split = events.size();
        long predecessor = latest[pages.get(0)], fresh = 999_001;
        int edited = pages.get(0);
        events.add(write(
                Operation.INSERT,
                "revision",
                null,
                null,
                Map.of("rev_id", Long.toString(fresh), "rev_page", Integer.toString(edited), "rev_note", "new")));
        events.add(
                write(Operation.UPDATE, "page", "page_id", (long) edited, Map.of("page_latest", Long.toString(fresh))));
        // a read of the old id after the move
        events.add(lookup("revision", "rev_id", predecessor));
        TableDesign plain = TableDesign.BASELINE.with("cluster", "partition").with("hot", "refs");
        TableDesign framed = !compress.contains("compress_block")
                ? compress.isEmpty() ? plain : plain.with("compress", "large")
                : plain.with("compress", "large")
                        .with("compress_block", compress.substring(compress.lastIndexOf('=') + 1));
        TableDesign d = compress.contains("compress_cache") ? framed.with("compress_cache", "64k") : framed;
        Function<String, TableDesign> designs = n -> n.equals("revision") ? d : TableDesign.BASELINE;
        try (Database db = new Database(specs(), designs, 8192, 8L << 20, DeviceModel.NVME)) {
            load(db, latest, noteRepeat, outOfLine);
            Executor replayer = new Executor(db);
            long[] hotTidBefore = {TupleId.NONE};
            long[] atSplit = new long[3]; // the cold overflow's pages and bytes, and the bytes decompressed
            ExecutionResult r = train(replayer, "refs", events, split, (heat, read) -> {
                Map<String, Long> moved = Clusterer.apply(db, heat, read, replayer.readLate());
                Table rev = db.table("revision");
                hotTidBefore[0] = rev.hot().tree(0).lookup(key(rev, predecessor));
                atSplit[0] = rev.main().overflow().pageCount();
                atSplit[1] = rev.main().overflow().valueBytes();
                atSplit[2] = rev.decompressedBytes();
                return moved;
            });
            Table rev = db.table("revision");
            assertThat(hotTidBefore[0])
                    .as("the predecessor was hot after the split")
                    .isNotEqualTo(TupleId.NONE);
            assertThat(rev.hot().tree(0).lookup(key(rev, fresh)))
                    .as("the new revision")
                    .isNotEqualTo(TupleId.NONE);
            assertThat(rev.hot().tree(0).lookup(key(rev, predecessor)))
                    .as("the predecessor left the hot partition")
                    .isEqualTo(TupleId.NONE);
            long coldTid = rev.noted(rev.main(), 0, key(rev, predecessor));
            assertThat(coldTid)
                    .as("the predecessor is in the cold partition, noted until its tree is written")
                    .isNotEqualTo(TupleId.NONE);
            assertThat(rev.main().tree(0).lookup(key(rev, predecessor)))
                    .as("the demotion wrote no cold leaf")
                    .isEqualTo(TupleId.NONE);
            assertThat(rev.upkeep().demotedByReference()).isEqualTo(1);
            assertThat(rev.upkeep().forwarding().resolve(true, hotTidBefore[0]))
                    .as("the old address forwards to the new one")
                    .isEqualTo(new HotColdUpkeep.Forwarding.Location(false, coldTid));
            // a lookup by the old id, as the executor makes it, finds the predecessor in the cold partition
            List<String> found = new ArrayList<>();
            Record out = new Record(rev.schema());
            rev.find(0, key(rev, predecessor), true, (p, tid) -> {
                rev.read(p, tid, out);
                found.add((p == rev.main() ? "cold " : "hot ") + out.getLong(0) + " of page " + out.getLong(1) + ": "
                        + new String(out.bytes(2), 0, out.length(2), StandardCharsets.UTF_8));
                return true;
            });
            assertThat(found)
                    .containsExactly("cold " + predecessor + " of page " + edited + ": "
                            + note(predecessor, noteRepeat, outOfLine));
            if (outOfLine) {
                assertThat(rev.hot().overflow().pageCount())
                        .as("the hot partition's notes are out of line")
                        .isGreaterThan(10);
                assertThat(new long[] {
                            rev.main().overflow().pageCount(),
                            rev.main().overflow().valueBytes()
                        })
                        .as("the demotion wrote no cold overflow page: the note stayed in the hot partition's")
                        .containsExactly(atSplit[0], atSplit[1]);
            }
            if (variant.equals("compress=large,out_of_line")) {
                assertThat(rev.decompressedBytes() - atSplit[2])
                        .as("the demotion decompressed nothing: since the split, one read of the note decompressed it")
                        .isEqualTo(note(predecessor, noteRepeat, true).length());
            }
            if (variant.contains("compress_cache")) {
                long decompressed = rev.decompressedBytes();
                assertThat(decompressed - atSplit[2])
                        .as("since the split one read of the note decompressed it")
                        .isEqualTo(note(predecessor, noteRepeat, true).length());
                // read again: the value kept decompressed answers, the same bytes, nothing decompressed
                rev.find(0, key(rev, predecessor), true, (p, tid) -> {
                    rev.read(p, tid, out);
                    assertThat(new String(out.bytes(2), 0, out.length(2), StandardCharsets.UTF_8))
                            .isEqualTo(note(predecessor, noteRepeat, outOfLine));
                    return true;
                });
                assertThat(rev.decompressedBytes()).isEqualTo(decompressed);
                assertThat(rev.decompressedCacheHits()).isEqualTo(1);
            }
            if (variant.startsWith("compress=large,compress_block")) {
                assertThat(rev.hot().blocks(2).blocks())
                        .as("the hot partition's notes sealed in blocks")
                        .isGreaterThan(10);
                assertThat(rev.main().blocks(2))
                        .as("the demoted note went to a cold block")
                        .isNotNull();
                assertThat(rev.decompressedBytes()).isGreaterThan(0);
            }
            // and the held-out lookup by the old id returned what the training's first view of it did
            assertThat(r.digests()[r.digests().length - 1]).isEqualTo(r.digests()[1]);
        }
    }

    /**
     * The wiki of {@link #specs} with MediaWiki's {@code slots} and {@code content}: one slot per revision (its own
     * key, found by revision) naming one content row (its own key), so that {@code slots} follows the hot revisions
     * ("referencing hot") and {@code content} the hot slots ("referenced by hot").
     */
    private static List<TableSpec> specsWithSlots() {
        List<TableSpec> out = new ArrayList<>(specs());
        out.add(new TableSpec(
                "slots",
                List.of(
                        new ColumnSpec("slot_id", FieldType.INT64, false, false),
                        new ColumnSpec("slot_revision_id", FieldType.INT64, false, false),
                        new ColumnSpec("slot_content_id", FieldType.INT64, false, false)),
                List.of(
                        new IndexSpec("PRIMARY", List.of("slot_id"), true),
                        new IndexSpec("slot_rev", List.of("slot_revision_id"), false))));
        out.add(new TableSpec(
                "content",
                List.of(
                        new ColumnSpec("content_id", FieldType.INT64, false, false),
                        new ColumnSpec("content_size", FieldType.INT64, false, false)),
                List.of(new IndexSpec("PRIMARY", List.of("content_id"), true))));
        return out;
    }

    private static long slotId(long revId) {
        return 1_000_000L + revId;
    }

    private static long contentId(long revId) {
        return 2_000_000L + revId;
    }

    private static AccessEvent slotOf(long revId) {
        return lookup("slots", "slot_rev", "slot_revision_id", revId, Set.of("slot_id"));
    }

    /** A page view that also reads the slot of the page's latest revision and its content. */
    private static void viewWithSlot(List<AccessEvent> out, int page, long[] latest) {
        view(out, page, latest);
        out.add(slotOf(latest[page]));
        out.add(lookup("content", "content_id", contentId(latest[page])));
    }

    /** Where a key of index {@code ix} is: "hot", "cold" or "nowhere" (notes included). */
    private static String where(Table t, int ix, long id) {
        List<String> found = new ArrayList<>();
        t.find(ix, t.keyOfLiterals(ix, List.of(Long.toString(id))), true, (p, tid) -> {
            found.add(p == t.main() ? "cold" : "hot");
            return true;
        });
        return found.isEmpty() ? "nowhere" : String.join(",", found);
    }

    /**
     * §3.1 at the split: "newly inserted revision tuples can replace the previously hot tuple for the
     * same page, which is then moved to the cold partition". An edit during the training supersedes a
     * revision the training had read: the split learns it cold (with its slot, which follows it, and
     * the content only that slot names), the revision that replaced it hot, and lookups by the old id,
     * held out, still find it. No held-out event is needed for any of it, and the upkeep moves nothing.
     */
    @Test
    void aRevisionSupersededBeforeTheSplitIsLearnedColdAndItsSuccessorHot() {
        long[] latest = latest();
        List<Integer> pages = new ArrayList<>();
        for (int p = 1; p <= 300; p++) pages.add(p);
        Collections.shuffle(pages, new Random(5));
        int edited = pages.get(0);
        long predecessor = latest[edited], fresh = 999_001;
        List<AccessEvent> events = new ArrayList<>();
        Random rnd = new Random(7);
        for (int i = 0; i < 300; i++) {
            viewWithSlot(events, pages.get(i), latest);
            viewWithSlot(events, pages.get(rnd.nextInt(i + 1)), latest);
            if (i == 150) {
                // the edit, in the training's second half: a new revision, its slot and content, and page_latest
                // points to it
                events.add(write(
                        Operation.INSERT,
                        "revision",
                        null,
                        null,
                        Map.of(
                                "rev_id",
                                Long.toString(fresh),
                                "rev_page",
                                Integer.toString(edited),
                                "rev_note",
                                "new")));
                events.add(write(
                        Operation.INSERT,
                        "slots",
                        null,
                        null,
                        Map.of(
                                "slot_id",
                                Long.toString(slotId(fresh)),
                                "slot_revision_id",
                                Long.toString(fresh),
                                "slot_content_id",
                                Long.toString(contentId(fresh)))));
                events.add(write(
                        Operation.INSERT,
                        "content",
                        null,
                        null,
                        Map.of("content_id", Long.toString(contentId(fresh)), "content_size", "3")));
                events.add(write(
                        Operation.UPDATE,
                        "page",
                        "page_id",
                        (long) edited,
                        Map.of("page_latest", Long.toString(fresh))));
                latest[edited] = fresh;
                viewWithSlot(events, edited, latest);
            }
        }
        int split = events.size();
        for (int p = 301; p <= PAGES; p++) viewWithSlot(events, p, latest);
        // held out, by the old id
        events.add(lookup("revision", "rev_id", predecessor));
        events.add(slotOf(predecessor));
        events.add(lookup("content", "content_id", contentId(predecessor)));
        TableDesign d = TableDesign.BASELINE.with("cluster", "partition").with("hot", "refs");
        Function<String, TableDesign> designs =
                n -> List.of("revision", "slots", "content").contains(n) ? d : TableDesign.BASELINE;
        try (Database db = new Database(specsWithSlots(), designs, 8192, 8L << 20, DeviceModel.NVME)) {
            load(db, latest());
            Table slots = db.table("slots"), content = db.table("content");
            Record sr = new Record(slots.schema()), cr = new Record(content.schema());
            for (int p = 1; p <= PAGES; p++) {
                for (int k = 0; k < REVS; k++) {
                    long id = revId(p, k);
                    slots.insert(
                            slots.main(),
                            sr.setLong(0, slotId(id)).setLong(1, id).setLong(2, contentId(id)));
                    content.insert(content.main(), cr.setLong(0, contentId(id)).setLong(1, k));
                }
            }
            Executor replayer = new Executor(db);
            List<String> atSplit = new ArrayList<>();
            ExecutionResult r = train(replayer, "refs", events, split, (heat, read) -> {
                Table rev = db.table("revision");
                assertThat(heat.get(rev))
                        .as("the training read the predecessor")
                        .containsKey(tid(rev, predecessor));
                Map<String, Long> moved = Clusterer.apply(db, heat, read, replayer.readLate());
                atSplit.add(where(rev, 0, predecessor));
                atSplit.add(where(rev, 0, fresh));
                atSplit.add(where(slots, 0, slotId(predecessor)));
                atSplit.add(where(slots, 0, slotId(fresh)));
                atSplit.add(where(content, 0, contentId(predecessor)));
                atSplit.add(where(content, 0, contentId(fresh)));
                atSplit.add(where(rev, 0, latest[pages.get(1)]));
                return moved;
            });
            assertThat(atSplit)
                    .as("at the split: the superseded revision, its successor, their slots and contents, and a revision"
                            + " still latest")
                    .containsExactly("cold", "hot", "cold", "hot", "cold", "hot", "hot");
            String left = "; 1 read by the training and superseded before the split, left cold";
            assertThat(r.hotRules())
                    .anySatisfy(rule -> assertThat(rule)
                            .startsWith("revision: hot when referenced by page.page_latest -> revision.rev_id")
                            .endsWith(left))
                    .anySatisfy(rule -> assertThat(rule)
                            .startsWith("slots: hot when referencing hot slots.slot_revision_id -> revision.rev_id")
                            .endsWith(left))
                    .anySatisfy(rule -> assertThat(rule)
                            .startsWith(
                                    "content: hot when referenced by hot slots.slot_content_id -> content.content_id")
                            .endsWith(left));
            assertThat(db.table("revision").upkeep().demotedByReference())
                    .as("the split left it cold: no move was needed")
                    .isZero();
            // the held-out lookups by the old ids found what the training's first view of the page read
            long[] dg = r.digests();
            assertThat(new long[] {dg[dg.length - 3], dg[dg.length - 2], dg[dg.length - 1]})
                    .containsExactly(dg[1], dg[2], dg[3]);
        }
    }

    /** The tuple id of the main partition a revision id has (before the split). */
    private static long tid(Table t, long id) {
        return t.main().tree(0).lookup(key(t, id));
    }

    private static byte[] key(Table t, long id) {
        return t.keyOfLiterals(0, List.of(Long.toString(id)));
    }
}
