package dev.wastecheck.engine.table;

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
 * <p>Thread-safe: a context holds one compression's state, so a call holds the writer's monitor (uncontended in a
 * replay, a few tens of ns against the µs a frame costs); the static calls were safe to share, and so is this.
 */
final class FrameWriter {
    private final ZstdCompressCtx context;

    private FrameWriter(ZstdCompressCtx context) {
        this.context = context;
    }

    /** A writer of frames made with {@code dictionary}, at the level it was digested with. */
    static FrameWriter withDictionary(ZstdDictCompress dictionary) {
        return new FrameWriter(new ZstdCompressCtx().loadDict(dictionary));
    }

    /** A writer of frames made without a dictionary, at {@code level}. */
    static FrameWriter plain(int level) {
        return new FrameWriter(new ZstdCompressCtx().setLevel(level));
    }

    /**
     * Compresses {@code src[0..len)} into {@code dst} (at least {@code Zstd.compressBound(len)} bytes) as one frame;
     * returns the frame's length. Throws {@code ZstdException} when zstd fails.
     */
    synchronized int compress(byte[] dst, byte[] src, int len) {
        return context.compressByteArray(dst, 0, dst.length, src, 0, len);
    }
}
