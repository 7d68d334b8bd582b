package dev.wastecheck.engine.table;

import com.github.luben.zstd.Zstd;
import com.github.luben.zstd.ZstdDictCompress;
import com.github.luben.zstd.ZstdDictDecompress;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * One partition's long values of one compressed field ({@code compress=...,compress_block=SIZE}),
 * compressed many at a time: values are appended, in the order the partition stores them, to an
 * open block of raw bytes; once the next value would take it past the block size, the block is
 * sealed, compressed as one zstd frame (with the field's trained dictionary once there is one),
 * and written to the partition's {@link OverflowStore} pages like any long value, so its pages
 * cost buffer-pool memory and device reads. A value never spans blocks: one longer than the block
 * size is a block alone. Reading a value decompresses its whole block (the cost the engines that
 * compress in blocks pay: InnoDB's compressed pages, RocksDB's and Parquet's blocks, MediaWiki's
 * external storage of revisions compressed together), and {@link #decompressedBytes} counts it.
 *
 * <p>"No Bits Left Behind" §4.1 compresses "large fields that are never read" value by value and
 * leaves the codec open; a block is our choice, made because the hot partition of §3.1 holds every
 * page's latest revision side by side, and texts of one wiki share most of their bytes.
 *
 * <pre>
 * a sealed block: one zstd frame in the partition's overflow pages (OverflowStore: it may continue
 * on the next page), found through the block table below
 * +----------------------------------------------------------------------------------+
 * | zstd frame: header (content size = raw bytes), compressed blocks, checksum       |
 * +----------------------------------------------------------------------------------+
 *   decompressed:
 * +-------------------+-------------------+-----+-------------------+------------+
 * | value 0 (plain)   | value 1 (plain)   | ... | value k-1         |  (no gaps) |
 * +-------------------+-------------------+-----+-------------------+------------+
 * 0                   off1                       off(k-1)           raw <= SIZE, or one value longer
 *
 * block table entry (in memory, beside the pool; {@value #ENTRY_BYTES} bytes each, a side byte of the working set)
 * +-----------+----------+------------+----------+------+
 * | page i64  | off i32  | frame i32  | raw i32  | dict |   dict: 1 if made with the trained dictionary
 * +-----------+----------+------------+----------+------+
 *
 * the field's reference in the record (tag 6, little-endian, 13 bytes)
 * +-----+-------------+-------------+-------------+
 * |  6  | block i32   | offset i32  | length i32  |    offset and length in the decompressed block
 * +-----+-------------+-------------+-------------+
 * 0     1             5             9             13
 * </pre>
 *
 * The open block (not yet sealed) lives in memory and counts as side bytes of the working set
 * ({@link #sideBytes}). Append-only: a value that leaves the partition (a demotion, §3.1) or is
 * rewritten leaves its bytes in its block as garbage; its tuple's new copy is written where it goes.
 */
public final class BlockOverflow {
    /** The record's tag of a value kept in a block. */
    public static final byte TAG = 6;

    public static final int REF_BYTES = 13;
    static final int ENTRY_BYTES = 21;

    private final OverflowStore pages;
    private final int blockSize;
    private final int level;
    private final String what;

    private byte[] open;
    private int openLength;
    private int blocks; // sealed
    private long[] page = new long[16];
    private int[] frameOffset = new int[16], frameLength = new int[16], rawLength = new int[16];
    private boolean[] dictionary = new boolean[16];
    private long decompressed, dictionaryFrameBytes, plainDecompressed, decompressions;
    private final byte[] refScratch = new byte[OverflowStore.REF_BYTES];

    /**
     * @param pages     the partition's overflow pages, where sealed blocks go
     * @param blockSize the raw bytes a block holds before it is sealed
     * @param level     zstd's level
     * @param what      table.field, for messages
     */
    BlockOverflow(OverflowStore pages, int blockSize, int level, String what) {
        this.pages = pages;
        this.blockSize = blockSize;
        this.level = level;
        this.what = what;
        this.open = new byte[blockSize];
    }

    /**
     * Appends {@code len} bytes of {@code src} and writes the 13-byte reference into {@code ref} at
     * {@code refOff}; a block it fills is sealed with {@code dict} (null: no dictionary).
     */
    public void store(byte[] src, int off, int len, byte[] ref, int refOff, ZstdDictCompress dict) {
        if (openLength > 0 && openLength + len > blockSize) seal(dict);
        if (open.length < len) open = Arrays.copyOf(open, len); // a value longer than a block: a block alone
        System.arraycopy(src, off, open, openLength, len);
        ByteBuffer.wrap(ref, refOff, REF_BYTES)
                .order(ByteOrder.LITTLE_ENDIAN)
                .put(TAG)
                .putInt(blocks)
                .putInt(openLength)
                .putInt(len);
        openLength += len;
        if (openLength >= blockSize) seal(dict);
    }

    /** Compresses the open block as one frame into the overflow pages. */
    private void seal(ZstdDictCompress dict) {
        if (openLength == 0) return;
        byte[] frame = new byte[(int) Zstd.compressBound(openLength)];
        long n = dict != null
                ? Zstd.compressFastDict(frame, 0, open, 0, openLength, dict)
                : Zstd.compressByteArray(frame, 0, frame.length, open, 0, openLength, level);
        if (Zstd.isError(n)) throw new IllegalStateException(what + ": zstd failed: " + Zstd.getErrorName(n));
        pages.store(frame, 0, (int) n, refScratch, 0);
        ByteBuffer r = ByteBuffer.wrap(refScratch).order(ByteOrder.LITTLE_ENDIAN);
        if (blocks == page.length) {
            int m = blocks * 2;
            page = Arrays.copyOf(page, m);
            frameOffset = Arrays.copyOf(frameOffset, m);
            frameLength = Arrays.copyOf(frameLength, m);
            rawLength = Arrays.copyOf(rawLength, m);
            dictionary = Arrays.copyOf(dictionary, m);
        }
        page[blocks] = r.getLong(1);
        frameOffset[blocks] = r.getInt(9);
        frameLength[blocks] = (int) n;
        rawLength[blocks] = openLength;
        dictionary[blocks] = dict != null;
        blocks++;
        openLength = 0;
        if (open.length > blockSize) open = new byte[blockSize];
    }

    /** The length of the value a reference at {@code ref[refOff]} names. */
    public static int length(byte[] ref, int refOff) {
        return ByteBuffer.wrap(ref).order(ByteOrder.LITTLE_ENDIAN).getInt(refOff + 9);
    }

    /**
     * Copies the value a reference names into {@code dst} (at least {@link #length} bytes): from the
     * open block, or by reading its sealed block's frame from the pages and decompressing all of it.
     */
    void read(byte[] ref, int refOff, byte[] dst, ZstdDictDecompress dict, FrameReader frames) {
        ByteBuffer r = ByteBuffer.wrap(ref).order(ByteOrder.LITTLE_ENDIAN);
        int block = r.getInt(refOff + 1);
        int off = r.getInt(refOff + 5);
        int len = r.getInt(refOff + 9);
        if (block < 0 || block > blocks || off < 0 || len < 0)
            throw new IllegalStateException(what + ": corrupt block reference");
        if (block == blocks) { // the open block
            if (off + len > openLength) throw new IllegalStateException(what + ": corrupt block reference");
            System.arraycopy(open, off, dst, 0, len);
            return;
        }
        int raw = rawLength[block];
        if (off + len > raw) throw new IllegalStateException(what + ": corrupt block reference");
        ByteBuffer fr = ByteBuffer.allocate(OverflowStore.REF_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        fr.put(OverflowStore.OUT_OF_LINE)
                .putLong(page[block])
                .putInt(frameOffset[block])
                .putInt(frameLength[block]);
        byte[] frame = new byte[frameLength[block]];
        pages.read(fr.array(), 0, frame);
        if (dictionary[block] && dict == null) throw new IllegalStateException(what + ": block without its dictionary");
        byte[] plain = new byte[raw];
        if (!frames.decompress(plain, raw, frame, 0, frame.length, dictionary[block] ? dict : null))
            throw new IllegalStateException(what + ": corrupt zstd frame");
        decompressed += raw;
        if (dictionary[block]) dictionaryFrameBytes += frame.length;
        else plainDecompressed += raw;
        decompressions++;
        System.arraycopy(plain, off, dst, 0, len);
    }

    /** Sealed blocks. */
    public int blocks() {
        return blocks;
    }

    /** Raw bytes decompressed by reads so far, and the reads that decompressed a block. */
    public long decompressedBytes() {
        return decompressed;
    }

    /** Bytes of the blocks made with the dictionary that reads have decoded so far (their frames' bytes). */
    public long dictionaryFrameBytes() {
        return dictionaryFrameBytes;
    }

    /** Bytes reads have decompressed so far from blocks made without a dictionary. */
    public long plainDecompressedBytes() {
        return plainDecompressed;
    }

    public long decompressions() {
        return decompressions;
    }

    /** Memory beside the pool that reads use: the block table and the open block. */
    public long sideBytes() {
        return (long) blocks * ENTRY_BYTES + open.length;
    }
}
