package dev.wastecheck.sources.load;

import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.util.MemoryUtil;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * {@link Utf8#chars} (the shift-based DFA) against the SWAR loop it replaced (kept here, verbatim
 * but for its word read, as the baseline), on the same values in the same fork: an invocation
 * checks and counts every value of a shape, and the score is time per invocation, so the two
 * methods' ratio is their ratio a byte. Shapes: {@code text} (the bench's text shape, {@code
 * ShapeDumps.TEXT}'s body: a multi-byte word every few words, 200-3,000 characters), {@code
 * english} (ASCII words with an accented one about every hundred, 200-3,000 characters), {@code
 * short} (ASCII words of 4-33 characters, then one of the text shape's words: 7-45 bytes).
 * Values are generated here, no file needed: {@code ./bench sources Utf8Benchmark}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 10, time = 1)
@Fork(
        value = 2,
        jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED"})
public class Utf8Benchmark {

    @Param({"text", "english", "short"})
    public String shape;

    private byte[] bytes;
    private int[] offsets;
    private int[] lengths;

    private static final String[] MIXED = {
        "données",
        "naïve",
        "Straße",
        "über",
        "东京",
        "データ",
        "😀",
        "quick",
        "brown",
        "fox",
        "jumps",
        "over",
        "the",
        "lazy",
        "dog",
        "\"quoted\"",
        "comma,",
        "it's",
        "résumé",
        "café",
        "Москва",
        "λόγος",
        "emoji🎉",
        "table",
        "row"
    };

    private static final String[] ASCII = {
        "the",
        "quick",
        "brown",
        "fox",
        "jumps",
        "over",
        "lazy",
        "dog",
        "database",
        "table",
        "column",
        "index",
        "page",
        "record",
        "value",
        "storage",
        "engine",
        "query"
    };

    @Setup
    public void setUp() {
        SplittableRandom r = new SplittableRandom(3629);
        List<byte[]> values = new ArrayList<>();
        long total = 0;
        while (total < (16 << 20)) {
            String v = switch (shape) {
                case "text" -> words(r, MIXED, 200 + r.nextInt(2800), 0);
                case "english" -> words(r, ASCII, 200 + r.nextInt(2800), 100);
                case "short" -> words(r, ASCII, 4 + r.nextInt(30), 0) + " " + MIXED[r.nextInt(MIXED.length)];
                default -> throw new IllegalArgumentException(shape);
            };
            byte[] b = v.getBytes(StandardCharsets.UTF_8);
            values.add(b);
            total += b.length;
        }
        bytes = new byte[(int) total];
        offsets = new int[values.size()];
        lengths = new int[values.size()];
        int at = 0;
        for (int i = 0; i < values.size(); i++) {
            byte[] b = values.get(i);
            System.arraycopy(b, 0, bytes, at, b.length);
            offsets[i] = at;
            lengths[i] = b.length;
            at += b.length;
        }
        if (dfa() != swarBaseline()) {
            throw new IllegalStateException("the two counts differ on " + shape);
        }
    }

    /** Words of {@code pool} to {@code chars} characters; every {@code accentEvery}th (0: none) with an é. */
    private static String words(SplittableRandom r, String[] pool, int chars, int accentEvery) {
        StringBuilder b = new StringBuilder(chars + 16);
        while (b.length() < chars) {
            if (b.length() > 0) {
                b.append(' ');
            }
            b.append(pool[r.nextInt(pool.length)]);
            if (accentEvery > 0 && r.nextInt(accentEvery) == 0) {
                b.append('é');
            }
        }
        return b.toString();
    }

    /** The characters of every value, by {@link Utf8#chars}. */
    @Benchmark
    public long dfa() {
        long sum = 0;
        for (int i = 0; i < offsets.length; i++) {
            sum += Utf8.chars(bytes, offsets[i], lengths[i]);
        }
        return sum;
    }

    /** The same by the SWAR loop {@link Utf8#chars} replaced. */
    @Benchmark
    public long swarBaseline() {
        long sum = 0;
        for (int i = 0; i < offsets.length; i++) {
            sum += swar(bytes, offsets[i], lengths[i]);
        }
        return sum;
    }

    private static final long HIGH = 0x8080808080808080L;
    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /** fcd17fa's Utf8.chars: each byte of a word classed by its high bits at once. */
    static int swar(byte[] b, int off, int len) {
        int end = off + len;
        int i = off;
        int continuations = 0;
        long carried = 0;
        long afterE0 = 0, afterED = 0, afterF0 = 0, afterF4 = 0;
        while (i < end) {
            long w;
            if (i + 8 <= end) {
                w = MemoryUtil.getLong(b, i);
                if (!LITTLE_ENDIAN) {
                    w = Long.reverseBytes(w);
                }
                i += 8;
            } else {
                w = 0;
                for (int k = 0; i < end; k += 8) {
                    w |= (b[i++] & 0xffL) << k;
                }
            }
            long hi = w & HIGH;
            if (hi == 0) {
                if (carried != 0) {
                    return -1;
                }
                continue;
            }
            long b6 = (w << 1) & HIGH;
            long b5 = (w << 2) & HIGH;
            long b4 = (w << 3) & HIGH;
            long b3 = (w << 4) & HIGH;
            long b2 = (w << 5) & HIGH;
            long b1 = (w << 6) & HIGH;
            long b0 = (w << 7) & HIGH;
            long cont = hi & ~b6;
            long lead = hi & b6;
            long lead2 = lead & ~b5;
            long lead3 = lead & b5 & ~b4;
            long lead4 = lead & b5 & b4 & ~b3;
            long bad = (lead & b5 & b4 & b3) | (lead2 & ~(b4 | b3 | b2 | b1)) | (lead4 & b2 & (b1 | b0));
            long any = lead2 | lead3 | lead4;
            long long3 = lead3 | lead4;
            if (bad != 0 || (carried | any << 8 | long3 << 16 | lead4 << 24) != cont) {
                return -1;
            }
            carried = any >>> 56 | long3 >>> 48 | lead4 >>> 40;
            long low0 = ~(b2 | b1 | b0);
            long e0 = lead3 & ~b3 & low0;
            long ed = lead3 & b3 & b2 & ~b1 & b0;
            long f0 = lead4 & low0;
            long f4 = lead4 & b2 & ~b1 & ~b0;
            if (((afterE0 | e0 << 8) & ~b5) != 0
                    || ((afterED | ed << 8) & b5) != 0
                    || ((afterF0 | f0 << 8) & ~(b5 | b4)) != 0
                    || ((afterF4 | f4 << 8) & (b5 | b4)) != 0) {
                return -1;
            }
            afterE0 = e0 >>> 56;
            afterED = ed >>> 56;
            afterF0 = f0 >>> 56;
            afterF4 = f4 >>> 56;
            continuations += (int) (((cont >>> 7) * 0x0101010101010101L) >>> 56);
        }
        return carried != 0 ? -1 : len - continuations;
    }
}
