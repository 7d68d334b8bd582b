package dev.wastecheck.engine.table;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * {@link FrameWriter}'s frames are zstd-jni's static calls' byte for byte, reused and shared by threads; a value above
 * zstd's attach cutoff with a dictionary is the skippable frame and its pieces' frames, read back whole in one call.
 */
class FrameWriterTest {
    private static final String[] WORDS = {
        "the",
        "wiki",
        "page",
        "revision",
        "[[Category:",
        "]]",
        "{{cite web|url=",
        "}}",
        "==History==",
        "of",
        "and",
        "in",
        "'''",
        "<ref>",
        "</ref>",
        "|",
        "\n",
        "* ",
        "1987",
        "https://example.org/"
    };

    /** Texts like a wiki's: words drawn from a small vocabulary, lengths 64 B to 40 KiB, some random bytes. */
    static List<byte[]> texts(long seed, int n) {
        SplittableRandom r = new SplittableRandom(seed);
        List<byte[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int len = 64 + r.nextInt(i % 7 == 0 ? 40_000 : 3_000);
            if (i % 11 == 0) {
                byte[] b = new byte[len];
                r.nextBytes(b);
                out.add(b);
                continue;
            }
            StringBuilder s = new StringBuilder();
            while (s.length() < len) s.append(WORDS[r.nextInt(WORDS.length)]).append(' ');
            out.add(s.substring(0, len).getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    static byte[] staticDict(byte[] v, ZstdDictCompress d) {
        byte[] dst = new byte[(int) Zstd.compressBound(v.length)];
        long n = Zstd.compressFastDict(dst, 0, v, 0, v.length, d);
        return Arrays.copyOf(dst, (int) n);
    }

    static byte[] staticPlain(byte[] v, int level) {
        byte[] dst = new byte[(int) Zstd.compressBound(v.length)];
        long n = Zstd.compressByteArray(dst, 0, dst.length, v, 0, v.length, level);
        return Arrays.copyOf(dst, (int) n);
    }

    static byte[] written(FrameWriter w, byte[] v) {
        byte[] dst = new byte[FrameWriter.bound(v.length)];
        return Arrays.copyOf(dst, w.compress(dst, v, v.length));
    }

    /**
     * What the writer with dictionary {@code d} must write for {@code v}: the static call's frame for a value at most
     * {@code cutoff} bytes; above it the skippable frame with the value's length, then the static call's frame of each
     * piece of {@code cutoff} bytes.
     */
    static byte[] expectedWithDictionary(byte[] v, ZstdDictCompress d, int cutoff) {
        if (v.length <= cutoff) return staticDict(v, d);
        ByteBuffer b = ByteBuffer.allocate(FrameWriter.bound(v.length)).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(0x184D2A5E).putInt(4).putInt(v.length);
        for (int at = 0; at < v.length; at += cutoff)
            b.put(staticDict(Arrays.copyOfRange(v, at, Math.min(v.length, at + cutoff)), d));
        return Arrays.copyOf(b.array(), b.position());
    }

    @Test
    void framesAreTheStaticCallsByteForByte() {
        List<byte[]> sample = texts(1, 600), values = texts(2, 300);
        byte[] content = ContentDictionary.build(sample, 64 << 10);
        byte[] buffer = new byte[16 << 10];
        long trainedLength = Zstd.trainFromBuffer(sample.toArray(new byte[0][]), buffer);
        assertEquals(false, Zstd.isError(trainedLength), "zstd's trainer");
        List<byte[]> dicts = List.of(content, Arrays.copyOf(buffer, (int) trainedLength));
        for (byte[] dict : dicts) {
            ZstdDictCompress d = new ZstdDictCompress(dict, Table.ZSTD_DICTIONARY_LEVEL);
            FrameWriter w = FrameWriter.withDictionary(d, Table.ZSTD_DICTIONARY_LEVEL);
            for (byte[] v : values)
                assertArrayEquals(expectedWithDictionary(v, d, 32 << 10), written(w, v), "with a dictionary");
        }
        FrameWriter plain = FrameWriter.plain(Table.ZSTD_LEVEL);
        for (byte[] v : values) assertArrayEquals(staticPlain(v, Table.ZSTD_LEVEL), written(plain, v), "plain");
    }

    @Test
    void sharedByThreadsTheFramesStayTheSame() throws Exception {
        List<byte[]> sample = texts(3, 600), values = texts(4, 400);
        ZstdDictCompress d =
                new ZstdDictCompress(ContentDictionary.build(sample, 64 << 10), Table.ZSTD_DICTIONARY_LEVEL);
        FrameWriter w = FrameWriter.withDictionary(d, Table.ZSTD_DICTIONARY_LEVEL);
        List<byte[]> expected = new ArrayList<>();
        for (byte[] v : values) expected.add(expectedWithDictionary(v, d, 32 << 10));
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Integer>> done = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                int start = t % 2; // two threads on each half of the values
                done.add(pool.submit(() -> {
                    int same = 0;
                    for (int round = 0; round < 3; round++)
                        for (int i = start; i < values.size(); i += 2)
                            if (Arrays.equals(expected.get(i), written(w, values.get(i)))) same++;
                    return same;
                }));
            }
            for (Future<Integer> f : done) assertEquals(3 * values.size() / 2, f.get());
        } finally {
            pool.shutdown();
        }
    }

    @Test
    void aLongValueIsPiecesOfAtMostTheCutoffAndReadsBackWhole() {
        List<byte[]> sample = texts(5, 600);
        byte[] content = ContentDictionary.build(sample, 64 << 10);
        ZstdDictDecompress dd = new ZstdDictDecompress(content);
        FrameReader reader = new FrameReader();
        int pieces = 0;
        for (int level : new int[] {-1, 1, 3, 9, 15, 19}) {
            int cutoff = FrameWriter.attachCutoff(level);
            ZstdDictCompress d = new ZstdDictCompress(content, level);
            FrameWriter w = FrameWriter.withDictionary(d, level);
            List<byte[]> values = new ArrayList<>(texts(6, 60));
            // the edges: at the cutoff, a byte above, exactly two pieces, and a long value of many
            byte[] wiki = String.join(" ", java.util.Collections.nCopies(40_000, "[[Category:wiki]]"))
                    .getBytes(StandardCharsets.UTF_8);
            for (int len : new int[] {cutoff, cutoff + 1, 2 * cutoff, 2 * cutoff + 7, wiki.length})
                values.add(Arrays.copyOf(wiki, len));
            for (byte[] v : values) {
                byte[] f = written(w, v);
                assertArrayEquals(expectedWithDictionary(v, d, cutoff), f, "level " + level + ", " + v.length + " B");
                assertEquals(v.length, FrameWriter.contentSize(f, 0, f.length), "the value's length");
                if (v.length > cutoff) pieces++;
                byte[] back = new byte[v.length];
                assertTrue(reader.decompress(back, v.length, f, 0, f.length, dd), "decoded in one call");
                assertArrayEquals(v, back, "level " + level + ", " + v.length + " B read back");
                // a frame given one byte short is corrupt, not a shorter value
                assertFalse(reader.decompress(new byte[v.length], v.length, f, 0, f.length - 1, dd));
            }
        }
        assertTrue(pieces > 6 * 5, "long values were written in pieces: " + pieces);
    }

    @Test
    void withoutADictionaryALongValueIsOneFrame() {
        byte[] v = String.join(" ", java.util.Collections.nCopies(20_000, "revision text"))
                .getBytes(StandardCharsets.UTF_8);
        byte[] f = written(FrameWriter.plain(Table.ZSTD_LEVEL), v);
        assertArrayEquals(staticPlain(v, Table.ZSTD_LEVEL), f);
        assertEquals(v.length, FrameWriter.contentSize(f, 0, f.length));
    }
}
