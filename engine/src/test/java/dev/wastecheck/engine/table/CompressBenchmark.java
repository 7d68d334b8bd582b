package dev.wastecheck.engine.table;

import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictTrainer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.*;
import org.openjdk.jmh.infra.Blackhole;

/**
 * What the engine's compression of a compressed field's new values costs ({@code compress=large} with a dictionary,
 * "No Bits Left Behind" §4.1): every text the held-out half of a generated wiki's trace inserts, compressed in its
 * order with the field's dictionary, as {@code Table.compress} does for each insert after the split.
 *
 * <ul>
 *   <li>{@code engine}: {@link FrameWriter}, the engine's write path: a value above zstd's attach cutoff for the
 *       level ({@link FrameWriter#attachCutoff}: 32 KiB at 9) is written as several frames, each compressed with
 *       the dictionary attached;
 *   <li>{@code oneFrame}: the same context, each value one frame whatever its length, the engine's write path before
 *       (zstd copies the digested dictionary's tables into its context for an input above the cutoff).
 * </ul>
 *
 * <p>The values are exported by {@code docs/scripts/heldout_bytes.py --export DUMP TRACE DIR}: {@code
 * DIR/sample.bin} (what {@code Table.trainDictionaries} builds the dictionary from) and {@code DIR/inserts.bin}. The
 * setup prints the values, how many are above the cutoff, and the frames' bytes both ways. What would make the number
 * lie: every frame's length is sunk into the Blackhole; the inserts are 2-3 MB, so the values come from memory, and the
 * dictionary's tables (about 24 MiB at level 9 with 2 MiB of content) do not fit L2, as in the replay. Run: {@code
 * ./bench engine CompressBenchmark -p values=DIR}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 2, jvmArgsAppend = "-Xmx2g")
@State(Scope.Thread)
public class CompressBenchmark {
    @Param({"/tmp/nb27/v3571"})
    public String values;

    /** The dictionary's size: autotune's pick on the generated wikis ({@code compress_dict=2m}). */
    @Param({"2097152"})
    public int dictionaryBytes;

    /** {@code content} (the sample's distinct bytes, {@link ContentDictionary}) or {@code trained} by zstd's trainer. */
    @Param({"content"})
    public String dictionaryKind;

    /** The level the dictionary is digested at ({@code compress_level=}; the engine's default with a dictionary). */
    @Param({"9"})
    public int level;

    private byte[][] inserts;
    private byte[] dst;
    private FrameWriter engine;
    private ZstdCompressCtx oneFrame;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        Path dir = Path.of(values);
        if (!Files.exists(dir.resolve("inserts.bin")))
            throw new IllegalStateException(dir + ": run docs/scripts/heldout_bytes.py --export DUMP TRACE " + dir);
        List<byte[]> sample = DecompressBenchmark.read(dir.resolve("sample.bin"));
        byte[] dict;
        if (dictionaryKind.equals("content")) {
            dict = ContentDictionary.build(sample, dictionaryBytes);
        } else {
            ZstdDictTrainer trainer =
                    new ZstdDictTrainer((int) Math.max(Table.SAMPLE_BYTES, 16L * dictionaryBytes), dictionaryBytes);
            for (byte[] v : sample) if (!trainer.addSample(v)) break;
            dict = trainer.trainSamples();
        }
        ZstdDictCompress digested = new ZstdDictCompress(dict, level);
        engine = FrameWriter.withDictionary(digested, level);
        oneFrame = new ZstdCompressCtx().loadDict(digested);
        inserts = DecompressBenchmark.read(dir.resolve("inserts.bin")).toArray(new byte[0][]);
        int longest = 0;
        for (byte[] v : inserts) longest = Math.max(longest, v.length);
        dst = new byte[FrameWriter.bound(longest)];
        long raw = 0, pieces = 0, whole = 0, above = 0;
        int cutoff = FrameWriter.attachCutoff(level);
        for (byte[] v : inserts) {
            raw += v.length;
            pieces += engine.compress(dst, v, v.length);
            whole += oneFrame.compressByteArray(dst, 0, dst.length, v, 0, v.length);
            if (v.length > cutoff) above++;
        }
        System.out.printf(
                Locale.ROOT,
                "%n%s: %,d inserted values, %,d bytes, %,d above the %d KiB cutoff; dictionary %,d bytes (%s, level %d);"
                        + " frames %,d bytes in pieces, %,d one frame a value (%.2f%% more)%n",
                dir,
                inserts.length,
                raw,
                above,
                cutoff >> 10,
                dict.length,
                dictionaryKind,
                level,
                pieces,
                whole,
                100.0 * (pieces - whole) / whole);
    }

    @Benchmark
    public void engine(Blackhole bh) {
        for (byte[] v : inserts) bh.consume(engine.compress(dst, v, v.length));
    }

    @Benchmark
    public void oneFrame(Blackhole bh) {
        for (byte[] v : inserts) bh.consume(oneFrame.compressByteArray(dst, 0, dst.length, v, 0, v.length));
    }
}
