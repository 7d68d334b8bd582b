package dev.wastecheck.layouts.bench;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.Random;

/**
 * The two record shapes the benchmarks run on, and their deterministic contents.
 *
 * <p>{@link #RECORD100}: a ~100-byte record (70 bytes of fixed fields and a ~24-byte VARLEN
 * note; 106 bytes with NSM's record header, end offset and slot), the size HPL-2012-240 §6
 * evaluates. {@link #LINEITEM}: TPC-H lineitem with the tight types the analyzer would choose
 * (dates as day numbers, money in cents, flags in one byte), 42 fixed bytes and three VARLEN
 * fields (~44 bytes).
 *
 * <p>The scanned field is a date: record {@code i} holds {@link #date(long)}, a formula that
 * DuckDB evaluates identically, so every layout and both baselines hold the same values.
 */
public enum Shape {
    RECORD100(
            RecordSchema.of(
                    Field.of("id", FieldType.INT64),
                    Field.of("date", FieldType.INT32),
                    Field.of("qty", FieldType.INT32),
                    Field.of("price", FieldType.FLOAT64),
                    Field.of("discount", FieldType.FLOAT64),
                    Field.of("tax", FieldType.FLOAT64),
                    Field.of("a", FieldType.INT64),
                    Field.of("b", FieldType.INT64),
                    Field.of("c", FieldType.INT32),
                    Field.of("d", FieldType.INT32),
                    Field.of("e", FieldType.INT16),
                    Field.of("f", FieldType.INT16),
                    Field.of("kind", FieldType.INT8),
                    Field.of("status", FieldType.INT8),
                    Field.varlen("note", false, 24)),
            1,
            2),
    LINEITEM(
            RecordSchema.of(
                    Field.of("l_orderkey", FieldType.INT64),
                    Field.of("l_partkey", FieldType.INT32),
                    Field.of("l_suppkey", FieldType.INT32),
                    Field.of("l_linenumber", FieldType.INT8),
                    Field.of("l_quantity", FieldType.INT8),
                    Field.of("l_extendedprice", FieldType.INT64),
                    Field.of("l_discount", FieldType.INT8),
                    Field.of("l_tax", FieldType.INT8),
                    Field.of("l_returnflag", FieldType.INT8),
                    Field.of("l_linestatus", FieldType.INT8),
                    Field.of("l_shipdate", FieldType.INT32),
                    Field.of("l_commitdate", FieldType.INT32),
                    Field.of("l_receiptdate", FieldType.INT32),
                    Field.varlen("l_shipinstruct", false, 12),
                    Field.varlen("l_shipmode", false, 5),
                    Field.varlen("l_comment", false, 27)),
            10,
            4);

    /** 1992-01-01 as days since 1970-01-01: the first TPC-H ship date. */
    public static final int FIRST_DATE = 8035;
    /** Days of TPC-H ship dates (1992-01-01 .. 1998-12-01). */
    public static final int DATE_SPAN = 2526;
    /** Q6's predicate: ship date in 1994 (8766 .. 9130), ~14% of the records. */
    public static final long Q6_LO = 8766, Q6_HI = 9130;
    /** Q1's predicate: ship date &lt;= 1998-09-02 (10471), ~96% of the records. */
    public static final long Q1_LO = Long.MIN_VALUE, Q1_HI = 10471;

    public final RecordSchema schema;
    /** The date field the scans test. */
    public final int dateField;
    /** A fixed field that the update benchmark rewrites. */
    public final int updateField;

    Shape(RecordSchema schema, int dateField, int updateField) {
        this.schema = schema;
        this.dateField = dateField;
        this.updateField = updateField;
    }

    /** The date of record {@code i}; DuckDB: {@code 8035 + (i * 2654435761) % 2526}. */
    public static int date(long i) {
        return (int) (FIRST_DATE + (i * 2654435761L) % DATE_SPAN);
    }

    private static final String[] INSTRUCT = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
    private static final String[] MODE = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};

    /** Fills {@code r} with record {@code i} of this shape. */
    public void fill(Record r, long i, Random random) {
        int date = date(i);
        if (this == RECORD100) {
            r.setLong(0, i)
                    .setLong(1, date)
                    .setLong(2, 1 + random.nextInt(50))
                    .setDouble(3, random.nextInt(100_000) / 100.0)
                    .setDouble(4, random.nextInt(11) / 100.0)
                    .setDouble(5, random.nextInt(9) / 100.0)
                    .setLong(6, random.nextLong())
                    .setLong(7, random.nextLong())
                    .setLong(8, random.nextInt())
                    .setLong(9, random.nextInt())
                    .setLong(10, (short) random.nextInt())
                    .setLong(11, (short) random.nextInt())
                    .setLong(12, random.nextInt(8))
                    .setLong(13, random.nextInt(3));
            text(r, 14, 16 + random.nextInt(17), random);
        } else {
            r.setLong(0, i / 4)
                    .setLong(1, random.nextInt(200_000))
                    .setLong(2, random.nextInt(10_000))
                    .setLong(3, 1 + i % 4)
                    .setLong(4, 1 + random.nextInt(50))
                    .setLong(5, random.nextInt(10_000_000))
                    .setLong(6, random.nextInt(11))
                    .setLong(7, random.nextInt(9))
                    .setLong(8, "ARN".charAt(random.nextInt(3)))
                    .setLong(9, "OF".charAt(random.nextInt(2)))
                    .setLong(10, date)
                    .setLong(11, date + random.nextInt(60) - 30)
                    .setLong(12, date + 1 + random.nextInt(30));
            r.setString(13, INSTRUCT[random.nextInt(INSTRUCT.length)]);
            r.setString(14, MODE[random.nextInt(MODE.length)]);
            text(r, 15, 10 + random.nextInt(34), random);
        }
    }

    private static void text(Record r, int field, int length, Random random) {
        byte[] b = new byte[length];
        for (int i = 0; i < length; i++) b[i] = (byte) ('a' + random.nextInt(26));
        r.setBytes(field, b, 0, length);
    }
}
