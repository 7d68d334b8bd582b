package dev.wastecheck.engine.table;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdDictTrainer;
import dev.wastecheck.engine.exec.EngineConfig;
import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import io.airlift.compress.lz4.Lz4Compressor;
import io.airlift.compress.lz4.Lz4Decompressor;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the engine's decompression of a compressed field costs per byte ({@code compress=large}, "No Bits Left
 * Behind" §4.1): the constants {@code Autotune.DECODE_US_PER_DICTIONARY_FRAME_BYTE} ({@code engine} at several
 * {@code dictionaryBytes}) and {@code Autotune.DECOMPRESS_US_PER_PLAIN_BYTE} ({@code plainFrames}) of the modeled
 * cost (docs/benchmarks.md, issue 27, "The decompression constant, measured in the JVM" and "The cost model charges
 * the design's dictionary").
 *
 * <p>The values are a generated wiki's texts, exported by {@code docs/scripts/heldout_bytes.py --export DUMP TRACE
 * DIR}: {@code DIR/sample.bin} (what {@code Table.trainDictionaries} trains on: the dump's texts evenly spaced, at
 * most {@link Table#SAMPLE_VALUES}) and {@code DIR/reads.bin} (the distinct texts the held-out half reads, in the
 * order it first reads them). The setup trains the dictionary as the table does ({@link Table#DICTIONARY_BYTES}, or
 * {@code -p dictionaryBytes=N} as {@code compress_dict=N} does; level {@link Table#ZSTD_DICTIONARY_LEVEL}) and makes each value's frame as the hot partition stores it; one
 * operation decompresses every held-out value once, in read order, value by value, into the table's scratch
 * buffer when it fits (two pages) and a new array otherwise, as {@code Table.decompress} did when the constants were
 * measured (it now decompresses into the record's own buffer for the field, grown once to the largest value, and
 * copies nothing after: docs/benchmarks.md, issue 27, "The storage read path's CPU"). Time per byte =
 * time per operation / the values' bytes (printed by the setup).
 *
 * <ul>
 *   <li>{@code engine}: {@link FrameReader}, the engine's read path (a context per dictionary, kept);
 *   <li>{@code perCallContext}: {@code Zstd.decompressFastDict}, the engine's read path before it (zstd-jni
 *       creates and frees a context on every call);
 *   <li>{@code plainFrames}: {@link FrameReader} on frames made without a dictionary at level
 *       {@link Table#ZSTD_LEVEL} (the cold partition's frames);
 *   <li>{@code lz4}: the same values as LZ4 blocks (aircompressor, pure Java), a faster codec §4.1 would allow;
 *       its ratio is printed beside zstd's.
 *   <li>{@code cacheHit}: a {@code compress_cache=} hit as {@code Table.untag} makes it, on the values a
 *       {@link DecompressedCache} of {@code -p cacheBytes=N} holds (the first held-out values that fit, their frames
 *       made with the dictionary): the key (a hash of an inline frame, or the overflow reference's page and offset),
 *       the lookup, the inline frame compared whole, the value copied into a {@link Record}. The constant {@code
 *       Autotune.CACHE_HIT_US} = time / the kept values (their count and bytes are printed by the setup).
 *   <li>{@code cacheMiss}: what a miss adds with {@code compress_cache=} beside its decompression, every held-out
 *       value in read order through a cache of {@code cacheBytes} (each misses: the values are distinct): the key,
 *       the failed lookup, the inline frame copied, the value copied in, the least recently read dropped ({@code
 *       Autotune.CACHE_MISS_US} = time / the values).
 *   <li>{@code copyValue}: what every decompressed read also does after the decoding that {@code engine} times: the
 *       value copied from the table's scratch buffer into the record ({@code Autotune.COPY_US_PER_BYTE}), a copy
 *       {@code Table.decompress} no longer makes (it decompresses into the record).
 * </ul>
 *
 * <p>What would make the number lie: every output is sunk into the Blackhole (one byte of each value and the
 * returned length); the values are read in the held-out order, 13 MB of them, so the frames come from memory,
 * not from L2; the dictionary (110 KiB) does stay in L2 between values, which the replay's reads, interleaved
 * with B+tree descents, may not. Run: {@code ./bench engine DecompressBenchmark -p values=DIR}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class DecompressBenchmark {
    @Param({"/tmp/nb27/v6151"})
    public String values;

    /** The dictionary's size: the table's default, or a {@code compress_dict=} size such as 1048576. */
    @Param({"112640"})
    public int dictionaryBytes;

    /**
     * How the dictionary is made: {@code trained} by zstd's trainer, or {@code content}, the sample's distinct bytes
     * up to {@code dictionaryBytes} ({@link ContentDictionary}), as {@code compress_dict_kind=} says.
     */
    @Param({"trained"})
    public String dictionaryKind;

    /** The decompressed values' cache of {@code cacheHit} and {@code cacheMiss}: {@code compress_cache=}'s size. */
    @Param({"262144"})
    public int cacheBytes;

    private byte[][] dictFrames, plainFrames, lz4Blocks, tagged, texts;
    private long[] keys;
    private int kept;
    private DecompressedCache hitCache, missCache;
    private Record record;
    private int[] lengths;
    private ZstdDictDecompress dictionary;
    private FrameReader reader;
    private Lz4Decompressor lz4;
    private final byte[] scratch = new byte[2 * 8192];

    static List<byte[]> read(Path p) throws IOException {
        ByteBuffer b = ByteBuffer.wrap(Files.readAllBytes(p)).order(ByteOrder.LITTLE_ENDIAN);
        List<byte[]> out = new ArrayList<>();
        while (b.hasRemaining()) {
            byte[] v = new byte[b.getInt()];
            b.get(v);
            out.add(v);
        }
        return out;
    }

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path dir = Path.of(values);
        if (!Files.exists(dir.resolve("reads.bin")))
            throw new IllegalStateException(dir + ": run docs/scripts/heldout_bytes.py --export DUMP TRACE " + dir);
        byte[] dict;
        if (dictionaryKind.equals("content")) {
            dict = ContentDictionary.build(read(dir.resolve("sample.bin")), dictionaryBytes);
        } else {
            ZstdDictTrainer trainer =
                    new ZstdDictTrainer((int) Math.max(Table.SAMPLE_BYTES, 16L * dictionaryBytes), dictionaryBytes);
            for (byte[] v : read(dir.resolve("sample.bin"))) if (!trainer.addSample(v)) break;
            dict = trainer.trainSamples();
        }
        ZstdDictCompress compress = new ZstdDictCompress(dict, Table.ZSTD_DICTIONARY_LEVEL);
        dictionary = new ZstdDictDecompress(dict);
        List<byte[]> reads = read(dir.resolve("reads.bin"));
        int n = reads.size();
        dictFrames = new byte[n][];
        plainFrames = new byte[n][];
        lz4Blocks = new byte[n][];
        lengths = new int[n];
        Lz4Compressor lz4c = new Lz4Compressor();
        long raw = 0, dictBytes = 0, plainBytes = 0, lz4Bytes = 0;
        for (int i = 0; i < n; i++) {
            byte[] v = reads.get(i);
            lengths[i] = v.length;
            byte[] dst = new byte[(int) Zstd.compressBound(v.length)];
            long k = Zstd.compressFastDict(dst, 0, v, 0, v.length, compress);
            dictFrames[i] = Arrays.copyOf(dst, (int) k);
            k = Zstd.compressByteArray(dst, 0, dst.length, v, 0, v.length, Table.ZSTD_LEVEL);
            plainFrames[i] = Arrays.copyOf(dst, (int) k);
            byte[] l = new byte[lz4c.maxCompressedLength(v.length)];
            int m = lz4c.compress(v, 0, v.length, l, 0, l.length);
            lz4Blocks[i] = Arrays.copyOf(l, m);
            raw += v.length;
            dictBytes += dictFrames[i].length;
            plainBytes += plainFrames[i].length;
            lz4Bytes += m;
        }
        reader = new FrameReader();
        lz4 = new Lz4Decompressor();
        // The cache's keys as Table.untag makes them: an inline frame (shorter than the overflow threshold of the
        // default page) is hashed with its tag byte and kept beside its value; a longer one is keyed by its reference.
        int threshold = Math.max(OverflowStore.REF_BYTES + 1, EngineConfig.DEFAULT_PAGE_SIZE / 16);
        texts = reads.toArray(new byte[0][]);
        tagged = new byte[n][];
        keys = new long[n];
        for (int i = 0; i < n; i++) {
            byte[] t = new byte[dictFrames[i].length + 1];
            t[0] = OverflowStore.INLINE_DICTIONARY;
            System.arraycopy(dictFrames[i], 0, t, 1, dictFrames[i].length);
            if (t.length < threshold) {
                tagged[i] = t;
                keys[i] = DecompressedCache.inlineKey(t, t.length);
            } else keys[i] = (long) i << 20 | 24; // a reference's page and offset
        }
        hitCache = new DecompressedCache(cacheBytes);
        long keptBytes = 0;
        for (kept = 0; kept < n; kept++) {
            byte[] t = tagged[kept];
            long b = texts[kept].length + (t == null ? 0 : t.length) + DecompressedCache.ENTRY_BYTES;
            if (hitCache.bytes() + b > cacheBytes) break;
            hitCache.put(keys[kept], texts[kept], texts[kept].length, t, t == null ? 0 : t.length);
            keptBytes += texts[kept].length;
        }
        missCache = new DecompressedCache(cacheBytes);
        record = new Record(RecordSchema.of(Field.varlen("old_text", true, 4096)));
        System.out.printf(
                Locale.ROOT,
                "cache of %,d bytes: %,d values of %,d bytes (cacheHit's); %,d of %,d frames inline%n",
                cacheBytes,
                kept,
                keptBytes,
                java.util.Arrays.stream(tagged).filter(x -> x != null).count(),
                n);
        System.out.printf(
                Locale.ROOT,
                "%n%s: %,d values, %,d bytes; zstd -%d + dictionary %,d bytes (%.2fx); zstd -%d %,d (%.2fx); lz4 %,d (%.2fx)%n",
                dir,
                n,
                raw,
                Table.ZSTD_DICTIONARY_LEVEL,
                dictBytes,
                (double) raw / dictBytes,
                Table.ZSTD_LEVEL,
                plainBytes,
                (double) raw / plainBytes,
                lz4Bytes,
                (double) raw / lz4Bytes);
    }

    private byte[] dst(int n) {
        return n <= scratch.length ? scratch : new byte[n];
    }

    @Benchmark
    public void engine(Blackhole bh) {
        for (int i = 0; i < lengths.length; i++) {
            byte[] f = dictFrames[i];
            int n = (int) Zstd.getFrameContentSize(f, 0, f.length);
            byte[] d = dst(n);
            bh.consume(reader.decompress(d, n, f, 0, f.length, dictionary));
            bh.consume(d[n - 1]);
        }
    }

    @Benchmark
    public void perCallContext(Blackhole bh) {
        for (int i = 0; i < lengths.length; i++) {
            byte[] f = dictFrames[i];
            int n = (int) Zstd.getFrameContentSize(f, 0, f.length);
            byte[] d = dst(n);
            bh.consume(Zstd.decompressFastDict(d, 0, f, 0, f.length, dictionary));
            bh.consume(d[n - 1]);
        }
    }

    @Benchmark
    public void plainFrames(Blackhole bh) {
        for (int i = 0; i < lengths.length; i++) {
            byte[] f = plainFrames[i];
            int n = (int) Zstd.getFrameContentSize(f, 0, f.length);
            byte[] d = dst(n);
            bh.consume(reader.decompress(d, n, f, 0, f.length, null));
            bh.consume(d[n - 1]);
        }
    }

    /** {@code Table.untag}'s hit: key, lookup, the inline frame compared, the value copied into the record. */
    @Benchmark
    public void cacheHit(Blackhole bh) {
        for (int i = 0; i < kept; i++) {
            byte[] t = tagged[i];
            byte[] v;
            if (t != null) v = hitCache.get(DecompressedCache.inlineKey(t, t.length), t, t.length);
            else v = hitCache.get(keys[i]);
            record.setBytes(0, v, 0, v.length);
            bh.consume(record.bytes(0)[v.length - 1]);
        }
    }

    /** What a miss adds beside the decompression: key, failed lookup, the frame and the value copied in, eviction. */
    @Benchmark
    public void cacheMiss(Blackhole bh) {
        for (int i = 0; i < texts.length; i++) {
            byte[] t = tagged[i];
            byte[] v = texts[i];
            if (t != null) {
                long key = DecompressedCache.inlineKey(t, t.length);
                bh.consume(missCache.get(key, t, t.length));
                byte[] frame = Arrays.copyOf(t, t.length);
                missCache.put(key, v, v.length, frame, frame.length);
            } else {
                bh.consume(missCache.get(keys[i]));
                missCache.put(keys[i], v, v.length);
            }
        }
        bh.consume(missCache.bytes());
    }

    /** A decompressed read's copy of its value from the table's scratch buffer into the record. */
    @Benchmark
    public void copyValue(Blackhole bh) {
        for (int i = 0; i < texts.length; i++) {
            int n = texts[i].length;
            byte[] src = n <= scratch.length ? scratch : texts[i];
            record.setBytes(0, src, 0, n);
            bh.consume(record.bytes(0)[n - 1]);
        }
    }

    @Benchmark
    public void lz4(Blackhole bh) {
        for (int i = 0; i < lengths.length; i++) {
            byte[] f = lz4Blocks[i];
            int n = lengths[i];
            byte[] d = dst(n);
            bh.consume(lz4.decompress(f, 0, f.length, d, 0, n));
            bh.consume(d[n - 1]);
        }
    }
}
