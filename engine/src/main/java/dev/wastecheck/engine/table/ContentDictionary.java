package dev.wastecheck.engine.table;

import java.util.Arrays;

/**
 * A raw-content zstd dictionary made of a field's own values ({@code compress_dict_kind=content}): the sampled
 * values are read in order and every run of their bytes that the dictionary does not hold yet is appended to it,
 * once, until it is full. zstd's trainer ({@code ZstdDictTrainer}, the default kind) instead picks the segments
 * that occur most often and keeps a few bytes of each; when the values are cut from a body of text that they
 * share (an article's revisions, boilerplate, templates: "No Bits Left Behind" §4.1's large fields, which are
 * "only projected"), a dictionary that holds the body whole lets a frame name a value as a few long references
 * into it (docs/benchmarks.md, issue 27, "A dictionary of the values' own bytes": 34 bytes a 4.8 KB text against
 * 230 with a trained dictionary of the same size).
 *
 * <p>Bytes: the dictionary has no header and no entropy tables, which is what zstd calls a raw-content
 * dictionary ({@code ZSTD_dct_rawContent}; zstd-jni's {@code ZstdDictCompress(byte[], level)} loads any buffer
 * that does not begin with the dictionary magic number as one):
 *
 * <pre>
 * offset 0                                                              n <= cap
 * +----------------+----------------+----------------+-----+-------------+
 * | run of value 1 | run of value 1 | run of value 2 | ... | run of v. k |   runs of at least MIN_RUN bytes that
 * +----------------+----------------+----------------+-----+-------------+   no earlier run repeats (by anchor)
 * (byte 0 is a 0 pad only when the first run would begin with 37 A4 30 EC, the magic, so zstd never parses it)
 * </pre>
 *
 * A run is new when none of its {@link #MIN_RUN}-byte windows is found in the dictionary by a hash of the window
 * (checked byte by byte); a found window is extended forward as far as the bytes agree and skipped. Gaps shorter
 * than {@link #MIN_RUN} between two matches are left out: a frame codes them as literals. So the dictionary holds
 * each distinct stretch of the sample about once, in the order the sample first shows it; runs are cut where the
 * dictionary fills.
 */
final class ContentDictionary {
    /** The shortest run appended, and the window a match is looked up by. */
    static final int MIN_RUN = 32;
    /** zstd's dictionary magic number, little-endian: a buffer beginning with it is parsed as a trained dictionary. */
    private static final int MAGIC = 0xEC30A437;

    private final byte[] bytes;
    private int length;
    private final int[] table;
    private final int bits;

    private ContentDictionary(int cap) {
        bytes = new byte[cap];
        bits = Math.max(16, Math.min(24, 32 - Integer.numberOfLeadingZeros(Math.max(1, cap - 1)) + 1));
        table = new int[1 << bits];
        Arrays.fill(table, -1);
    }

    /**
     * The dictionary of {@code values}' distinct runs, at most {@code cap} bytes; null when it would hold fewer
     * than 8 bytes (zstd's least raw-content dictionary).
     */
    static byte[] build(Iterable<byte[]> values, int cap) {
        if (cap < 8) throw new IllegalArgumentException("a content dictionary of " + cap + " B: expected 8 or more");
        ContentDictionary d = new ContentDictionary(cap);
        for (byte[] v : values) {
            if (d.length >= cap) break;
            d.add(v);
        }
        return d.length < 8 ? null : d.finish();
    }

    private void add(byte[] v) {
        int i = 0, runStart = 0;
        while (i + MIN_RUN <= v.length && length < bytes.length) {
            int at = table[hash(v, i)];
            if (at >= 0 && at + MIN_RUN <= length && Arrays.equals(bytes, at, at + MIN_RUN, v, i, i + MIN_RUN)) {
                append(v, runStart, i);
                int j = i + MIN_RUN, e = at + MIN_RUN;
                while (j < v.length && e < length && bytes[e] == v[j]) {
                    j++;
                    e++;
                }
                i = j;
                runStart = j;
            } else {
                i++;
            }
        }
        append(v, runStart, v.length);
    }

    /** Appends {@code v[from, to)} when it is at least a run long, as far as the dictionary has room; indexes it. */
    private void append(byte[] v, int from, int to) {
        if (to - from < MIN_RUN) return;
        if (length == 0 && to - from >= 4 && leInt(v, from) == MAGIC) bytes[length++] = 0;
        int take = Math.min(to - from, bytes.length - length);
        if (take <= 0) return;
        System.arraycopy(v, from, bytes, length, take);
        int first = Math.max(0, length - MIN_RUN + 1);
        length += take;
        for (int p = first; p + MIN_RUN <= length; p++) {
            int h = hash(bytes, p);
            if (table[h] < 0) table[h] = p;
        }
    }

    private byte[] finish() {
        return Arrays.copyOf(bytes, length);
    }

    private int hash(byte[] a, int off) {
        long h = 0;
        for (int i = 0; i < MIN_RUN; i += 8) h = (h ^ leLong(a, off + i)) * 0x9E3779B97F4A7C15L;
        return (int) (h >>> (64 - bits));
    }

    private static long leLong(byte[] a, int off) {
        long x = 0;
        for (int i = 7; i >= 0; i--) x = (x << 8) | (a[off + i] & 0xff);
        return x;
    }

    private static int leInt(byte[] a, int off) {
        return (a[off] & 0xff) | (a[off + 1] & 0xff) << 8 | (a[off + 2] & 0xff) << 16 | (a[off + 3] & 0xff) << 24;
    }
}
