package dev.wastecheck.sources;

import java.io.EOFException;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.zip.GZIPInputStream;
import java.util.zip.ZipException;

/**
 * Gzip-compressed input whose damage is reported as bad input naming the file and how far it
 * decompressed: a gzip cut short ({@code Unexpected end of ZLIB input stream}) or with a corrupted
 * body is exit 2 with the file's name, not "cannot read input".
 */
public final class GzipInput extends FilterInputStream {
    private final String name;
    private long produced;

    private GzipInput(InputStream in, String name) {
        super(in);
        this.name = name;
    }

    /** Whether the stream (which must support mark) starts with gzip's magic bytes; it is left at its start. */
    public static boolean isGzip(InputStream in) throws IOException {
        in.mark(2);
        int b0 = in.read();
        int b1 = in.read();
        in.reset();
        return b0 == 0x1f && b1 == 0x8b;
    }

    /** The decompressed content of {@code raw}, a gzip stream. */
    public static InputStream open(InputStream raw, String name) throws IOException {
        try {
            return new GzipInput(new GZIPInputStream(raw, 1 << 16), name);
        } catch (EOFException | ZipException e) {
            throw damaged(name, 0, e);
        }
    }

    @Override
    public int read() throws IOException {
        try {
            int b = super.read();
            if (b >= 0) {
                produced++;
            }
            return b;
        } catch (EOFException | ZipException e) {
            throw damaged(name, produced, e);
        }
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        try {
            int n = super.read(b, off, len);
            if (n > 0) {
                produced += n;
            }
            return n;
        } catch (EOFException | ZipException e) {
            throw damaged(name, produced, e);
        }
    }

    private static DumpFormatException damaged(String name, long produced, IOException e) {
        String what = e instanceof EOFException
                ? "the gzip data ends early (the file is truncated)"
                : "the gzip data is corrupted (" + e.getMessage() + ")";
        return new DumpFormatException(name + ": " + what + ", after " + produced + " bytes of decompressed content");
    }
}
