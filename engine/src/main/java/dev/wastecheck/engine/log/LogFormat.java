package dev.wastecheck.engine.log;

import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * The bytes of the write-ahead log and of checkpoints (Li et al., "Mainlining Databases", VLDB 2020,
 * §3.4): physical after-images of tuples addressed by their {@code TupleSlot}, framed as records with
 * a length each, in frames (one a redo buffer segment) that carry the transaction and one checksum for
 * all their records. No log sequence numbers: the order that counts is the commit
 * timestamp in each transaction's COMMIT record, and the log manager writes COMMIT records in that
 * order. All integers little-endian.
 *
 * <pre>
 * Log file                                  Checkpoint file
 * +0  MAGIC    8 bytes "WCLOG\0\0\1"        +0  MAGIC    8 bytes "WCCKPT\0\1"
 * +8  VERSION  int32 (2)                    +8  VERSION  int32 (2)
 * +12 RESERVED int32 (0)                    +12 RESERVED int32 (0)
 * +16 frames ... back to back               +16 frames of TABLE records, TUPLE records, one END record
 * +n  zeros to the end of the file: 0 to
 *     BLOCK - 1 bytes (BLOCK: the file
 *     system's block size, 4,096 on ext4)
 *
 * The log's last block, as the log manager writes it with O_DIRECT (whole aligned blocks)
 *  BLOCK*k                           position (the log's end)       BLOCK*(k+1) = the file's size
 * +---------------------------------+------------------------------+
 * | the last frames' bytes          | zeros (the clean end)        |
 * +---------------------------------+------------------------------+
 *   The next group is written from BLOCK*k again: the same bytes, then its frames. A reader takes
 *   zeros from a frame's start to the end of the file as the end of the log; zeros followed by
 *   any other byte are damage (a write that reached the disk in part). close() cuts the zeros off.
 *
 * One frame: the records of one redo buffer segment, all of one transaction (FRAME_HEADER_SIZE = 16)
 *  0        4          8                16
 * +--------+----------+----------------+------------------------------------------------------+
 * | LENGTH | CHECKSUM | TXN            | records back to back (LENGTH - 16 bytes)             |
 * | int32  | int32    | int64          |                                                      |
 * +--------+----------+----------------+------------------------------------------------------+
 *   LENGTH   bytes of the whole frame, header included (16 for a frame of no records)
 *   CHECKSUM CRC32C of bytes [8, LENGTH) of the frame (TXN and every record in it)
 *   TXN      begin sequence of the writing transaction (unique per run of the log); 0 for the log
 *            manager's CHECKPOINT record and in checkpoint files
 *   A reader takes a frame whole or not at all: its records are handed out only once its LENGTH fits
 *   the file, its CHECKSUM matches and every record in it is whole and of a known TYPE.
 *
 * One record in a frame (RECORD_HEADER_SIZE = 5)
 *  0        4     5
 * +--------+-----+------------------------------------+
 * | LENGTH | TYPE| payload (LENGTH - 5 bytes)         |
 * | int32  | int8|                                    |
 * +--------+-----+------------------------------------+
 *   LENGTH   bytes of the whole record, header included; the record ends within its frame
 *
 * A transaction of n changes in one segment: one frame of 16 + 5 x (n + 1) bytes of headers, the
 * payloads, and COMMIT's timestamp (format version 1 repeated LENGTH, CHECKSUM and TXN in each of
 * the n + 1 records: 17 x (n + 1) bytes). A transaction that fills several segments writes one frame
 * for each, all with its TXN; recovery applies its changes once it has read its COMMIT record.
 *
 * payload by TYPE
 *   INSERT     1  TABLE int16 | SLOT int64 | image of every column
 *   UPDATE     2  TABLE int16 | SLOT int64 | MASK ceil(f/8) bytes | image of the columns in MASK, in column order
 *                 (f: the table's column count; bit c%8 of MASK byte c/8 set: column c was written)
 *   DELETE     3  TABLE int16 | SLOT int64
 *   COMMIT     4  COMMIT_TS int64
 *   ABORT      5  (empty: only written when part of the transaction's records reached the log early)
 *   CHECKPOINT 6  CHECKPOINT_TS int64 (the checkpoint file checkpoint-CHECKPOINT_TS.ckp is complete and forced)
 *   TUPLE      7  TABLE int16 | SLOT int64 | image of every column           (checkpoint files only)
 *   TABLE      8  TABLE int32 | COLUMNS int16 | NAME_LENGTH int16 | NAME utf-8 (checkpoint files only)
 *   END        9  CHECKPOINT_TS int64 | TUPLES int64                        (checkpoint files only)
 *
 * image of k columns
 * +----------------------+------------------------------------------------------------+
 * | NULLS ceil(k/8) bytes | per non-null column in order: fixed -> its width in bytes   |
 * | bit i set: column i   | (BIT: 1 byte); VARLEN -> LENGTH int32 then LENGTH bytes     |
 * | is NULL               |                                                             |
 * +----------------------+------------------------------------------------------------+
 * </pre>
 *
 * <p>The fixed values are the column's physical width, as the block stores them (§3.2), not 8 bytes
 * each: the log is an after-image of the block's values, not of Java's longs.
 */
public final class LogFormat {
    private LogFormat() {}

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    public static final long LOG_MAGIC = 0x01_00_00_47_4F_4C_43_57L; // "WCLOG\0\0\1" little-endian
    public static final long CHECKPOINT_MAGIC = 0x01_00_54_50_4B_43_43_57L; // "WCCKPT\0\1"
    /** 2: frames of records (1: LENGTH, CHECKSUM and TXN in every record). */
    public static final int VERSION = 2;

    public static final int FILE_HEADER_SIZE = 16;

    /** Offsets in a frame's header. */
    public static final int FRAME_LENGTH = 0;

    public static final int FRAME_CHECKSUM = 4;
    public static final int FRAME_TXN = 8;
    public static final int FRAME_HEADER_SIZE = 16;

    /** Offsets in a record's header. */
    public static final int LENGTH = 0;

    public static final int TYPE = 4;
    public static final int RECORD_HEADER_SIZE = 5;

    public static final byte INSERT = 1;
    public static final byte UPDATE = 2;
    public static final byte DELETE = 3;
    public static final byte COMMIT = 4;
    public static final byte ABORT = 5;
    public static final byte CHECKPOINT = 6;
    public static final byte TUPLE = 7;
    public static final byte TABLE = 8;
    public static final byte END = 9;

    /** Payload offsets of INSERT, UPDATE, DELETE, TUPLE (relative to the payload). */
    public static final int TABLE_ID = 0;

    public static final int SLOT = 2;
    /** Where an INSERT's or TUPLE's image, an UPDATE's MASK, begins. */
    public static final int IMAGE = 10;
    /** Table identifiers are int16 in records (0 to this). */
    public static final int MAX_TABLE_ID = Short.MAX_VALUE;

    static String typeName(byte type) {
        return switch (type) {
            case INSERT -> "INSERT";
            case UPDATE -> "UPDATE";
            case DELETE -> "DELETE";
            case COMMIT -> "COMMIT";
            case ABORT -> "ABORT";
            case CHECKPOINT -> "CHECKPOINT";
            case TUPLE -> "TUPLE";
            case TABLE -> "TABLE";
            case END -> "END";
            default -> "type " + type;
        };
    }

    static boolean knownType(byte type) {
        return type >= INSERT && type <= END;
    }

    /** A file header: MAGIC, VERSION, RESERVED. */
    static ByteBuffer fileHeader(long magic) {
        ByteBuffer b = ByteBuffer.allocate(FILE_HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.putLong(magic).putInt(VERSION).putInt(0).flip();
        return b;
    }

    /** Bytes of one column's value in an image; the value is non-null. */
    static int valueSize(Record r, int c) {
        FieldType t = r.schema().type(c);
        return t.isVariable() ? 4 + r.length(c) : Math.max(1, t.width);
    }

    /** Bytes of the image of {@code columns} (all columns if null). */
    static int imageSize(Record r, int[] columns) {
        int k = columns == null ? r.schema().fieldCount() : columns.length;
        int n = (k + 7) >>> 3;
        for (int i = 0; i < k; i++) {
            int c = columns == null ? i : columns[i];
            if (!r.isNull(c)) n += valueSize(r, c);
        }
        return n;
    }

    /**
     * Writes the image of {@code columns} (all if null) of {@code r} into {@code a} from {@code p}, in
     * one pass, and returns where it ends: the NULL bits of each group of 8 columns are gathered in a
     * register and written over the byte reserved for them. Throws {@link IndexOutOfBoundsException}
     * when {@code a} has no room left (the caller moves to a larger segment and writes again).
     */
    static int putImage(byte[] a, int p, Record r, int[] columns) {
        RecordSchema s = r.schema();
        int k = columns == null ? s.fieldCount() : columns.length;
        int nulls = 0, bits = 0;
        for (int i = 0; i < k; i++) {
            if ((i & 7) == 0) {
                if (i > 0) a[nulls] = (byte) bits;
                nulls = p++;
                bits = 0;
                a[nulls] = 0;
            }
            int c = columns == null ? i : columns[i];
            if (r.isNull(c)) {
                bits |= 1 << (i & 7);
                continue;
            }
            FieldType t = s.type(c);
            if (t.isVariable()) {
                int n = r.length(c);
                INT.set(a, p, n);
                System.arraycopy(r.bytes(c), 0, a, p + 4, n);
                p += 4 + n;
            } else {
                long v = r.getLong(c);
                switch (t.width) {
                    case 0, 1 -> a[p++] = (byte) v;
                    case 2 -> {
                        SHORT.set(a, p, (short) v);
                        p += 2;
                    }
                    case 4 -> {
                        INT.set(a, p, (int) v);
                        p += 4;
                    }
                    default -> {
                        LONG.set(a, p, v);
                        p += 8;
                    }
                }
            }
        }
        if (k > 0) a[nulls] = (byte) bits;
        return p;
    }

    /**
     * Writes a record header at {@code p} with LENGTH left for {@link #setLength}; returns where the
     * payload begins.
     */
    static int putHeader(byte[] a, int p, byte type) {
        a[p + TYPE] = type;
        return p + RECORD_HEADER_SIZE;
    }

    /** Writes TXN of a frame that begins at {@code p}; returns where its first record begins. */
    static int putFrameTxn(byte[] a, int p, long txn) {
        LONG.set(a, p + FRAME_TXN, txn);
        return p + FRAME_HEADER_SIZE;
    }

    /** Bytes of an UPDATE's MASK for a table of {@code fields} columns. */
    static int maskSize(int fields) {
        return (fields + 7) >>> 3;
    }

    /**
     * Writes the MASK of {@code columns} (ascending, each below {@code fields}) at {@code p}; returns
     * where it ends.
     */
    static int putMask(byte[] a, int p, int fields, int[] columns) {
        int end = p + maskSize(fields);
        for (int i = p; i < end; i++) a[i] = 0;
        for (int c : columns) a[p + (c >>> 3)] |= (byte) (1 << (c & 7));
        return end;
    }

    /**
     * {@code columns} if they are strictly ascending (as an UPDATE's MASK and image list them), else
     * a sorted copy without repeats.
     */
    static int[] inColumnOrder(int[] columns) {
        for (int i = 1; i < columns.length; i++)
            if (columns[i] <= columns[i - 1])
                return java.util.Arrays.stream(columns).sorted().distinct().toArray();
        return columns;
    }

    /** Reads an UPDATE's MASK for a table of {@code fields} columns at the buffer's position: its columns. */
    public static int[] getMask(ByteBuffer b, int fields) {
        int n = maskSize(fields), at = b.position(), k = 0;
        for (int i = 0; i < n; i++) k += Integer.bitCount(b.get(at + i) & 0xFF);
        int[] columns = new int[k];
        k = 0;
        for (int c = 0; c < n * 8; c++)
            if ((b.get(at + (c >>> 3)) & (1 << (c & 7))) != 0) {
                if (c >= fields) throw new IllegalArgumentException("mask names column " + c + " of " + fields);
                columns[k++] = c;
            }
        b.position(at + n);
        return columns;
    }

    static int putShort(byte[] a, int p, int v) {
        SHORT.set(a, p, (short) v);
        return p + 2;
    }

    static int putInt(byte[] a, int p, int v) {
        INT.set(a, p, v);
        return p + 4;
    }

    static int putLong(byte[] a, int p, long v) {
        LONG.set(a, p, v);
        return p + 8;
    }

    /** Writes LENGTH of the record from {@code start} to {@code end}. */
    static void setLength(byte[] a, int start, int end) {
        INT.set(a, start + LENGTH, end - start);
    }

    /**
     * Writes LENGTH and CHECKSUM of the frame of {@code length} bytes at {@code at} of {@code b} (its
     * TXN and records written; {@code b} little-endian): the log manager's part of the framing, done
     * once the frame has left its transaction's thread. Leaves {@code b}'s position at the frame's end
     * and its limit as it was.
     */
    static void frame(ByteBuffer b, int at, int length, CRC32C crc) {
        if (length < FRAME_HEADER_SIZE) throw new IllegalStateException("frame of " + length + " bytes");
        int limit = b.limit();
        b.putInt(at + FRAME_LENGTH, length);
        crc.reset();
        // over the buffer itself, not a duplicate: checksumming allocates nothing
        b.limit(at + length).position(at + FRAME_TXN);
        crc.update(b);
        b.limit(limit);
        b.putInt(at + FRAME_CHECKSUM, (int) crc.getValue());
        b.position(at + length);
    }

    /** CHECKSUM of the frame in {@code [0, length)} of {@code a}, read only. */
    static int frameChecksum(byte[] a, int length, CRC32C crc) {
        crc.reset();
        crc.update(a, FRAME_TXN, length - FRAME_TXN);
        return (int) crc.getValue();
    }

    /**
     * Reads an image of {@code columns} (all if null) into {@code into} from the buffer's position.
     * Signed values are sign-extended, UINT values zero-extended, as {@link FieldType} carries them.
     */
    public static void getImage(ByteBuffer b, RecordSchema s, int[] columns, Record into) {
        int k = columns == null ? s.fieldCount() : columns.length;
        int nulls = b.position();
        b.position(nulls + ((k + 7) >>> 3));
        for (int i = 0; i < k; i++) {
            int c = columns == null ? i : columns[i];
            if ((b.get(nulls + (i >>> 3)) & (1 << (i & 7))) != 0) {
                into.setNull(c);
                continue;
            }
            FieldType t = s.type(c);
            if (t.isVariable()) {
                int n = b.getInt();
                if (n < 0 || n > b.remaining()) throw new IllegalArgumentException("value of " + n + " bytes");
                b.get(into.buffer(c, n), 0, n);
                continue;
            }
            long v = switch (Math.max(1, t.width)) {
                case 1 -> t.isUnsigned() || t.isBit() ? b.get() & 0xFFL : b.get();
                case 2 -> t.isUnsigned() ? b.getShort() & 0xFFFFL : b.getShort();
                case 4 -> t.isUnsigned() ? b.getInt() & 0xFFFF_FFFFL : b.getInt();
                default -> b.getLong();
            };
            into.setLong(c, v);
        }
    }
}
