package dev.wastecheck.sources.load;

import org.apache.arrow.memory.util.MemoryUtil;

/**
 * Eight bytes of a byte array as one {@code long}, read through {@code Unsafe} (Arrow's
 * {@link MemoryUtil}) rather than a byte-array view's {@code VarHandle}: C1, which compiles the
 * launcher's runs below its line, makes the read one load, where the {@code VarHandle} is a
 * chain of calls with their checks ({@code Class.getComponentType}, {@code checkIndex},
 * {@code convEndian} showed as frames of their own in the fillers' profile). The reads are not
 * bounds-checked: each method checks {@code i + 8 <= b.length} itself.
 */
final class Words {
    private Words() {}

    /** {@code b[i, i+8)} with {@code b[i]} in the lowest byte. */
    static long little(byte[] b, int i) {
        if (i < 0 || i > b.length - 8) {
            throw new ArrayIndexOutOfBoundsException(i);
        }
        long x = MemoryUtil.getLong(b, i);
        return MemoryUtil.LITTLE_ENDIAN ? x : Long.reverseBytes(x);
    }

    /** {@code b[i, i+8)} with {@code b[i]} in the highest byte: unsigned compares order as the bytes do. */
    static long big(byte[] b, int i) {
        if (i < 0 || i > b.length - 8) {
            throw new ArrayIndexOutOfBoundsException(i);
        }
        long x = MemoryUtil.getLong(b, i);
        return MemoryUtil.LITTLE_ENDIAN ? Long.reverseBytes(x) : x;
    }
}
