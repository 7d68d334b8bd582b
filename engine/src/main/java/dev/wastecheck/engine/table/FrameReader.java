package dev.wastecheck.engine.table;

import com.github.luben.zstd.ZstdDecompressCtx;
import com.github.luben.zstd.ZstdDictDecompress;
import com.github.luben.zstd.ZstdException;
import java.util.IdentityHashMap;
import java.util.Map;

/**
 * Decompresses a table's zstd frames ({@code compress=}, "No Bits Left Behind" §4.1) with contexts kept
 * for its reads: one for frames made without a dictionary, one per trained dictionary (loaded once).
 * zstd-jni's static calls ({@code Zstd.decompressFastDict}, {@code Zstd.decompressByteArray}) create
 * and free a decompression context on every call; reusing one is what the engine's constants
 * {@code Autotune.DECODE_US_PER_DICTIONARY_FRAME_BYTE} and {@code DECOMPRESS_US_PER_PLAIN_BYTE} were measured with ({@code DecompressBenchmark}, docs/benchmarks.md,
 * issue 27). Not thread-safe: a table's reads share its scratch buffers already.
 */
final class FrameReader {
    private ZstdDecompressCtx plain;
    private final Map<ZstdDictDecompress, ZstdDecompressCtx> withDictionary = new IdentityHashMap<>();
    /**
     * The dictionary of the last frame read and its context: a table's reads decode with one dictionary (a table
     * trains one per compressed field), and the map's identity hash lookup on every frame was 6% of the samples of
     * a held-out lookup's {@code Table.find} (docs/benchmarks.md, issue 27).
     */
    private ZstdDictDecompress lastDictionary;

    private ZstdDecompressCtx lastContext;

    /**
     * Decompresses the frame {@code src[off..off+len)}, whose content is {@code n} bytes, into
     * {@code dst[0..n)}, with {@code dict} when the frame was made with it (null otherwise).
     * Returns false when the frame is corrupt or does not hold {@code n} bytes.
     */
    boolean decompress(byte[] dst, int n, byte[] src, int off, int len, ZstdDictDecompress dict) {
        ZstdDecompressCtx ctx = context(dict);
        try {
            return ctx.decompressByteArray(dst, 0, n, src, off, len) == n;
        } catch (ZstdException corrupt) {
            return false;
        }
    }

    private ZstdDecompressCtx context(ZstdDictDecompress dict) {
        if (dict == null) {
            if (plain == null) plain = new ZstdDecompressCtx();
            return plain;
        }
        if (dict == lastDictionary) return lastContext;
        ZstdDecompressCtx c = withDictionary.get(dict);
        if (c == null) {
            c = new ZstdDecompressCtx().loadDict(dict);
            withDictionary.put(dict, c);
        }
        lastDictionary = dict;
        lastContext = c;
        return c;
    }
}
