package dev.wastecheck.engine.table;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.block.ArrowStorage;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Compressed fields ("No Bits Left Behind" §4.1), differential: the same rows, inserted, updated
 * and read back through the same table in every layout, with {@code compress=large} and without,
 * give the same values; on pages the compressed table stores fewer bytes.
 */
class CompressedFieldTest {
    private static final int ROWS = 600;

    private static TableSpec spec() {
        return new TableSpec(
                "text",
                List.of(
                        new ColumnSpec("old_id", FieldType.INT64, false, false),
                        new ColumnSpec("old_text", FieldType.VARLEN, true, true),
                        new ColumnSpec("old_flags", FieldType.VARLEN, false, false)),
                List.of(new IndexSpec("PRIMARY", List.of("old_id"), true)));
    }

    /** Wiki-like text (compressible), random bytes (not), short values (below the threshold), empty and NULL. */
    private static String value(Random rnd, int i) {
        switch (i % 5) {
            case 0:
                StringBuilder b = new StringBuilder();
                int words = rnd.nextInt(3000);
                for (int w = 0; w < words; w++)
                    b.append(WORDS[rnd.nextInt(WORDS.length)]).append(' ');
                return b.toString();
            case 1:
                char[] c = new char[rnd.nextInt(9000)];
                for (int k = 0; k < c.length; k++) c[k] = (char) (0x21 + rnd.nextInt(0x5e));
                return new String(c);
            case 2:
                return "short " + i;
            case 3:
                return "";
            default:
                return null;
        }
    }

    private static String words(Random rnd, int n) {
        StringBuilder b = new StringBuilder();
        for (int w = 0; w < n; w++) b.append(WORDS[rnd.nextInt(WORDS.length)]).append(' ');
        return b.toString();
    }

    private static final String[] WORDS = {
        "the", "wiki", "page", "revision", "[[link]]", "{{template}}", "history", "of", "and", "a", "==Section=="
    };

    /** The values read back for every id after loading and after updating every third row. */
    private static List<String> run(Layout layout, String compress, long[] saved) {
        return run(layout, compress, saved, false);
    }

    /**
     * With {@code hot}: after the load the hot partition is created (which trains the field's zstd
     * dictionary) and every row moves into it, so every value is stored again with the dictionary;
     * {@code saved[2]} is then the value bytes of the partition that holds the rows.
     */
    private static List<String> run(Layout layout, String compress, long[] saved, boolean hot) {
        return run(layout, compress, "0", saved, hot);
    }

    /** As above, long values packed into blocks of {@code block} raw bytes ({@code compress_block=}); {@code saved[3]}: blocks sealed. */
    private static List<String> run(Layout layout, String compress, String block, long[] saved, boolean hot) {
        TableDesign d = TableDesign.BASELINE
                .with("layout", layout.name())
                .with("compress", compress)
                .with("compress_block", block);
        try (ArrowStorage arrow = layout == Layout.ARROW ? new ArrowStorage(false, 1000, 16 << 10) : null;
                Database db = new Database(List.of(spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME, arrow)) {
            Table t = db.table("text");
            Random rnd = new Random(17);
            load(t, rnd);
            Record values = new Record(t.schema());
            Record scratch = new Record(t.schema());
            if (hot) {
                t.createHotPartition();
                for (int i = 0; i < ROWS; i++) {
                    long[] tid = {-1};
                    t.find(0, t.keyOfLiterals(0, List.of(Integer.toString(i))), true, (p, x) -> {
                        tid[0] = x;
                        return false;
                    });
                    t.move(t.main(), tid[0], t.hot(), scratch);
                }
            }
            Table.Part home = hot ? t.hot() : t.main();
            for (int i = 0; i < ROWS; i += 3) {
                String v = value(rnd, i + 1);
                if (v == null) values.setNull(1);
                else values.setString(1, v);
                long[] tid = {-1};
                t.find(0, t.keyOfLiterals(0, List.of(Integer.toString(i))), true, (p, x) -> {
                    tid[0] = x;
                    return false;
                });
                t.update(home, tid[0], new int[] {1}, values, scratch);
            }
            List<String> out = new ArrayList<>();
            Record read = new Record(t.schema());
            for (int i = 0; i < ROWS; i++) {
                int id = i;
                t.find(0, t.keyOfLiterals(0, List.of(Integer.toString(i))), true, (p, x) -> {
                    t.read(p, x, read);
                    out.add(id + ":"
                            + (read.isNull(1)
                                    ? "NULL"
                                    : new String(read.bytes(1), 0, read.length(1), StandardCharsets.UTF_8))
                            + ":" + new String(read.bytes(2), 0, read.length(2), StandardCharsets.UTF_8));
                    return false;
                });
            }
            saved[0] = t.compression()[0];
            saved[1] = t.heapBytes() + t.overflow().pageCount() * 8192L;
            if (home.overflow() != null) saved[2] = home.overflow().valueBytes();
            if (saved.length > 3) {
                for (Table.Part p : t.parts())
                    if (p.blocks(1) != null) saved[3] += p.blocks(1).blocks();
                saved[4] = t.decompressedBytes();
            }
            return out;
        }
    }

    /**
     * {@code compress_cache=}: the values read back through the cache of decompressed values are the plain table's,
     * in every page layout, with a cache that holds them all and with one that drops most of them; a second read of
     * a kept value decompresses nothing; its memory comes out of the buffer pool's.
     */
    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void valuesKeptDecompressedReadBackAsThePlainTable(Layout layout) {
        List<String> plain = readTwice(layout, "none", "0", new long[4]);
        long[] all = new long[4], few = new long[4];
        assertThat(readTwice(layout, "large", "16m", all)).isEqualTo(plain);
        assertThat(readTwice(layout, "large", "16k", few)).isEqualTo(plain);
        // all kept: the second pass decompressed only the frames stored inline (short values, not kept), and its
        // reads of the values out of line were hits
        assertThat(all[1] - all[0]).isPositive();
        assertThat(all[2] - all[1]).isLessThan((all[1] - all[0]) / 50);
        assertThat(all[3]).isGreaterThanOrEqualTo(ROWS / 5);
        // a 16 KiB cache keeps one or two of them: the second pass decompresses most again
        assertThat(few[2] - few[1]).isGreaterThan((few[1] - few[0]) / 2);
        try (Database db = new Database(
                List.of(spec()),
                n -> TableDesign.BASELINE.with("compress", "large").with("compress_cache", "16m"),
                8192,
                64L << 20,
                DeviceModel.NVME,
                null)) {
            assertThat(db.pool().capacityFrames()).isEqualTo((48 << 20) / 8192);
        }
    }

    /**
     * {@code compress_dict=}: values cut from one shared text (as the generated wiki's are, slices of a 1 MiB corpus:
     * docs/benchmarks.md, "A dictionary the size of what the texts share"), 160 KiB of random characters here, more
     * than zstd's default dictionary holds. With a dictionary of 384 KiB the hot partition's frames save far more bytes than with the
     * default, every value (moved, updated, read twice) reads back as the plain table's in every page layout, the
     * dictionary has the design's size at most and more than the default, and its memory comes out of the pool's.
     */
    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void aLargerDictionaryHoldsWhatTheValuesShareAndReadsBackAsThePlainTable(Layout layout) {
        long[] plainStats = new long[5], defaultStats = new long[5], largeStats = new long[5], kept = new long[5];
        List<String> plain = slices(layout, "none", "0", "0", plainStats);
        List<String> small = slices(layout, "large", "0", "0", defaultStats);
        List<String> large = slices(layout, "large", "384k", "0", largeStats);
        List<String> cached = slices(layout, "large", "384k", "16m", kept);
        assertThat(plain).hasSize(SLICES);
        assertThat(large).isEqualTo(plain).isEqualTo(small).isEqualTo(cached);
        // the large dictionary's frames are short enough to stay inline in the row, and the cache keeps them too:
        // the second pass decompresses nothing
        assertThat(largeStats[4]).isEqualTo(largeStats[3]).isPositive();
        assertThat(kept[3]).isEqualTo(largeStats[3]);
        assertThat(kept[4]).isZero();
        assertThat(defaultStats[2]).isEqualTo(Table.DICTIONARY_BYTES);
        assertThat(largeStats[2]).isGreaterThan(Table.DICTIONARY_BYTES).isLessThanOrEqualTo(384 << 10);
        // bytes the moved and updated values' frames saved, over their raw bytes: the large dictionary holds the
        // shared text, so a frame is little more than a reference into it
        assertThat(largeStats[0] * 1.0 / largeStats[1]).isGreaterThan(0.9);
        assertThat(largeStats[0] - defaultStats[0]).isGreaterThan(largeStats[1] / 5);
        try (Database db = new Database(
                List.of(spec()),
                n -> TableDesign.BASELINE
                        .with("compress", "large")
                        .with("compress_dict", "1m")
                        .with("compress_cache", "16m"),
                8192,
                64L << 20,
                DeviceModel.NVME,
                null)) {
            assertThat(db.pool().capacityFrames()).isEqualTo((47 << 20) / 8192);
        }
        assertThat(TableDesign.BASELINE
                        .with("compress", "large")
                        .with("compress_dict", "1m")
                        .describe())
                .endsWith(",compress=large,compress_dict=1048576");
        assertThatThrownBy(() -> TableDesign.BASELINE.with("compress_dict", "512"))
                .hasMessageContaining("compress_dict=512: expected 0 (the default, 110 KiB) or a size from 1k to 16m");
        assertThatThrownBy(() -> TableDesign.BASELINE.with("compress_dict", "32m"))
                .hasMessageContaining("compress_dict=32m");
    }

    /**
     * {@code compress_dict_kind=content}: the dictionary is the sampled values' own distinct bytes
     * ({@link ContentDictionary}). The values are slices of one 160 KiB text, so the dictionary holds about that text
     * once, well under its 384 KiB cap, and a frame is a few references into it: the frames save more than those
     * of a trained dictionary of the same cap, and every value reads back as the plain table's, with and without
     * the value cache, in every page layout; the kind is written by {@code describe} and checked when read.
     */
    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void aDictionaryOfTheValuesOwnBytesReadsBackAsThePlainTable(Layout layout) {
        long[] plainStats = new long[5], trainedStats = new long[5], contentStats = new long[5], kept = new long[5];
        List<String> plain = slices(layout, "none", "0", "0", plainStats);
        List<String> trained = slices(layout, "large", "384k", "0", "trained", trainedStats);
        List<String> content = slices(layout, "large", "384k", "0", "content", contentStats);
        List<String> cached = slices(layout, "large", "384k", "16m", "content", kept);
        assertThat(plain).hasSize(SLICES);
        assertThat(content).isEqualTo(plain).isEqualTo(trained).isEqualTo(cached);
        // the text the slices share is held about once: at least most of the 160 KiB, far under the cap
        assertThat(contentStats[2]).isBetween(150L << 10, 170L << 10);
        // frames of a few references: more saved than with the trained dictionary, nearly every raw byte
        assertThat(contentStats[0]).isGreaterThan(trainedStats[0]);
        assertThat(contentStats[0] * 1.0 / contentStats[1]).isGreaterThan(0.98);
        // the frames are inline and the cache keeps them: its second pass decompresses nothing
        assertThat(contentStats[4]).isEqualTo(contentStats[3]).isPositive();
        assertThat(kept[4]).isZero();
        assertThat(TableDesign.BASELINE
                        .with("compress", "large")
                        .with("compress_dict", "1m")
                        .with("compress_dict_kind", "content")
                        .describe())
                .endsWith(",compress=large,compress_dict=1048576,compress_dict_kind=content");
        assertThat(TableDesign.BASELINE
                        .with("compress", "large")
                        .with("compress_dict_kind", "content")
                        .with("compress", "none")
                        .with("compress", "large")
                        .compress()
                        .content())
                .isTrue();
        assertThatThrownBy(() -> TableDesign.BASELINE.with("compress_dict_kind", "zdict"))
                .hasMessageContaining("compress_dict_kind=zdict: expected trained or content");
    }

    /**
     * What the modeled cost charges ({@code Autotune.modeledUs}), counted by {@link Table#decompressionSplit}: a read
     * that decompresses a frame decodes it into the record's own buffer and copies nothing ([2] stays 0 while the
     * bytes decompressed grow: the model charged a copy per byte here until it was seen that none is made); with
     * {@code compress_cache=} every lookup is a hit ([3]) or a miss ([4]), and a pass over values kept is all hits,
     * with nothing decoded from a frame; without the cache neither is counted.
     */
    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void theSplitCountsCopiesHitsAndMissesOfTheValueCache(Layout layout) {
        for (String cache : List.of("0", "16m")) {
            TableDesign d = TableDesign.BASELINE
                    .with("layout", layout.name())
                    .with("compress", "large")
                    .with("compress_dict", "384k")
                    .with("compress_cache", cache);
            Random rnd = new Random(31);
            char[] text = new char[160 << 10];
            for (int k = 0; k < text.length; k++) text[k] = (char) (0x21 + rnd.nextInt(0x5e));
            String corpus = new String(text);
            try (Database db = new Database(List.of(spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME, null)) {
                Table t = db.table("text");
                Record r = new Record(t.schema());
                for (int i = 0; i < SLICES; i++) {
                    r.setLong(0, i).setString(1, slice(rnd, corpus)).setString(2, "utf-8");
                    t.insert(t.main(), r);
                }
                Record scratch = new Record(t.schema());
                t.createHotPartition();
                for (int i = 0; i < SLICES; i++) t.move(t.main(), tidOf(t, i), t.hot(), scratch);
                Record read = new Record(t.schema());
                long[][] split = new long[3][];
                long[] decompressed = new long[3];
                split[0] = db.decompressionSplit();
                decompressed[0] = db.decompressedBytes();
                for (int pass = 1; pass <= 2; pass++) {
                    for (int i = 0; i < SLICES; i++) t.read(t.hot(), tidOf(t, i), read);
                    split[pass] = db.decompressionSplit();
                    decompressed[pass] = db.decompressedBytes();
                }
                long copied1 = split[1][2] - split[0][2], copied2 = split[2][2] - split[1][2];
                assertThat(decompressed[1] - decompressed[0]).isPositive();
                assertThat(copied1).isZero();
                assertThat(copied2).isZero();
                if (cache.equals("0")) {
                    assertThat(decompressed[2] - decompressed[1]).isEqualTo(decompressed[1] - decompressed[0]);
                    assertThat(split[2][3]).isZero();
                    assertThat(split[2][4]).isZero();
                } else {
                    // the first pass missed every value and kept it; the second hit every one and decoded nothing
                    assertThat(split[1][3] - split[0][3]).isZero();
                    assertThat(split[1][4] - split[0][4]).isEqualTo(SLICES);
                    assertThat(split[2][3] - split[1][3]).isEqualTo(SLICES);
                    assertThat(split[2][4] - split[1][4]).isZero();
                    assertThat(copied2).isZero();
                    assertThat(split[2][0] - split[1][0]).isZero();
                }
            }
        }
    }

    private static final int SLICES = 1500;

    /**
     * Loads {@link #SLICES} rows cut from one 160 KiB text, moves them into the hot partition (which trains the
     * dictionary), updates every third with another cut, and reads every row twice; {@code stats}: the bytes the
     * frames stored from the move on saved, the raw bytes of those values, the dictionary's size, and the bytes
     * each pass of reads decompressed.
     */
    private static List<String> slices(Layout layout, String compress, String dictionary, String cache, long[] stats) {
        return slices(layout, compress, dictionary, cache, "trained", stats);
    }

    private static List<String> slices(
            Layout layout, String compress, String dictionary, String cache, String kind, long[] stats) {
        Random rnd = new Random(31);
        char[] text = new char[160 << 10]; // random printable ASCII: a value alone compresses little
        for (int k = 0; k < text.length; k++) text[k] = (char) (0x21 + rnd.nextInt(0x5e));
        String corpus = new String(text);
        TableDesign d = TableDesign.BASELINE
                .with("layout", layout.name())
                .with("compress", compress)
                .with("compress_dict", dictionary)
                .with("compress_cache", cache)
                .with("compress_dict_kind", kind);
        try (Database db = new Database(List.of(spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME, null)) {
            Table t = db.table("text");
            Record r = new Record(t.schema());
            long raw = 0;
            for (int i = 0; i < SLICES; i++) {
                String v = slice(rnd, corpus);
                r.setLong(0, i).setString(1, v).setString(2, "utf-8");
                t.insert(t.main(), r);
                raw += v.length();
            }
            long saved = t.compression()[1];
            Record scratch = new Record(t.schema());
            t.createHotPartition();
            for (int i = 0; i < SLICES; i++) t.move(t.main(), tidOf(t, i), t.hot(), scratch);
            Record values = new Record(t.schema());
            for (int i = 0; i < SLICES; i += 3) {
                String v = slice(rnd, corpus);
                values.setString(1, v);
                t.update(t.hot(), tidOf(t, i), new int[] {1}, values, scratch);
                raw += v.length();
            }
            stats[0] = t.compression()[1] - saved;
            stats[1] = raw;
            stats[2] = t.dictionaryBytes();
            List<String> out = new ArrayList<>();
            Record read = new Record(t.schema());
            for (int pass = 0; pass < 2; pass++) {
                long before = t.decompressedBytes();
                for (int i = 0; i < SLICES; i++) {
                    t.read(t.hot(), tidOf(t, i), read);
                    if (pass == 1)
                        out.add(i + ":" + new String(read.bytes(1), 0, read.length(1), StandardCharsets.UTF_8));
                }
                stats[3 + pass] = t.decompressedBytes() - before;
            }
            return out;
        }
    }

    /** 2 to 4 KB of {@code corpus} from a random place (ASCII: any cut is a whole string). */
    /**
     * A value above zstd's attach cutoff (32 KiB at the dictionary's level 9) is written with the dictionary as the
     * skippable frame and pieces ({@link FrameWriter}): values of 20 to 140 KiB, slices of one text the dictionary
     * holds, stored in the hot partition after the split, updated, read twice, in every page layout and with the value
     * cache, read back as the plain table's; the frames save nearly every byte, as one frame a value would.
     */
    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void longValuesWrittenInPiecesReadBackAsThePlainTable(Layout layout) {
        long[] plainStats = new long[5], content = new long[5], cached = new long[5];
        List<String> plain = longSlices(layout, "none", "0", plainStats);
        assertThat(longSlices(layout, "large", "0", content)).isEqualTo(plain);
        assertThat(longSlices(layout, "large", "16m", cached)).isEqualTo(plain);
        assertThat(plain).hasSize(LONG_SLICES);
        assertThat(content[0] * 1.0 / content[1]).isGreaterThan(0.97);
        assertThat(content[3]).isGreaterThan(LONG_SLICES * (20L << 10)); // the first pass decompressed them all
    }

    private static final int LONG_SLICES = 60;

    /**
     * {@code compress_level=N} is the table's zstd level: parsed, written by {@code describe}, refused out of range
     * with a message naming the key, and the frames differ (level 1 saves fewer bytes than level 19) while every
     * value reads back as the plain table's.
     */
    @Test
    void aLevelIsTheDesignsAndChangesTheFramesNotTheValues() {
        TableDesign d = TableDesign.BASELINE.with("compress", "large").with("compress_level", "3");
        assertThat(d.compress().level()).isEqualTo(3);
        assertThat(d.describe()).endsWith(",compress=large,compress_level=3");
        assertThat(d.with("compress", "none")
                        .with("compress", "large")
                        .compress()
                        .level())
                .isEqualTo(3);
        assertThat(TableDesign.BASELINE.with("compress", "large").describe()).doesNotContain("compress_level");
        assertThatThrownBy(() -> TableDesign.BASELINE.with("compress_level", "25"))
                .hasMessageContaining("compress_level=25: expected 0");
        assertThatThrownBy(() -> TableDesign.BASELINE.with("compress_level", "fast"))
                .hasMessageContaining("compress_level=fast: expected 0");
        long[] plainStats = new long[5], fast = new long[5], slow = new long[5];
        List<String> plain = longSlices(Layout.PAX, "none", "0", "0", plainStats);
        assertThat(longSlices(Layout.PAX, "large", "0", "1", fast)).isEqualTo(plain);
        assertThat(longSlices(Layout.PAX, "large", "0", "19", slow)).isEqualTo(plain);
        assertThat(slow[0]).isGreaterThan(fast[0]);
    }

    private static List<String> longSlices(Layout layout, String compress, String cache, long[] stats) {
        return longSlices(layout, compress, cache, "0", stats);
    }

    private static List<String> longSlices(Layout layout, String compress, String cache, String level, long[] stats) {
        Random rnd = new Random(47);
        char[] text = new char[200 << 10];
        for (int k = 0; k < text.length; k++) text[k] = (char) (0x21 + rnd.nextInt(0x5e));
        String corpus = new String(text);
        TableDesign d = TableDesign.BASELINE
                .with("layout", layout.name())
                .with("compress", compress)
                .with("compress_dict", "1m")
                .with("compress_cache", cache)
                .with("compress_dict_kind", "content")
                .with("compress_level", level);
        try (Database db = new Database(List.of(spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME, null)) {
            Table t = db.table("text");
            Record r = new Record(t.schema());
            long raw = 0;
            for (int i = 0; i < LONG_SLICES; i++) {
                String v = longSlice(rnd, corpus);
                r.setLong(0, i).setString(1, v).setString(2, "utf-8");
                t.insert(t.main(), r);
            }
            long saved = t.compression()[1];
            Record scratch = new Record(t.schema());
            t.createHotPartition();
            for (int i = 0; i < LONG_SLICES; i++) {
                t.move(t.main(), tidOf(t, i), t.hot(), scratch);
                raw += longSliceLength(t, i);
            }
            Record values = new Record(t.schema());
            for (int i = 0; i < LONG_SLICES; i += 3) {
                String v = longSlice(rnd, corpus);
                values.setString(1, v);
                t.update(t.hot(), tidOf(t, i), new int[] {1}, values, scratch);
                raw += v.length();
            }
            stats[0] = t.compression()[1] - saved;
            stats[1] = raw;
            List<String> out = new ArrayList<>();
            Record read = new Record(t.schema());
            for (int pass = 0; pass < 2; pass++) {
                long before = t.decompressedBytes();
                for (int i = 0; i < LONG_SLICES; i++) {
                    t.read(t.hot(), tidOf(t, i), read);
                    if (pass == 1)
                        out.add(i + ":" + new String(read.bytes(1), 0, read.length(1), StandardCharsets.UTF_8));
                }
                stats[3 + pass] = t.decompressedBytes() - before;
            }
            return out;
        }
    }

    /** The length of row {@code i}'s text as it reads now. */
    private static int longSliceLength(Table t, int i) {
        Record read = new Record(t.schema());
        t.read(t.hot(), tidOf(t, i), read);
        return read.length(1);
    }

    private static String longSlice(Random rnd, String corpus) {
        int n = (20 << 10) + rnd.nextInt(120 << 10);
        int at = rnd.nextInt(corpus.length() - n);
        return corpus.substring(at, at + n);
    }

    private static String slice(Random rnd, String corpus) {
        int n = 2000 + rnd.nextInt(2000);
        int at = rnd.nextInt(corpus.length() - n);
        return corpus.substring(at, at + n);
    }

    /**
     * Loads the rows, moves them into the hot partition (which trains the dictionary), updates every third, and
     * reads every row twice; {@code counts}: bytes decompressed before the reads, after the first pass and after the
     * second, and the cache's hits.
     */
    private static List<String> readTwice(Layout layout, String compress, String cache, long[] counts) {
        TableDesign d = TableDesign.BASELINE
                .with("layout", layout.name())
                .with("compress", compress)
                .with("compress_cache", cache);
        try (Database db = new Database(List.of(spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME, null)) {
            Table t = db.table("text");
            Random rnd = new Random(23);
            load(t, rnd);
            Record scratch = new Record(t.schema());
            t.createHotPartition();
            for (int i = 0; i < ROWS; i++) t.move(t.main(), tidOf(t, i), t.hot(), scratch);
            Record values = new Record(t.schema());
            for (int i = 0; i < ROWS; i += 3) {
                String v = value(rnd, i + 1);
                if (v == null) values.setNull(1);
                else values.setString(1, v);
                t.update(t.hot(), tidOf(t, i), new int[] {1}, values, scratch);
            }
            List<String> out = new ArrayList<>();
            Record read = new Record(t.schema());
            counts[0] = t.decompressedBytes();
            for (int pass = 0; pass < 2; pass++) {
                for (int i = 0; i < ROWS; i++) {
                    t.read(t.hot(), tidOf(t, i), read);
                    if (pass == 1)
                        out.add(i + ":"
                                + (read.isNull(1)
                                        ? "NULL"
                                        : new String(read.bytes(1), 0, read.length(1), StandardCharsets.UTF_8)));
                }
                counts[pass + 1] = t.decompressedBytes();
            }
            counts[3] = t.decompressedCacheHits();
            return out;
        }
    }

    /** Inserts {@link #ROWS} rows: id i, {@link #value}(rnd, i), "utf-8". */
    private static void load(Table t, Random rnd) {
        Record r = new Record(t.schema());
        for (int i = 0; i < ROWS; i++) {
            String v = value(rnd, i);
            r.setLong(0, i);
            if (v == null) r.setNull(1);
            else r.setString(1, v);
            r.setString(2, "utf-8");
            t.insert(t.main(), r);
        }
    }

    private static long tidOf(Table t, int id) {
        long[] tid = {-1};
        t.find(0, t.keyOfLiterals(0, List.of(Integer.toString(id))), true, (p, x) -> {
            tid[0] = x;
            return false;
        });
        return tid[0];
    }

    /**
     * A table with no index has nothing to walk its rows by when the split trains its dictionaries:
     * its compressed fields keep plain frames, and its values read back.
     */
    @Test
    void aTableWithoutIndexesSplitsWithPlainFrames() {
        TableSpec unindexed =
                new TableSpec("notes", List.of(new ColumnSpec("body", FieldType.VARLEN, true, true)), List.of());
        TableDesign d = TableDesign.BASELINE.with("compress", "large");
        try (Database db = new Database(List.of(unindexed), n -> d, 8192, 64L << 20, DeviceModel.NVME, null)) {
            Table t = db.table("notes");
            Record r = new Record(t.schema());
            String body = "the wiki page revision history ".repeat(200);
            r.setString(0, body);
            long tid = t.insert(t.main(), r);
            assertThat(t.createHotPartition()).isSameAs(t.hot());
            Record read = new Record(t.schema());
            t.read(t.main(), tid, read);
            assertThat(new String(read.bytes(0), 0, read.length(0), StandardCharsets.UTF_8))
                    .isEqualTo(body);
            assertThat(t.dictionaryBytes()).isZero();
        }
    }

    @ParameterizedTest
    @EnumSource(Layout.class)
    void compressedFieldsRoundTripInEveryLayout(Layout layout) {
        long[] plainStats = new long[3], zstdStats = new long[3];
        List<String> plain = run(layout, "none", plainStats);
        List<String> zstd = run(layout, "large", zstdStats);
        assertThat(plain).hasSize(ROWS);
        assertThat(zstd).isEqualTo(plain);
        assertThat(plainStats[0]).isZero();
        if (layout == Layout.ARROW) {
            // Arrow blocks hold values of any length untagged: the engine stores them plain there
            assertThat(zstdStats[0]).isZero();
        } else {
            assertThat(zstdStats[0]).as("values stored compressed").isGreaterThan(ROWS / 5);
            assertThat(zstdStats[1]).as("heap and overflow bytes").isLessThan(plainStats[1] * 3 / 4);
        }
    }

    /**
     * A trained dictionary (at the hot partition's creation): the rows moved into the hot partition
     * and updated there read back the same in every page layout, and their frames take fewer bytes
     * than the same values' plain frames.
     */
    @ParameterizedTest
    @EnumSource(
            value = Layout.class,
            names = {"NSM", "PAX", "HPL"})
    void dictionaryFramesRoundTripInEveryPageLayout(Layout layout) {
        long[] plainStats = new long[3], frames = new long[3], withDictionary = new long[3];
        List<String> plain = run(layout, "none", plainStats, true);
        List<String> zstd = run(layout, "large", frames);
        List<String> dict = run(layout, "large", withDictionary, true);
        assertThat(dict).isEqualTo(plain).isEqualTo(zstd);
        assertThat(withDictionary[2])
                .as("value bytes with the dictionary against plain frames")
                .isLessThan(frames[2]);
    }

    /**
     * Block-compressed overflow ({@code compress_block=}): the same rows, loaded, moved into the hot
     * partition (a dictionary trained) or not, updated and read back, give the plain table's values
     * in every page layout and block size; the values fill blocks, reads decompress whole blocks, and
     * the blocks of wiki-like text take fewer bytes than the same values' single frames.
     */
    @ParameterizedTest
    @CsvSource({
        "NSM,4k,false",
        "NSM,16k,true",
        "NSM,64k,true",
        "PAX,4k,true",
        "PAX,64k,false",
        "HPL,16k,true",
        "HPL,1,false"
    })
    void blockCompressedValuesRoundTripInEveryPageLayout(Layout layout, String block, boolean hot) {
        long[] plainStats = new long[5], frames = new long[5], blocks = new long[5];
        List<String> plain = run(layout, "none", "0", plainStats, hot);
        List<String> single = run(layout, "large", "0", frames, hot);
        List<String> blocked = run(layout, "large", block, blocks, hot);
        assertThat(blocked).hasSize(ROWS).isEqualTo(plain).isEqualTo(single);
        assertThat(frames[3]).as("no block without compress_block").isZero();
        assertThat(blocks[3]).as("blocks sealed").isGreaterThan(block.equals("64k") ? 3 : 20);
        if (block.equals("1")) // blocks of one value: a read decompresses what a single frame's does
        assertThat(blocks[4]).as("decompressed bytes").isEqualTo(frames[4]);
        else assertThat(blocks[4]).as("a read decompresses its whole block").isGreaterThan(frames[4]);
        assertThat(blocks[2]).as("block frames against the plain values").isLessThan(plainStats[2]);
    }

    /**
     * Texts that share a part (a template every page of a wiki includes, 300 words) and differ in the
     * rest (200 words each): blocks of 16 KiB take fewer bytes than a frame per value, which cannot see
     * the shared part. Words drawn at random are an entropy floor neither beats by much: the share is the gain.
     */
    @Test
    void blocksOfWikiTextAreSmallerThanAFramePerValue() {
        long[] bytes = new long[2];
        for (int k = 0; k < 2; k++) {
            TableDesign d = TableDesign.BASELINE.with("compress", "large").with("compress_block", k == 0 ? "0" : "16k");
            try (Database db = new Database(List.of(spec()), n -> d, 8192, 64L << 20, DeviceModel.NVME)) {
                Table t = db.table("text");
                Random rnd = new Random(23);
                Record r = new Record(t.schema());
                String template = words(rnd, 300);
                for (int i = 0; i < 300; i++) {
                    r.setLong(0, i).setString(1, template + words(rnd, 200)).setString(2, "utf-8");
                    t.insert(t.main(), r);
                }
                bytes[k] = t.heapBytes(); // heap and overflow pages: a short frame stays inline
            }
        }
        assertThat(bytes[1]).as("16 KiB blocks against a frame per value").isLessThan(bytes[0] * 9 / 10);
    }

    @Test
    void aBlockSizeIsASizeUpToOneMebibyte() {
        assertThat(TableDesign.BASELINE.with("compress_block", "16k").compress().block())
                .isEqualTo(16384);
        assertThat(TableDesign.BASELINE
                        .with("compress_block", "4096")
                        .compress()
                        .block())
                .isEqualTo(4096);
        assertThat(TableDesign.BASELINE
                        .with("compress", "large")
                        .with("compress_block", "64k")
                        .describe())
                .endsWith(",compress=large,compress_block=65536");
        assertThatThrownBy(() -> TableDesign.BASELINE.with("compress_block", "2048k"))
                .hasMessageContaining("compress_block=2048k: expected a size from 0");
        assertThatThrownBy(() -> TableDesign.BASELINE.with("compress_block", "big"))
                .hasMessageContaining("compress_block=big");
    }

    @Test
    void compressNamesOnlyLongVariableLengthColumns() {
        TableDesign d = TableDesign.BASELINE.with("compress", "old_flags");
        assertThatThrownBy(() -> new Database(List.of(spec()), n -> d, 8192, 8L << 20, DeviceModel.NVME))
                .hasMessageContaining("compress names old_flags, which is not a long variable-length column");
    }
}
