package dev.wastecheck.layouts.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.concurrent.TimeUnit;
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
 * The scan's inner loop alone, in cache: {@code values} (4,096: 16 KB, L1-resident) Q6 dates
 * tested against [lo, hi] into a selection bitmap, 64 values to a word, from an {@code int[]}
 * and from a {@code byte[]} read through a little-endian VarHandle one {@code long} (two values)
 * at a time, with two formulations of the range test: {@code compare}
 * ({@code v >= lo & v <= hi ? 1 : 0}, which C2 (JDK 17) compiles to conditional jumps that
 * mispredict on a ~14% selective predicate) and {@code unsigned} (ColumnScan's: the sign bit of
 * {@code uint(v - lo) - (hi - lo + 1)}, no compare and no branch). {@code byteLongsCompare} is the
 * kernel PAX and HPL scanned with before; {@code byteLongsUnsigned} is ColumnScan's now, and
 * {@code intArrayUnsigned} the ARRAY baseline's.
 *
 * <p>It separates the kernel from the page: if a page-format kernel is as fast as the
 * {@code int[]} kernel here, where memory plays no part, a gap in ScanBenchmark comes from how
 * the kernel is compiled inside the page's scan or from memory (docs/benchmarks.md, layouts).
 * What would make it lie: the JIT specializing on constant bounds (they are fields) or
 * eliminating the loop (the count is returned and the selection is a field).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class ScanKernelBenchmark {
    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    @Param({"4096"})
    public int values;

    private int[] ints;
    private byte[] bytes;
    private long[] selection;
    private long lo = Shape.Q6_LO, hi = Shape.Q6_HI;

    @Setup
    public void setUp() {
        ints = new int[values];
        ByteBuffer buffer = ByteBuffer.allocate(values * 4).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < values; i++) {
            ints[i] = Shape.date(i);
            buffer.putInt(i * 4, ints[i]);
        }
        bytes = buffer.array();
        selection = new long[values / 64];
    }

    /** ColumnScan's bounds: the range's start as an int, and how many values it holds. */
    private int loInt() {
        return (int) lo;
    }

    private long span1() {
        return hi - lo + 1;
    }

    /** The ARRAY baseline before. */
    @Benchmark
    public long intArrayCompare() {
        int[] c = ints;
        long lo = this.lo, hi = this.hi, matches = 0;
        for (int w = 0; w < selection.length; w++) {
            long bits = 0;
            for (int j = 0; j < 64; j++) {
                long v = c[(w << 6) + j];
                bits |= (v >= lo & v <= hi ? 1L : 0L) << j;
            }
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }

    @Benchmark
    public long byteLongsCompare() {
        byte[] a = bytes;
        long lo = this.lo, hi = this.hi, matches = 0;
        for (int w = 0; w < selection.length; w++) {
            long bits = 0;
            int at = w << 8;
            for (int j = 0; j + 1 < 64; j += 2) {
                long pair = (long) LONGS.get(a, at + (j << 2));
                long v0 = (int) pair, v1 = pair >> 32;
                bits |= (v0 >= lo & v0 <= hi ? 1L : 0L) << j | (v1 >= lo & v1 <= hi ? 2L : 0L) << j;
            }
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }

    @Benchmark
    public long intArrayUnsigned() {
        int[] c = ints;
        int lo = loInt();
        long span1 = span1(), matches = 0;
        for (int w = 0; w < selection.length; w++) {
            long bits = 0;
            for (int j = 0; j < 64; j++) {
                bits |= ((Integer.toUnsignedLong(c[(w << 6) + j] - lo) - span1) >>> 63) << j;
            }
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }

    @Benchmark
    public long byteLongsUnsigned() {
        byte[] a = bytes;
        int lo = loInt();
        long span1 = span1(), matches = 0;
        for (int w = 0; w < selection.length; w++) {
            long bits = 0;
            int at = w << 8;
            for (int j = 0; j < 64; j += 2) {
                long pair = (long) LONGS.get(a, at + (j << 2));
                long b0 = (Integer.toUnsignedLong((int) pair - lo) - span1) >>> 63;
                long b1 = (Integer.toUnsignedLong((int) (pair >>> 32) - lo) - span1) >>> 63;
                bits |= (b0 | b1 << 1) << j;
            }
            selection[w] = bits;
            matches += Long.bitCount(bits);
        }
        return matches;
    }
}
