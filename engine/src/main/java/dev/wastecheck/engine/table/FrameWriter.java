package dev.wastecheck.engine.table;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdDictCompress;

/**
 * Compresses a table's single-value zstd frames ({@code compress=}, "No Bits Left Behind" §4.1) with one context
 * kept for them: one per trained dictionary ({@code Table}'s {@code FieldDictionary}), one for frames made without a
 * dictionary. zstd-jni's static calls ({@code Zstd.compressFastDict}, {@code Zstd.compressByteArray}) create and
 * free a compression context on every call, which at the dictionary's level 9 was most of a text write (28.6-35.0
 * µs a text against 16.8-18.8 µs with one context reused, docs/benchmarks.md, issue 27, "The measured cost,
 * profiled"). The frames are the static calls' byte for byte ({@code FrameWriterTest}): the context takes its level
 * from the digested dictionary, as {@code compressFastDict} does, and zstd's frame parameters are the same
 * (content size written, no checksum, the dictionary's id written).
 *
 * <p><b>A long value with a dictionary is several frames.</b> zstd compresses an input with a digested dictionary in
 * one of two ways: it <i>attaches</i> the dictionary's tables and searches them where they are, or it <i>copies</i>
 * them into the context first. It copies for an input above a cutoff that depends on the dictionary's strategy
 * (zstd's {@code attachDictSizeCutoffs}: 32 KiB for the greedy, lazy and binary-tree strategies of levels 5-17, 16
 * KiB for {@code dfast}, 8 KiB for {@code fast} and the ultra levels), and the tables of a large dictionary are
 * large: at level 9 with the 2 MiB content dictionary autotune picks ({@code compress_dict=2m}), about 24 MiB, so
 * the 19 texts above 32 KiB of the 862 the 2,000-page generated wiki's trace inserts took 1.8-3.6 ms each, half of
 * all the inserts' compression, against 20-90 µs for a text below the cutoff (docs/benchmarks.md, issue 27, "A long
 * text compressed in attached pieces"). So a value above the cutoff is written as frames of at most the cutoff's
 * bytes each, every one compressed with the dictionary attached, behind a zstd skippable frame that holds the
 * value's whole length (a reader must size its buffer, and a frame's header tells its own content only):
 *
 * <pre>
 * value of n bytes, n above the cutoff C (all integers little-endian)
 * +------------+-----------+----------+----------------------+----------------------+-----+------------------+
 * | 0x184D2A5E | 4 (i32)   | n (i32)  | frame: bytes [0, C)  | frame: bytes [C, 2C) | ... | frame: the rest  |
 * +------------+-----------+----------+----------------------+----------------------+-----+------------------+
 * 0            4           8          12
 * </pre>
 *
 * The skippable frame is zstd's own (RFC 8878 §3.1.2: magic 0x184D2A50-0x184D2A5F, a length, that many bytes the
 * decoder skips), so zstd decodes the whole as one value, frame after frame, with one call ({@link FrameReader}).
 * Each piece refers to the dictionary but not to the pieces before it: on those 19 texts the frames take 1.9% more
 * bytes (38,592 against 37,869). A value at most the cutoff is one frame, as before.
 *
 * <p>Thread-safe: a context holds one compression's state, so a call holds the writer's monitor (uncontended in a
 * replay, a few tens of ns against the µs a frame costs); the static calls were safe to share, and so is this.
 */
final class FrameWriter {
    /** The skippable frame's magic number ahead of a value written as several frames (zstd's range ends 0x184D2A5F). */
    static final int SEVERAL_FRAMES = 0x184D2A5E;
    /** The skippable frame's bytes: magic, its payload's length (4), the value's length. */
    static final int HEADER_BYTES = 12;

    private final ZstdCompressCtx context;
    /** The most bytes one frame holds; 0: any value is one frame (no dictionary, or zstd's cutoff unknown). */
    private final int piece;

    private FrameWriter(ZstdCompressCtx context, int piece) {
        this.context = context;
        this.piece = piece;
    }

    /**
     * A writer of frames made with {@code dictionary}, at the level it was digested with ({@code level}): a value
     * above zstd's attach cutoff for that level ({@link #attachCutoff}) is written as several frames.
     */
    static FrameWriter withDictionary(ZstdDictCompress dictionary, int level) {
        return new FrameWriter(new ZstdCompressCtx().loadDict(dictionary), attachCutoff(level));
    }

    /** A writer of frames made without a dictionary, at {@code level}: one frame a value (nothing to attach). */
    static FrameWriter plain(int level) {
        return new FrameWriter(new ZstdCompressCtx().setLevel(level), 0);
    }

    /**
     * The largest input zstd 1.5 compresses with a digested dictionary attached rather than copied, for a dictionary
     * digested at {@code level}: its cutoff for the strategy that level takes with a dictionary above 256 KiB
     * (zstd's {@code attachDictSizeCutoffs} and its first table of levels): {@code fast} (levels 1 and below) 8
     * KiB, {@code dfast} (2-4) 16 KiB, greedy to {@code btopt} (5-17) 32 KiB, the ultra strategies (18 and up) 8
     * KiB. A smaller dictionary may take another strategy at the same level; its tables are then small, and a copy
     * of them cheap.
     */
    static int attachCutoff(int level) {
        if (level <= 1 || level >= 18) return 8 << 10;
        if (level <= 4) return 16 << 10;
        return 32 << 10;
    }

    /** The most bytes {@link #compress} writes for a value of {@code len} bytes: what {@code dst} must hold. */
    static int bound(int len) {
        long b = Zstd.compressBound(len);
        // several frames: each piece's bound, and the skippable frame (the cutoff is at least 8 KiB)
        long pieces = (len + (8L << 10) - 1) / (8 << 10);
        return (int) Math.min(Integer.MAX_VALUE - 8, b + HEADER_BYTES + pieces * Zstd.compressBound(0));
    }

    /**
     * The length of the value the frames {@code src[off..off+len)} hold: the skippable frame's where the value is
     * several frames, the frame header's otherwise; negative when the header does not tell.
     */
    static long contentSize(byte[] src, int off, int len) {
        if (len >= HEADER_BYTES && intAt(src, off) == SEVERAL_FRAMES && intAt(src, off + 4) == 4)
            return Integer.toUnsignedLong(intAt(src, off + 8));
        return Zstd.getFrameContentSize(src, off, len);
    }

    private static int intAt(byte[] b, int i) {
        return (b[i] & 0xff) | (b[i + 1] & 0xff) << 8 | (b[i + 2] & 0xff) << 16 | (b[i + 3] & 0xff) << 24;
    }

    private static void putInt(byte[] b, int i, int v) {
        b[i] = (byte) v;
        b[i + 1] = (byte) (v >>> 8);
        b[i + 2] = (byte) (v >>> 16);
        b[i + 3] = (byte) (v >>> 24);
    }

    /**
     * Compresses {@code src[0..len)} into {@code dst} (at least {@link #bound}{@code (len)} bytes): one frame, or
     * for a value above the cutoff the skippable frame and one frame a piece; returns the bytes written. Throws
     * {@code ZstdException} when zstd fails.
     */
    synchronized int compress(byte[] dst, byte[] src, int len) {
        if (piece == 0 || len <= piece) return context.compressByteArray(dst, 0, dst.length, src, 0, len);
        putInt(dst, 0, SEVERAL_FRAMES);
        putInt(dst, 4, 4);
        putInt(dst, 8, len);
        int out = HEADER_BYTES;
        for (int at = 0; at < len; at += piece)
            out += context.compressByteArray(dst, out, dst.length - out, src, at, Math.min(piece, len - at));
        return out;
    }
}
