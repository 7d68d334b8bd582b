package dev.wastecheck.sources.load;

import dev.wastecheck.sources.sql.IsoTimestamps;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import org.apache.arrow.memory.util.MemoryUtil;

/**
 * What a column's values say, counted while the loader fills them in, so that the profile need
 * not scan the column again for it: the same figures as the profile's SQL, of exactly the
 * values stored (the profile's {@code LoaderFactsTest} compares every one with DuckDB's).
 *
 * <ul>
 *   <li>text and byte strings: byte and character lengths, min and max by byte order, trailing
 *       spaces, null markers and the real values' bounds; the values themselves while there
 *       are at most {@link #FEW} of them; 14-byte MediaWiki timestamps;
 *   <li>a DECIMAL's text, while every value is plainly spelled: scale, whole parts, the
 *       spellings of the least and greatest;
 *   <li>integers: count, bounds, and the distinct values as bits while their range is narrow;
 *   <li>numbers in text, each value read once ({@link PlainNumber}): how many are a canonical
 *       integer or decimal, with their bounds and digits (the profile's numeric pattern checks);
 *       an integer column's text (BIGINT UNSIGNED) while every value is a canonical integer; and
 *       the distinct values as bits while every value is spelled one way only;
 *   <li>FLOAT and DOUBLE: the values as doubles, while every one is plain and finite: least and
 *       greatest (with their spellings), whole numbers and their bounds, those a 4-byte float
 *       keeps;
 *   <li>dates, timestamps, ISO-8601 timestamps (in the first one's spelling) and UUIDs that
 *       DuckDB's parse prints back unchanged, with their bounds.
 * </ul>
 *
 * <p>A table's facts are dropped ({@link #valid} false) when a row could have left values the
 * table does not keep (a row of the wrong width, a column named twice); the profile then asks
 * SQL, as for any other source.
 */
public final class ColumnFacts {
    /**
     * Distinct values a column may have for the loader to count them exactly itself: a short
     * list (a status, a country code) then needs no distinct count in SQL at all.
     */
    static final int FEW = 256;

    /** The spellings of null markers, as the profile's list has them. */
    private final byte[][] markerSpellings;
    /** Bytes some marker starts with. */
    private final boolean[] markerStart = new boolean[256];

    private final boolean bytes;
    private boolean valid = true;
    /** False once a value is not in the plain decimal spelling the facts below are exact for. */
    private boolean decimalValid;

    long nonNull;
    long minLen = Long.MAX_VALUE;
    long maxLen = -1;
    long sumLen;
    long long127;
    long maxChars = -1;
    long trailingSpace;
    long markers;
    long realMinLen = Long.MAX_VALUE;
    long realMaxLen = -1;
    private byte[] min;
    private byte[] max;
    private byte[] realMin;
    private byte[] realMax;
    /** The first eight bytes of min, max, realMin and realMax ({@link #prefix}): most compares end there. */
    private long minWord;

    private long maxWord;
    private long realMinWord;
    private long realMaxWord;
    /**
     * Their next eight bytes ({@link #second}): where a column's values share their first eight
     * (a timestamp's {@code 2020-09-}, an ORM's {@code value 4-}), the compare ends there.
     */
    private long minWord2;

    private long maxWord2;
    private long realMinWord2;
    private long realMaxWord2;

    // a BIGINT column: its bounds, and its values as bits over the words [bitsLowWord, + bits.length)
    // while that range stays within BITS_MAX (one bit a value, as DuckDB's bitstring_agg)
    private long intMin = Long.MAX_VALUE;
    private long intMax = Long.MIN_VALUE;
    private long[] bits;
    /** The first word of the bits: values 64 * bitsLowWord on (in words, far from the long's ends). */
    private long bitsLowWord;

    private boolean bitsGaveUp;

    /**
     * Whether each BIGINT value so far was above every one before it (an id as a dump writes
     * it): then its distinct values are its values, counted without bits past {@link #BITS_MAX}.
     */
    private boolean intAscending = true;

    /** A BIGINT column's range when its run's first batch was read ({@link #firstBatchRead}), or -1. */
    private volatile long firstRange = -1;

    /** The widest range of integers counted as bits: 2 MB a column. */
    static final long BITS_MAX = 1L << 24;

    /** The values of a column of at most {@link #FEW} distinct ones (open addressing), or null past that. */
    private byte[][] few = new byte[2 * FEW][];
    /** The prefix word ({@link #prefix}) of each value in {@link #few}, slot for slot. */
    private long[] fewWords = new long[2 * FEW];

    private int fewCount;

    // past FEW values: each value's 128-bit hash, kept once (DistinctHashes) while the budget the
    // loader gives (distinctBudget) holds; hashedDistinct is their count once a run ended, -1 when
    // not known (not counted, given up, or values added after the count was taken)
    private DistinctHashes.Budget distinctBudget;
    private DistinctHashes hashes;
    private long hashedDistinct = -1;
    /**
     * Past FEW values of at most {@link DistinctHashes#WORDS_MAX} bytes where no hashes started
     * (values of less than {@link DistinctHashes.Budget#minMean} bytes on average): each value
     * kept whole as its two prefix words ({@link DistinctHashes#addWords}), counted into
     * hashedDistinct at a run's end as the hashes are.
     */
    private DistinctHashes words;
    /**
     * Past FEW values where no exact count runs (neither hashes nor words, or their table gave
     * up): every value's hash in a HyperLogLog sketch, the profile's estimate in place of
     * DuckDB's ({@link #estimatedDistinct}); kept across a table's runs.
     */
    private DistinctSketch sketch;

    /**
     * Whether the loader sketches the columns it cannot count exactly ({@link DistinctSketch});
     * the system property {@code wastecheck.distinctSketch=false} leaves their estimates to SQL.
     */
    static final boolean SKETCH = !"false".equals(System.getProperty("wastecheck.distinctSketch"));

    /**
     * The factor by which {@link #estimatedDistinct} stays within the true count as far as a
     * decision is concerned ({@link DistinctSketch#MARGIN}).
     */
    public static final double ESTIMATE_MARGIN = DistinctSketch.MARGIN;

    /**
     * Whether every value so far sorted after all before it (byte order, as the bounds): then
     * they are all distinct, {@code count(DISTINCT)} is their count, whatever their number or
     * length. A dump is written in its key's order, and a column that rises with the key (a
     * creation time, a sequence) is told so at the cost of the max's compare, which the bounds
     * make anyway: ORM's {@code created_at} took an exact count of 360,080 timestamps in SQL.
     */
    private boolean ascending = true;

    // 14-digit MediaWiki timestamps (YYYYMMDDHHMMSS) that a timestamp parse prints back the same
    long mwTimestamps;
    private byte[] mwMin;
    private byte[] mwMax;
    private long mwMinWord;
    private long mwMaxWord;
    private long mwMinWord2;
    private long mwMaxWord2;

    // plain decimals -?D{1,18}(.D{1,10})?: exact in the profile's DECIMAL(38,10) and in two longs
    long usedScale;
    long integral;
    private long minWhole = Long.MAX_VALUE;
    private long minFraction;
    private byte[] minNumber;
    private long maxWhole = Long.MIN_VALUE;
    private long maxFraction;
    private byte[] maxNumber;
    /** Of the current value, set by {@link #addDecimal}: whole part and fraction in 10^-10, signed alike. */
    private long whole;

    private long fraction;
    private int scale;

    // numbers in the text (PlainNumber), for the profile's numeric pattern checks: how many values
    // are a canonical BIGINT's spelling (TRY_CAST to BIGINT and back gives them unchanged) and their
    // bounds; how many are a canonical decimal (-?(0|[1-9]D*)\.D+) and their digits. A value that
    // is no plain number is neither. Given up (numbersValid false) on an integer too long to judge.
    private boolean numbersValid = true;

    /** The number a value is read into when the caller did not read it. */
    private final PlainNumber read = new PlainNumber();

    long intCanonical;
    private long strIntMin = Long.MAX_VALUE;
    private long strIntMax = Long.MIN_VALUE;
    long decimalCanonical;
    private int decimalIntDigits = -1;
    private int decimalFracMin = Integer.MAX_VALUE;
    private int decimalFracMax = -1;

    // the text of an integer column: every value a canonical integer of at most 18 digits, so that
    // the cast to HUGEINT fails on none and its bounds are strIntMin and strIntMax
    private boolean integerText;

    // distinct numbers as bits: while every value is a plain number spelled one way only (all
    // canonical, or all with the same digits after the point and no leading zero), distinct
    // spellings are distinct values; each is counted as bits at bitsScale digits after the point
    private boolean scaledValid = true;
    private boolean allCanonical = true;
    private boolean sameScale = true;
    private int bitsScale = -1;

    // dates and times in the text, for the profile's pattern checks: YYYY-MM-DD (10 bytes) and
    // YYYY-MM-DD HH:MM:SS (19) that DuckDB's strptime reads and strftime prints back unchanged,
    // lower-case UUIDs (36), and ISO-8601 timestamps in the spelling of the first one seen
    // (isoFormat, IsoTimestamps), with the least and greatest of the timestamps of each kind
    long dates;
    long timestamps;
    private byte[] tsMin;
    private byte[] tsMax;
    private long tsMinWord;
    private long tsMaxWord;
    private long tsMinWord2;
    private long tsMaxWord2;
    long uuids;
    /** Whether {@link #isoFormat} is a space's spelling with no offset (MySQL's {@code DATETIME(6)}). */
    private boolean isoPlain;

    /**
     * Whether the last value added was a real day ({@code YYYY-MM-DD}), or a day and a time of it
     * ({@code HH:MM:SS} to 23:59:59) in the plain spelling or {@link #isoPlain}'s: then its
     * column's declared DATE, DATETIME or TIMESTAMP holds it ({@link DeclaredRange} would find it
     * valid), and {@link ArrowRowBuilder} does not parse it a second time.
     */
    boolean timed;

    /** Of the timestamps and ISO-8601 timestamps counted, those at the start of their day. */
    long midnights;

    private String isoFormat;
    /** The first ISO-8601 value: its bytes where they are not digits are the format's literals. */
    private byte[] isoTemplate;
    /** Per byte of the template, whether it is a digit of the format (not the offset's). */
    private boolean[] isoDigit;

    long isoTimestamps;
    private byte[] isoMin;
    private byte[] isoMax;
    private long isoMinWord;
    private long isoMaxWord;
    private long isoMinWord2;
    private long isoMaxWord2;

    // FLOAT and DOUBLE: the values as doubles (the profile's TRY_CAST), while every value is plain
    // and finite: their least and greatest (and spellings), how many a 4-byte float keeps, how
    // many are whole (below 2^53) and the least and greatest of those
    private boolean floatValid;

    long floatRoundTrip;
    long floatIntegral;
    private double floatMin;
    private byte[] floatMinSpelling;
    private double floatMax;
    private byte[] floatMaxSpelling;
    private long floatIntMin = Long.MAX_VALUE;
    private long floatIntMax = Long.MIN_VALUE;

    /**
     * @param bytes   a byte string (BLOB): shown as DuckDB casts a BLOB to text, lengths in bytes
     * @param markers the null-marker spellings the profile counts
     */
    public ColumnFacts(boolean bytes, List<String> markers) {
        this(bytes, false, markers);
    }

    /** Facts of a BIGINT column: its count, bounds and (while their range is narrow) distinct values. */
    public static ColumnFacts integers() {
        ColumnFacts f = new ColumnFacts(false, false, List.of());
        f.few = null;
        f.fewWords = null;
        return f;
    }

    /** @param decimal the text of a DECIMAL column: also the numeric facts of its plain spellings */
    public ColumnFacts(boolean bytes, boolean decimal, List<String> markers) {
        this(bytes, decimal, false, false, markers);
    }

    /**
     * @param decimal  the text of a DECIMAL column: also the numeric facts of its plain spellings
     * @param floating the text of a FLOAT or DOUBLE column: also the facts of its values as doubles
     * @param integer  the text of an integer column (BIGINT UNSIGNED): also its bounds as integers
     */
    public ColumnFacts(boolean bytes, boolean decimal, boolean floating, boolean integer, List<String> markers) {
        this.bytes = bytes;
        this.decimalValid = decimal && !bytes; // a DECIMAL's text: its numeric facts are counted too
        this.floatValid = floating && !bytes;
        this.integerText = integer && !bytes;
        this.markerSpellings =
                markers.stream().map(m -> m.getBytes(StandardCharsets.UTF_8)).toArray(byte[][]::new);
        for (byte[] m : markerSpellings) {
            if (m.length > 0) {
                markerStart[m[0] & 0xff] = true;
            }
        }
    }

    public boolean bytes() {
        return bytes;
    }

    /**
     * Whether DuckDB's table leaves this column out ({@link LoadedTable#absent}, decided at a run's
     * first batch by {@link DumpLoader}): every figure of it is counted here, so {@link
     * ArrowRowBuilder} stops copying its values into the batches from the next batch on. Set on
     * DuckDB's thread, read by the filler's.
     */
    private volatile boolean leftOut;

    void leaveOut() {
        leftOut = true;
    }

    boolean leftOut() {
        return leftOut;
    }

    /**
     * Whether the values so far are counted by a count that answers every figure the profile and
     * the report ask of the column without reading it again: a short list of text values (its
     * members are an ENUM's, {@link #fewValues}), or numbers counted by their bits (integers, and
     * decimals spelled one way each). Neither gives up on the values that are usual for it; the
     * words', hashes' and sketch's counts can (past {@link DistinctHashes#WORDS_MOST} values, past
     * the budget, or never exact), and a byte string's short list is read back through SQL's
     * rendering of bytes. A forecast made at a run's first batch ({@link DumpLoader}): a count
     * that ends later is met by the step that asks ({@link ColumnNotLoaded}). Read on DuckDB's
     * thread while the filler counts on: a stale answer is a forecast too.
     */
    boolean countedWhole(ColumnStorage storage) {
        if (!valid) {
            return false;
        }
        if (storage == ColumnStorage.INT64) {
            // bits that keep up with a range still growing since the first batch may give up
            // later (MediaWiki's rev_parent_id at 4 GB, 43 M rows): an ascending column's count
            // needs none (a reference by values still reads its bits: none given up yet)
            return !bitsGaveUp && (intAscending || firstRange < 0 || range() / 2 <= firstRange + 32);
        }
        if (storage != ColumnStorage.TEXT || bytes) {
            return false;
        }
        return few != null || (scaledValid && !bitsGaveUp && nonNull > 0);
    }

    /**
     * Whether the values so far are text or bytes past the short list: counted by words, hashes
     * or the sketch, each of which answers the profile's figures but may leave its distinct count
     * an estimate, which the profile counts exactly in SQL only where another column's count could
     * make it a duplicate of it: none, once the first batch's parts tell every other column apart
     * ({@link #partsDifferently}). A forecast, as {@link #countedWhole}.
     */
    boolean pastShortList(ColumnStorage storage) {
        return valid && few == null && nonNull > 0 && (storage == ColumnStorage.TEXT || storage == ColumnStorage.BYTES);
    }

    /**
     * The fingerprint of how the first batch's rows part by this column's values ({@link
     * BatchPartition}), or null: two columns whose fingerprints differ do not map one to one.
     */
    private Long batchPartition;

    void batchPartition(Long fingerprint) {
        batchPartition = fingerprint;
    }

    /**
     * Whether this column and {@code other} cannot map one to one over the table's rows: their
     * first batch's rows part differently ({@link BatchPartition}). False when either has no
     * fingerprint: the duplicate check asks SQL then.
     */
    public boolean partsDifferently(ColumnFacts other) {
        return other != null
                && batchPartition != null
                && other.batchPartition != null
                && !batchPartition.equals(other.batchPartition);
    }

    public boolean valid() {
        return valid;
    }

    void invalidate() {
        valid = false;
    }

    /** A value stored (not NULL): {@code b[off, off+len)}, valid UTF-8 unless a byte string. */
    void add(byte[] b, int off, int len) {
        add(b, off, len, false);
    }

    /** {@code ascii}: every byte is below 0x80, so it has as many characters as bytes. */
    void add(byte[] b, int off, int len, boolean ascii) {
        add(b, off, len, ascii ? len : -1, null);
    }

    /**
     * As {@link #add(byte[], int, int, boolean)}, with the value's characters already counted by
     * the caller ({@code chars}, {@link Utf8#chars}; -1 when not counted: then they are counted
     * here if the value could be the longest) and the value already read as a number ({@code
     * number}, or null when it was not read: then it is read here if it could be one).
     */
    void add(byte[] b, int off, int len, int chars, PlainNumber number) {
        timed = false;
        PlainNumber n = number;
        if (n == null && len > 0 && (b[off] == '-' || (b[off] >= '0' && b[off] <= '9'))) {
            n = read;
            if (!n.read(b, off, len)) {
                n = null;
            }
        }
        if (n != null && !n.plain) {
            n = null;
        }
        numbers(n, b, off, len);
        long w = prefix(b, off, len);
        long w2 = second(b, off, len);
        boolean marker = len <= 4 && isMarker(b, off, len);
        if (marker && markers++ == 0) {
            // until the first marker the real values were all the values: their bounds part here
            realMin = min == null ? null : min.clone(); // own copies: min and max are overwritten in place
            realMax = max == null ? null : max.clone();
            realMinWord = minWord;
            realMaxWord = maxWord;
            realMinWord2 = minWord2;
            realMaxWord2 = maxWord2;
            realMinLen = minLen;
            realMaxLen = maxLen;
        }
        nonNull++;
        sumLen += len;
        if (len < minLen) {
            minLen = len;
        }
        if (len > maxLen) {
            maxLen = len;
        }
        if (len >= 127) {
            long127++;
        }
        if (bytes) {
            maxChars = maxLen;
        } else {
            if (len > maxChars && chars >= 0) {
                maxChars = Math.max(maxChars, chars);
            } else if (len > maxChars) { // a character takes at least a byte: shorter values cannot beat it
                long counted = 0;
                for (int i = off, end = off + len; i < end; i++) {
                    if ((b[i] & 0xc0) != 0x80) {
                        counted++;
                    }
                }
                maxChars = Math.max(maxChars, counted);
            }
            if (len > 0 && b[off + len - 1] == ' ') {
                trailingSpace++;
            }
        }
        if (few != null) {
            addFew(w, w2, b, off, len);
        } else {
            count(b, off, len, w, w2);
        }
        if (len == 36) {
            if (uuid(b, off)) {
                uuids++;
            }
        } else if (len >= 10 && len <= 32 && b[off] >= '0' && b[off] <= '9') {
            times(w, w2, b, off, len);
        }
        if (len == 14 && compactTimestamp(b, off)) {
            mwTimestamps++;
            if (mwMin == null || less(w, w2, b, off, len, mwMinWord, mwMinWord2, mwMin)) {
                mwMin = copy(mwMin, b, off, len);
                mwMinWord = w;
                mwMinWord2 = w2;
            }
            if (mwMax == null || less(mwMaxWord, mwMaxWord2, mwMax, w, w2, b, off, len)) {
                mwMax = copy(mwMax, b, off, len);
                mwMaxWord = w;
                mwMaxWord2 = w2;
            }
        }
        if (decimalValid) {
            addDecimal(n, b, off, len);
        }
        if (min == null || less(w, w2, b, off, len, minWord, minWord2, min)) {
            min = copy(min, b, off, len);
            minWord = w;
            minWord2 = w2;
        }
        if (max == null || less(maxWord, maxWord2, max, w, w2, b, off, len)) {
            max = copy(max, b, off, len);
            maxWord = w;
            maxWord2 = w2;
        } else {
            ascending = false; // not above every value before it: one may repeat
        }
        if (marker || markers == 0) {
            return; // no marker yet: the real values' bounds are min and max (see the getters)
        }
        if (len < realMinLen) {
            realMinLen = len;
        }
        if (len > realMaxLen) {
            realMaxLen = len;
        }
        if (realMin == null || less(w, w2, b, off, len, realMinWord, realMinWord2, realMin)) {
            realMin = copy(realMin, b, off, len);
            realMinWord = w;
            realMinWord2 = w2;
        }
        if (realMax == null || less(realMaxWord, realMaxWord2, realMax, w, w2, b, off, len)) {
            realMax = copy(realMax, b, off, len);
            realMaxWord = w;
            realMaxWord2 = w2;
        }
    }

    /**
     * Counts a value past the short list: by its hash or its words while their table holds,
     * else into the sketch. A table that gives up (a longer value than its words hold, or past its
     * budget) pours what it counted into a sketch first ({@link #spill}), so that the profile
     * still has an estimate of {@link DistinctSketch}'s error where it had DuckDB's.
     */
    private void count(byte[] b, int off, int len, long w, long w2) {
        if (hashes != null) {
            if (!hashes.add(b, off, len)) {
                spill(hashes, true, b, off, len, w, w2); // over the budget: sketched from here on
                hashes = null;
            }
        } else if (words != null) {
            if (len > DistinctHashes.WORDS_MAX || !words.addWords(w, w2, len)) {
                spill(words, false, b, off, len, w, w2); // a longer value, or past the table's most: sketched
                words = null;
            }
        } else if (sketch != null) {
            sketch.add(b, off, len, w, w2);
        } else if (hashedDistinct >= 0) {
            hashedDistinct = -1; // a later run of the table: its values were not counted
        }
    }

    /** Gives {@code table} up, its values and the one it refused poured into a new sketch first. */
    private void spill(DistinctHashes table, boolean murmurAll, byte[] b, int off, int len, long w, long w2) {
        if (SKETCH) {
            sketch = new DistinctSketch(murmurAll);
            table.spillInto(sketch);
            sketch.add(b, off, len, w, w2);
        }
        table.giveUp();
    }

    /**
     * Counts a value among the first {@link #FEW} distinct ones. A slot keeps the value's prefix
     * word ({@link #prefix}, already read for the bounds) beside its bytes: the word and the
     * length tell a value of up to eight bytes (a status, a country code) whole, and decide most
     * other compares, with no call to hash or compare the bytes (C1 inlines neither
     * {@code Arrays.equals}'s mismatch nor a loop's method).
     */
    private void addFew(long w, long w2, byte[] b, int off, int len) {
        long h = w;
        for (int i = off + 8, end = off + len; i < end; i++) {
            h = 31 * h + b[i];
        }
        h = (h + len) * 0x9E3779B97F4A7C15L;
        int mask = few.length - 1;
        for (int at = (int) (h >>> 32) & mask; ; at = (at + 1) & mask) {
            byte[] e = few[at];
            if (e == null) {
                if (fewCount == FEW) {
                    byte[][] list = few;
                    few = null; // more than a short list: their hashes from here on, or SQL
                    fewWords = null;
                    startCounting(list, b, off, len, w, w2);
                } else {
                    few[at] = Arrays.copyOfRange(b, off, off + len);
                    fewWords[at] = w;
                    fewCount++;
                }
                return;
            }
            if (fewWords[at] == w && e.length == len && (len <= 8 || sameAfterPrefix(e, b, off, len))) {
                return;
            }
        }
    }

    /**
     * The short list overflowed: counts its values and the one that overflowed it from here on,
     * when the loader gave a budget. By their hashes when they are long enough on average ({@link
     * DistinctHashes}, exact); else by their words when all are short enough ({@link
     * DistinctHashes#addWords}, exact); else, or when neither's table can be had, into a sketch
     * ({@link DistinctSketch}, an estimate).
     *
     * <p>Neither words nor a sketch while the values so far are counted exactly anyway ({@link
     * #exactDistinct}): plain numbers as bits (pandas' {@code qty}, {@code weight} and {@code
     * price}, ORM's {@code amount_N}, orders' {@code amount}), or values that rise. Their words
     * were a probe a value into a table the count never read (pandas' {@code qty} and {@code
     * weight} every one of 721,705 values), or filled to {@link DistinctHashes#WORDS_MOST} and
     * given up. Should the bits or the rise end later, SQL estimates and counts the column as it
     * did before words: the words count only columns of fewer than {@code WORDS_MOST} values,
     * which the profile's screen counts exactly in SQL too (its estimate below 100,000), so the
     * count is the same number.
     */
    private void startCounting(byte[][] list, byte[] b, int off, int len, long w, long w2) {
        if (hashedDistinct >= 0 || distinctBudget == null) {
            return;
        }
        if (sumLen >= distinctBudget.minMean * nonNull) { // else short values: SQL counts them cheaper
            hashes = DistinctHashes.start(distinctBudget);
        }
        boolean exactAnyway = ascending || (scaledValid && !bitsGaveUp);
        if (hashes == null && !exactAnyway && maxLen <= DistinctHashes.WORDS_MAX) {
            words = DistinctHashes.startWords(distinctBudget);
        }
        if (hashes == null && words == null && !exactAnyway && SKETCH) {
            sketch = new DistinctSketch(false);
        }
        if (hashes == null && words == null && sketch == null) {
            return;
        }
        for (byte[] v : list) {
            if (v != null) {
                count(v, 0, v.length, prefix(v, 0, v.length), second(v, 0, v.length));
            }
        }
        count(b, off, len, w, w2);
    }

    /** Lets the values past the short list be counted by their hashes, drawing memory on {@code budget}. */
    void distinctBudget(DistinctHashes.Budget budget) {
        this.distinctBudget = budget;
    }

    /**
     * A run of the table's rows ended: the hashes' count is taken and their memory returned to
     * the budget (a later run's values would not be counted: the count is then dropped).
     */
    void endRun() {
        if (hashes != null) {
            hashedDistinct = hashes.count();
            hashes.giveUp();
            hashes = null;
        }
        if (words != null) {
            hashedDistinct = words.count();
            words.giveUp();
            words = null;
        }
    }

    /** Whether the bytes after the first eight are the same (the first eight are, as the prefix words). */
    private static boolean sameAfterPrefix(byte[] e, byte[] b, int off, int len) {
        for (int i = 8; i < len; i++) {
            if (e[i] != b[off + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The distinct values of a text column of at most {@link #FEW} of them, in byte order (as
     * DuckDB orders text), or null (more of them, or a byte string).
     */
    public List<String> fewValues() {
        if (few == null || bytes) {
            return null;
        }
        return Arrays.stream(few)
                .filter(Objects::nonNull)
                .sorted(Arrays::compareUnsigned)
                .map(v -> new String(v, StandardCharsets.UTF_8))
                .toList();
    }

    /** An integer value stored (a BIGINT column's facts hold only these). */
    void addLong(long v) {
        nonNull++;
        if (v < intMin) {
            intMin = v;
        }
        if (v > intMax) {
            intMax = v;
        } else {
            intAscending = false;
        }
        long[] b = bits;
        long word = (v >> 6) - bitsLowWord;
        if (b != null && word >= 0 && word < b.length) {
            b[(int) word] |= 1L << v; // markBits' common case, without its call (C1 does not inline it)
        } else {
            markBits(v);
        }
    }

    /** Sets {@code v}'s bit; false once the range grew past {@link #BITS_MAX} (the bits given up). */
    private boolean markBits(long v) {
        long[] b = bits;
        if (b != null) {
            long word = (v >> 6) - bitsLowWord; // v >> 6: the word, rounding down for negatives too
            if (word >= 0 && word < b.length) {
                b[(int) word] |= 1L << v; // a long shifts by the low six bits of v
                return true;
            }
        }
        if (bitsGaveUp) {
            return false;
        }
        if (b == null) {
            bitsLowWord = v >> 6;
            bits = new long[64];
        } else if (!growBits(v)) {
            return false;
        }
        bits[(int) ((v >> 6) - bitsLowWord)] |= 1L << v;
        return true;
    }

    /**
     * A text value's numeric facts: {@code n} is the value read as a plain number, or null when
     * it is none (then it is no canonical integer or decimal, and ends the integer, float and
     * distinct-bits facts).
     */
    private void numbers(PlainNumber n, byte[] b, int off, int len) {
        if (n == null) {
            integerText = false;
            floatValid = false;
            scaledValid = false;
            return;
        }
        if (numbersValid) {
            if (!n.exponent && n.fracDigits == 0) {
                if (n.intDigits > 18) {
                    numbersValid = false; // near the long's ends: only the cast can tell
                    integerText = false;
                } else if (n.canonical()) {
                    intCanonical++;
                    long v = n.negative ? -n.whole : n.whole;
                    strIntMin = Math.min(strIntMin, v);
                    strIntMax = Math.max(strIntMax, v);
                } else {
                    integerText = false;
                }
            } else {
                integerText = false;
                if (!n.exponent && (n.intDigits == 1 || n.significantIntDigits == n.intDigits)) {
                    decimalCanonical++;
                    decimalIntDigits = Math.max(decimalIntDigits, n.intDigits);
                    decimalFracMin = Math.min(decimalFracMin, n.fracDigits);
                    decimalFracMax = Math.max(decimalFracMax, n.fracDigits);
                }
            }
        }
        if (scaledValid) {
            addScaled(n);
        }
        if (floatValid) {
            addFloat(n, b, off, len);
        }
    }

    /** Counts a plain number's value as bits at {@link #bitsScale} digits after the point. */
    private void addScaled(PlainNumber n) {
        allCanonical &= n.canonical();
        sameScale &= (bitsScale < 0 || n.fracDigits == bitsScale)
                && (n.intDigits == 1 || n.significantIntDigits == n.intDigits)
                && !(n.negative && n.zero());
        int s = n.fracDigits;
        if (n.exponent || !(allCanonical || sameScale) || n.intDigits + Math.max(s, bitsScale) > 18) {
            scaledValid = false;
            return;
        }
        if (bitsScale < 0) {
            bitsScale = s;
        } else if (s > bitsScale) {
            if (!rescale(s - bitsScale)) { // all canonical: the values so far at more digits
                scaledValid = false;
                return;
            }
            bitsScale = s;
        }
        long v = n.whole * PlainNumber.POW10[bitsScale] + n.fraction * PlainNumber.POW10[bitsScale - s];
        if (n.negative) {
            v = -v;
        }
        long[] b = bits;
        long word = (v >> 6) - bitsLowWord;
        if (b != null && word >= 0 && word < b.length) {
            b[(int) word] |= 1L << v; // markBits' common case without its call, as addLong (C1 does not inline it)
        } else if (!markBits(v)) {
            scaledValid = false;
        }
    }

    /** The bits so far, each value times 10^k; false when they no longer fit {@link #BITS_MAX}. */
    private boolean rescale(int k) {
        long[] old = bits;
        long oldLow = bitsLowWord;
        bits = null;
        if (old == null) {
            return !bitsGaveUp;
        }
        long factor = PlainNumber.POW10[k];
        for (int w = 0; w < old.length; w++) {
            for (long word = old[w]; word != 0; word &= word - 1) {
                long v = ((oldLow + w) << 6) + Long.numberOfTrailingZeros(word);
                if (Math.abs(v) > Long.MAX_VALUE / factor || !markBits(v * factor)) {
                    return false;
                }
            }
        }
        return true;
    }

    /** A FLOAT or DOUBLE value: as the profile's TRY_CAST to DOUBLE reads it. */
    private void addFloat(PlainNumber n, byte[] b, int off, int len) {
        double d = n.toDouble();
        if (Double.isInfinite(d) || (d == 0 && !n.zero())) {
            floatValid = false; // beyond a double, or below its least: the cast decides
            return;
        }
        float f = (float) d;
        if (!Float.isInfinite(f) && (double) f == d) {
            floatRoundTrip++;
        }
        if (Math.abs(d) < 9007199254740992.0 && d == (double) (long) d) {
            floatIntegral++;
            floatIntMin = Math.min(floatIntMin, (long) d);
            floatIntMax = Math.max(floatIntMax, (long) d);
        }
        if (floatMinSpelling == null || d < floatMin || d == floatMin && less(b, off, len, floatMinSpelling)) {
            floatMin = d;
            floatMinSpelling = Arrays.copyOfRange(b, off, off + len);
        }
        if (floatMaxSpelling == null || d > floatMax || d == floatMax && less(b, off, len, floatMaxSpelling)) {
            floatMax = d;
            floatMaxSpelling = Arrays.copyOfRange(b, off, off + len);
        }
    }

    /** Widens the bits to take {@code v}, doubling toward it; false past {@link #BITS_MAX}. */
    private boolean growBits(long v) {
        // all in words of 64 values, which stay far from the long's ends
        long lowWord = bitsLowWord;
        long highWord = lowWord + bits.length;
        long vWord = v >> 6;
        long need = Math.max(highWord, vWord + 1) - Math.min(lowWord, vWord);
        if (need > BITS_MAX / 64) {
            bitsGaveUp = true;
            bits = null;
            return false;
        }
        long words = Math.min(Math.max(need, 2L * bits.length), BITS_MAX / 64);
        long newLowWord = vWord < lowWord ? highWord - words : lowWord; // the room goes where v went
        long[] grown = new long[(int) words];
        System.arraycopy(bits, 0, grown, (int) (lowWord - newLowWord), bits.length);
        bits = grown;
        bitsLowWord = newLowWord;
        return true;
    }

    /** Notes a BIGINT column's range when its run's first batch has been read (for {@link #countedWhole}). */
    void firstBatchRead() {
        if (nonNull > 0 && firstRange < 0) {
            firstRange = range();
        }
    }

    /** The BIGINT values' range so far, saturated (read on another thread: a forecast). */
    private long range() {
        long hi = intMax, lo = intMin;
        long r = hi - lo;
        return hi < lo ? 0 : r < 0 ? Long.MAX_VALUE : r;
    }

    /**
     * The exact distinct count of a BIGINT column's values, or null when their range was too wide
     * for the bits and they did not ascend.
     */
    public Long integerDistinct() {
        long[] b = bits; // read once: moreDistinctThan asks while a filler counts on
        if (b == null) {
            // ascending as BIGINT values (intMax set): as many distinct values as values
            return !bitsGaveUp ? Long.valueOf(0) : intAscending && intMax >= intMin ? Long.valueOf(nonNull) : null;
        }
        long n = 0;
        for (long w : b) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /**
     * Of a BIGINT column's distinct values, against {@code key}'s (another BIGINT column): how
     * many there are, how many of them {@code key} holds, and how many of {@code key}'s lie
     * within this column's bounds; both columns' bits ({@link #integerDistinct}) read word by
     * word. Null when either has no bits (given up, or no values): SQL counts them.
     */
    public long[] containment(ColumnFacts key) {
        if (bits == null || key.bits == null || bitsGaveUp || key.bitsGaveUp || nonNull == 0) {
            return null;
        }
        long lowWord = intMin >> 6;
        long highWord = intMax >> 6;
        long[] out = new long[3];
        for (long w = lowWord; w <= highWord; w++) {
            long c = word(bits, bitsLowWord, w);
            long k = word(key.bits, key.bitsLowWord, w);
            long in = -1L;
            if (w == lowWord) {
                in &= -1L << intMin; // the shift takes intMin's low six bits
            }
            if (w == highWord) {
                in &= -1L >>> (63 - (intMax & 63));
            }
            out[0] += Long.bitCount(c);
            out[1] += Long.bitCount(c & k);
            out[2] += Long.bitCount(k & in);
        }
        return out;
    }

    private static long word(long[] bits, long lowWord, long w) {
        long at = w - lowWord;
        return at >= 0 && at < bits.length ? bits[(int) at] : 0;
    }

    /** A BIGINT column's least value as integer text, or null (no values). */
    public String intMin() {
        return nonNull == 0 ? null : Long.toString(intMin);
    }

    public String intMax() {
        return nonNull == 0 ? null : Long.toString(intMax);
    }

    /**
     * Whether 14 bytes are a timestamp YYYYMMDDHHMMSS that DuckDB's
     * {@code strftime(try_strptime(s, '%Y%m%d%H%M%S'), '%Y%m%d%H%M%S')} gives back unchanged:
     * digits only, a real day of the proleptic Gregorian calendar (year 0000 included, a leap
     * year), hours to 23, minutes and seconds to 59.
     */
    static boolean compactTimestamp(byte[] b, int off) {
        // all 14 bytes digits: two overlapping words
        if (!eightDigits(prefix(b, off, 8)) || !eightDigits(prefix(b, off + 6, 8))) {
            return false;
        }
        int year = (b[off] - '0') * 1000 + (b[off + 1] - '0') * 100 + (b[off + 2] - '0') * 10 + (b[off + 3] - '0');
        int month = (b[off + 4] - '0') * 10 + (b[off + 5] - '0');
        int day = (b[off + 6] - '0') * 10 + (b[off + 7] - '0');
        int hour = (b[off + 8] - '0') * 10 + (b[off + 9] - '0');
        int minute = (b[off + 10] - '0') * 10 + (b[off + 11] - '0');
        int second = (b[off + 12] - '0') * 10 + (b[off + 13] - '0');
        if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
            return false;
        }
        boolean leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        int days = switch (month) {
            case 2 -> leap ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
        return day <= days;
    }

    /** A value of 10 to 32 bytes starting with a digit: a date, a timestamp, an ISO-8601 timestamp. */
    private void times(long w, long w2, byte[] b, int off, int len) {
        if (b[off + 4] != '-' || b[off + 7] != '-' || !day(b, off)) {
            return;
        }
        if (len == 10) {
            dates++;
            timed = true;
            return;
        }
        if (len < 19 || !time(b, off + 11)) {
            return;
        }
        if (len == 19 && b[off + 10] == ' ') {
            timestamps++;
            timed = true;
            if (midnight(b, off, len)) {
                midnights++;
            }
            if (tsMin == null || less(w, w2, b, off, len, tsMinWord, tsMinWord2, tsMin)) {
                tsMinWord = w;
                tsMinWord2 = w2;
                tsMin = copy(tsMin, b, off, len);
            }
            if (tsMax == null || less(tsMaxWord, tsMaxWord2, tsMax, w, w2, b, off, len)) {
                tsMaxWord = w;
                tsMaxWord2 = w2;
                tsMax = copy(tsMax, b, off, len);
            }
            return;
        }
        if (isoTemplate == null) {
            String sample = new String(b, off, len, StandardCharsets.US_ASCII);
            isoFormat = IsoTimestamps.format(sample);
            if (isoFormat == null) {
                return;
            }
            isoTemplate = Arrays.copyOfRange(b, off, off + len);
            isoPlain = isoFormat.startsWith("%Y-%m-%d %H:%M:%S")
                    && IsoTimestamps.offset(isoFormat).isEmpty();
            String pattern = IsoTimestamps.pattern(isoFormat);
            isoDigit = new boolean[len];
            for (int i = 0; i < len && i < pattern.length(); i++) {
                isoDigit[i] = "YMDHSf".indexOf(pattern.charAt(i)) >= 0;
            }
        }
        if (len != isoTemplate.length) {
            return;
        }
        for (int i = 10; i < len; i++) {
            byte c = b[off + i];
            if (isoDigit[i] ? c < '0' || c > '9' : c != isoTemplate[i]) {
                return; // another spelling: it does not print back in the template's format
            }
        }
        isoTimestamps++;
        timed = isoPlain;
        if (midnight(b, off, len)) {
            midnights++;
        }
        if (isoMin == null || less(w, w2, b, off, len, isoMinWord, isoMinWord2, isoMin)) {
            isoMinWord = w;
            isoMinWord2 = w2;
            isoMin = copy(isoMin, b, off, len);
        }
        if (isoMax == null || less(isoMaxWord, isoMaxWord2, isoMax, w, w2, b, off, len)) {
            isoMaxWord = w;
            isoMaxWord2 = w2;
            isoMax = copy(isoMax, b, off, len);
        }
    }

    /**
     * Whether a timestamp ({@code YYYY-MM-DD HH:MM:SS}, then a fraction or an offset) is at the
     * start of its day: its time and fraction digits all zeros (as the profile's {@code tm =
     * date_trunc('day', tm)}). An offset after the fraction is not read: the profile reads these
     * counts only for a column without one.
     */
    private static boolean midnight(byte[] b, int off, int len) {
        for (int i = 11; i < len; i++) {
            byte c = b[off + i];
            if (c != '0' && c != ':' && (c != '.' || i != 19)) {
                return i >= 20 && (c < '0' || c > '9'); // the offset past the fraction
            }
        }
        return true;
    }

    /** Whether {@code YYYY-MM-DD} at {@code off} is a day DuckDB's strptime reads (as {@link #compactTimestamp}). */
    private static boolean day(byte[] b, int off) {
        int year = DeclaredRange.digits(b, off, 4);
        int month = DeclaredRange.digits(b, off + 5, 2);
        int day = DeclaredRange.digits(b, off + 8, 2);
        if (year < 0 || month < 1 || month > 12 || day < 1) {
            return false;
        }
        boolean leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
        int days = switch (month) {
            case 2 -> leap ? 29 : 28;
            case 4, 6, 9, 11 -> 30;
            default -> 31;
        };
        return day <= days;
    }

    /** Whether {@code HH:MM:SS} at {@code off} is a time: hours to 23, minutes and seconds to 59. */
    private static boolean time(byte[] b, int off) {
        if (b[off + 2] != ':' || b[off + 5] != ':') {
            return false;
        }
        int h = DeclaredRange.digits(b, off, 2);
        int m = DeclaredRange.digits(b, off + 3, 2);
        int sec = DeclaredRange.digits(b, off + 6, 2);
        return h >= 0 && h <= 23 && m >= 0 && m <= 59 && sec >= 0 && sec <= 59;
    }

    /** A UUID as DuckDB's UUID type prints it: lower-case hex, 8-4-4-4-12. */
    private static boolean uuid(byte[] b, int off) {
        for (int i = 0; i < 36; i++) {
            byte c = b[off + i];
            if (i == 8 || i == 13 || i == 18 || i == 23) {
                if (c != '-') {
                    return false;
                }
            } else if (!(c >= '0' && c <= '9' || c >= 'a' && c <= 'f')) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether each byte of {@code w} is an ASCII digit: its high nibble is 3, and still 3 after
     * adding 6 (so at most 0x39). A carry out of a byte happens only from a byte whose high
     * nibble is not 3, which fails the first test anyway.
     */
    static boolean eightDigits(long w) {
        return ((w & 0xF0F0F0F0F0F0F0F0L) | (((w + 0x0606060606060606L) & 0xF0F0F0F0F0F0F0F0L) >>> 4))
                == 0x3333333333333333L;
    }

    /**
     * A DECIMAL's text: its scale once trailing zeros are dropped, whether it is whole, the
     * least and greatest by value. The first value not spelled {@code -?D{1,18}(.D{1,10})?}
     * (spaces, a sign +, an exponent, more digits than two longs hold) leaves the numeric facts
     * to SQL, whose cast decides those.
     */
    private void addDecimal(PlainNumber n, byte[] b, int off, int len) {
        if (n == null || n.exponent || n.intDigits > 18 || n.fracDigits > 10) {
            decimalValid = false;
            return;
        }
        whole = n.negative ? -n.whole : n.whole;
        long f = n.fraction * PlainNumber.POW10[10 - n.fracDigits];
        fraction = n.negative ? -f : f;
        scale = n.scale;
        usedScale = Math.max(usedScale, scale);
        if (scale == 0) {
            integral++;
        }
        int c = minNumber == null ? -1 : compare(whole, fraction, minWhole, minFraction);
        if (c < 0 || c == 0 && less(b, off, len, minNumber)) {
            minWhole = whole;
            minFraction = fraction;
            minNumber = Arrays.copyOfRange(b, off, off + len);
        }
        c = maxNumber == null ? 1 : compare(whole, fraction, maxWhole, maxFraction);
        if (c > 0 || c == 0 && less(b, off, len, maxNumber)) {
            maxWhole = whole;
            maxFraction = fraction;
            maxNumber = Arrays.copyOfRange(b, off, off + len);
        }
    }

    private static int compare(long w1, long f1, long w2, long f2) {
        int c = Long.compare(w1, w2);
        return c != 0 ? c : Long.compare(f1, f2);
    }

    /** Whether a value is one of the markers: as text for text, as DuckDB shows a BLOB for bytes. */
    private boolean isMarker(byte[] b, int off, int len) {
        if (len > 0 && !markerStart[b[off] & 0xff]) {
            return false; // most short values ('paid', 'DE') start with no marker's first byte
        }
        for (byte[] m : markerSpellings) {
            if (m.length == len && Arrays.equals(b, off, off + len, m, 0, len)) {
                // a BLOB's text is its bytes where they are printable ASCII but for \ ' and ":
                // every marker is such but "\N", whose backslash DuckDB shows as \x5C
                return !bytes || shownBlob(m).equals(new String(m, StandardCharsets.UTF_8));
            }
        }
        return false;
    }

    /**
     * {@code b[off, off+len)} into {@code into} when it has that length (a bound replaced by an
     * equally long one: a rising key or timestamp column replaces its max at every value), else
     * into a new array. No bound shares its array with another.
     */
    private static byte[] copy(byte[] into, byte[] b, int off, int len) {
        if (into == null || into.length != len) {
            return Arrays.copyOfRange(b, off, off + len);
        }
        System.arraycopy(b, off, into, 0, len);
        return into;
    }

    /**
     * The first eight bytes of a value as an unsigned big-endian number, zeros past its end. Two
     * values whose prefixes differ sort as their prefixes do: at the first byte where the words
     * differ, either both values have a byte, or the shorter has ended (a zero) where the other
     * has a byte above zero (equal zero bytes would not differ there), and the shorter sorts first.
     * A value of eight bytes or more: one load of the eight ({@link MemoryUtil#getLong(byte[],
     * long)}, which C1, the compiler of the runs below the launcher's line, makes one instruction,
     * where a byte-array VarHandle is a chain of calls), turned big-endian; eight byte reads were
     * eight bounds-checked loads (15 of the fillers' 228 samples on ORM 100 MB, C1). A shorter
     * value is read byte by byte: one load masked to its bytes (c42cd5c) made pandas, whose
     * strings are mostly two to four bytes, 1.09x slower in quiet pairs under C1, which calls
     * {@code Long.reverseBytes} rather than make it an instruction (docs/benchmarks.md, issue 32).
     */
    static long prefix(byte[] b, int off, int len) {
        if (len >= 8) {
            long w = MemoryUtil.getLong(b, off);
            return LITTLE_ENDIAN ? bigEndian(w) : w;
        }
        long w = 0;
        for (int i = 0; i < len; i++) {
            w = (w << 8) | (b[off + i] & 0xff);
        }
        return w << (8 * (8 - len));
    }

    /**
     * {@code w}'s bytes in the other order: {@code Long.reverseBytes} where C2 compiles (one
     * instruction), its own shifts written out under C1 alone, which does not make it an
     * intrinsic and calls it ("callee is too large", {@code -XX:+PrintInlining}).
     */
    private static long bigEndian(long w) {
        return DistinctHashes.C1_ALONE ? swapBytes(w) : Long.reverseBytes(w);
    }

    /** {@code Long.reverseBytes}' own shifts (JDK 17), for C1 to compile in place of the call. */
    static long swapBytes(long w) {
        long i = (w & 0x00ff00ff00ff00ffL) << 8 | (w >>> 8) & 0x00ff00ff00ff00ffL;
        return (i << 48) | ((i & 0xffff0000L) << 16) | ((i >>> 16) & 0xffff0000L) | (i >>> 48);
    }

    private static final boolean LITTLE_ENDIAN = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;

    /**
     * The value's bytes 8 to 15 as {@link #prefix} reads its first eight (zeros past its end), 0
     * for a value of eight bytes or fewer. Of two values whose first eight bytes are the same,
     * both eight or more, these words order them as their bytes do, by {@link #prefix}'s argument.
     */
    static long second(byte[] b, int off, int len) {
        return len > 8 ? prefix(b, off + 8, Math.min(len - 8, 8)) : 0;
    }

    /**
     * Whether the value (words {@code w}, {@code w2}) sorts before {@code than} (words {@code
     * thanWord}, {@code thanWord2}, {@link #prefix} and {@link #second}).
     */
    private static boolean less(
            long w, long w2, byte[] b, int off, int len, long thanWord, long thanWord2, byte[] than) {
        if (w != thanWord) {
            return Long.compareUnsigned(w, thanWord) < 0;
        }
        boolean whole = len >= 8 && than.length >= 8; // the first words are the first bytes, no zeros past an end
        if (whole && w2 != thanWord2) {
            return Long.compareUnsigned(w2, thanWord2) < 0;
        }
        return compare(b, off, len, than, whole ? 8 : 0) < 0;
    }

    /** Whether {@code a} (words {@code aWord}, {@code aWord2}) sorts before the value (words {@code w}, {@code w2}). */
    private static boolean less(long aWord, long aWord2, byte[] a, long w, long w2, byte[] b, int off, int len) {
        if (w != aWord) {
            return Long.compareUnsigned(aWord, w) < 0;
        }
        boolean whole = len >= 8 && a.length >= 8;
        if (whole && w2 != aWord2) {
            return Long.compareUnsigned(aWord2, w2) < 0;
        }
        return compare(b, off, len, a, whole ? 8 : 0) > 0;
    }

    /** Whether {@code b[off, off+len)} sorts before {@code than}, byte by byte unsigned, a prefix first. */
    private static boolean less(byte[] b, int off, int len, byte[] than) {
        if (len > 0 && than.length > 0 && b[off] != than[0]) {
            return (b[off] & 0xff) < (than[0] & 0xff); // most values: told by the first byte
        }
        return compare(b, off, len, than, 0) < 0;
    }

    private static boolean less(byte[] a, byte[] b, int off, int len) {
        if (len > 0 && a.length > 0 && b[off] != a[0]) {
            return (a[0] & 0xff) < (b[off] & 0xff);
        }
        return compare(b, off, len, a, 0) > 0;
    }

    /**
     * Unsigned byte order, eight bytes a step: cheaper on short values than the library's call,
     * which took half the filler's time in facts. The words are read as {@link #prefix} reads
     * them, byte by byte, not through a byte-array view: C1 (every run below 320 MB) calls a
     * VarHandle's access through its guard and form methods, where a plain static call does (the
     * pairs in docs/benchmarks.md, issue 32, "The fixed cost").
     */
    private static int compare(byte[] b, int off, int len, byte[] other, int from) {
        int n = Math.min(len, other.length);
        int i = from;
        for (; i + 8 <= n; i += 8) { // eight bytes a step, as big-endian numbers
            long x = prefix(b, off + i, 8);
            long y = prefix(other, i, 8);
            if (x != y) {
                return Long.compareUnsigned(x, y);
            }
        }
        for (; i < n; i++) {
            int x = b[off + i] & 0xff;
            int y = other[i] & 0xff;
            if (x != y) {
                return x - y;
            }
        }
        return len - other.length;
    }

    public long nonNull() {
        return nonNull;
    }

    /** Null, as SQL's min of no rows. */
    public Long minLen() {
        return nonNull == 0 ? null : minLen;
    }

    public Long maxLen() {
        return nonNull == 0 ? null : maxLen;
    }

    public Long sumLen() {
        return nonNull == 0 ? null : sumLen;
    }

    public long long127() {
        return long127;
    }

    public Long maxChars() {
        return nonNull == 0 ? null : maxChars;
    }

    public long trailingSpace() {
        return trailingSpace;
    }

    public long markers() {
        return markers;
    }

    public Long realMinLen() {
        return markers == 0 ? minLen() : realMax == null ? null : realMinLen;
    }

    public Long realMaxLen() {
        return markers == 0 ? maxLen() : realMax == null ? null : realMaxLen;
    }

    public long mwTimestamps() {
        return mwTimestamps;
    }

    /** The least of the MediaWiki timestamps, or null (as SQL's min of no rows). */
    public String mwTimestampMin() {
        return mwMin == null ? null : new String(mwMin, StandardCharsets.US_ASCII);
    }

    public String mwTimestampMax() {
        return mwMax == null ? null : new String(mwMax, StandardCharsets.US_ASCII);
    }

    /** Whether the numeric facts of a DECIMAL's text hold: every value plainly spelled. */
    public boolean decimalFacts() {
        return decimalValid;
    }

    /** Values a cast to DECIMAL(38,10) rejects: none, since all are plain. */
    public long castFailures() {
        return 0;
    }

    public Long usedScale() {
        return nonNull == 0 ? null : usedScale;
    }

    public long integral() {
        return integral;
    }

    /** The spelling of the least value (of equal values, the least spelling). */
    public String minNumber() {
        return minNumber == null ? null : new String(minNumber, StandardCharsets.US_ASCII);
    }

    public String maxNumber() {
        return maxNumber == null ? null : new String(maxNumber, StandardCharsets.US_ASCII);
    }

    /** The least whole part (the value cut toward zero), as integer text. */
    public String minWhole() {
        return minNumber == null ? null : Long.toString(minWhole);
    }

    public String maxWhole() {
        return maxNumber == null ? null : Long.toString(maxWhole);
    }

    /**
     * Whether the profile will ask SQL about these values after all, as far as the values so far
     * tell: the facts no longer hold, or no exact distinct count is kept ({@link #exactDistinct}'s
     * ways, without counting). With {@link #floatFacts}, what a double column sends DuckDB as
     * text from then on ({@link ArrowRowBuilder}).
     */
    boolean sqlReads() {
        return !valid
                || (few == null
                        && !ascending
                        && !(scaledValid && !bitsGaveUp)
                        && hashes == null
                        && words == null
                        && hashedDistinct < 0);
    }

    /**
     * The exact number of distinct values (as {@code count(DISTINCT)} of the text or bytes
     * counts them), or null when the loader could not count them: a short list, numbers
     * spelled one way each whose range fits the bits, or values whose 128-bit hashes fit the
     * loader's budget ({@link DistinctHashes}: exact but for a collision of all 128 bits).
     */
    public Long exactDistinct() {
        if (few != null) {
            return (long) fewCount;
        }
        if (ascending) {
            return nonNull;
        }
        if (scaledValid && !bitsGaveUp) {
            return integerDistinct();
        }
        DistinctHashes h = hashes; // read once: moreDistinctThan asks while a filler counts on
        if (h != null) {
            return h.count();
        }
        DistinctHashes w = words;
        if (w != null) {
            return w.count();
        }
        return hashedDistinct >= 0 ? hashedDistinct : null;
    }

    /**
     * The most distinct values the key of a low-cardinality index takes (index-digest's rule:
     * the analyzer's {@code LowCardinalityIndexes}): an index column holding more is never grouped
     * by, so it may be left out of the rest of a long run like any column counted whole ({@link
     * DumpLoader}). The analyzer's check skips such a column on the profile's exact count, which
     * is this count at the run's end; where that count gave up after the cut, the profile asks
     * for the column and the analysis loads again whole ({@link ColumnNotLoaded}).
     */
    public static final int INDEX_FEW_VALUES = 5;

    /**
     * Whether the values so far hold more than {@code k} distinct values for certain: an exact
     * count above it, a BIGINT column's bits ({@link #integerDistinct}, as the profile counts
     * them) or the text's ({@link #exactDistinct}). Read on DuckDB's thread while the filler
     * counts on ({@link DumpLoader}): both counts read each field that may change once, a count
     * only grows, and a stale one is still a floor. Without an exact count (a sketch alone), false.
     */
    public boolean moreDistinctThan(ColumnStorage storage, long k) {
        if (!valid
                || (storage != ColumnStorage.INT64
                        && storage != ColumnStorage.TEXT
                        && storage != ColumnStorage.BYTES)) {
            return false;
        }
        Long n = storage == ColumnStorage.INT64 ? integerDistinct() : exactDistinct();
        return n != null && n > k;
    }

    /**
     * The loader's estimate of the distinct values ({@link DistinctSketch}, within {@link
     * #ESTIMATE_MARGIN} of the count), where it has no exact count ({@link #exactDistinct} null)
     * but sketched every value; else null.
     */
    public Long estimatedDistinct() {
        return exactDistinct() == null && sketch != null ? sketch.estimate() : null;
    }

    /** Values {@code YYYY-MM-DD} that are a day. */
    public long dates() {
        return dates;
    }

    /** Values {@code YYYY-MM-DD HH:MM:SS} that are a time of a day. */
    public long timestamps() {
        return timestamps;
    }

    public String timestampMin() {
        return tsMin == null ? null : new String(tsMin, StandardCharsets.US_ASCII);
    }

    public String timestampMax() {
        return tsMax == null ? null : new String(tsMax, StandardCharsets.US_ASCII);
    }

    public long uuids() {
        return uuids;
    }

    /**
     * Of the values counted as {@link #timestamps} or {@link #isoTimestamps}, those whose time is
     * 00:00:00 with a zero fraction.
     */
    public long midnights() {
        return midnights;
    }

    /**
     * The ISO-8601 format ({@link IsoTimestamps}) whose timestamps were counted, or null: the
     * spelling of the first seen. A profile that reads the column in another format asks SQL.
     */
    public String isoFormat() {
        return isoFormat;
    }

    /** Values that print back as themselves in {@link #isoFormat}. */
    public long isoTimestamps() {
        return isoTimestamps;
    }

    public String isoMin() {
        return isoMin == null ? null : new String(isoMin, StandardCharsets.US_ASCII);
    }

    public String isoMax() {
        return isoMax == null ? null : new String(isoMax, StandardCharsets.US_ASCII);
    }

    /** Whether the numeric pattern counts below hold (every value judged). */
    public boolean numberFacts() {
        return numbersValid;
    }

    /** Values whose text a cast to BIGINT prints back unchanged. */
    public long intCanonical() {
        return intCanonical;
    }

    /** The least of those, as integer text, or null (none). */
    public String strIntMin() {
        return intCanonical == 0 ? null : Long.toString(strIntMin);
    }

    public String strIntMax() {
        return intCanonical == 0 ? null : Long.toString(strIntMax);
    }

    /** Values spelled as a canonical decimal with a point, {@code -?(0|[1-9][0-9]*)\.[0-9]+}. */
    public long decimalCanonical() {
        return decimalCanonical;
    }

    /** The most digits before the point of those, or null (none). */
    public Long decimalIntDigits() {
        return decimalCanonical == 0 ? null : (long) decimalIntDigits;
    }

    public Long decimalFracMin() {
        return decimalCanonical == 0 ? null : (long) decimalFracMin;
    }

    public Long decimalFracMax() {
        return decimalCanonical == 0 ? null : (long) decimalFracMax;
    }

    /**
     * Whether every value of an integer column's text is a canonical integer of at most 18
     * digits: none fails the cast, and the bounds are {@link #strIntMin} and {@link #strIntMax}.
     */
    public boolean integerTextFacts() {
        return integerText && numbersValid;
    }

    /** Whether the facts of a FLOAT or DOUBLE column's values hold (every value plain and finite). */
    public boolean floatFacts() {
        return floatValid;
    }

    public long floatRoundTrip() {
        return floatRoundTrip;
    }

    /** Values that are whole numbers below 2^53 in magnitude. */
    public long floatIntegral() {
        return floatIntegral;
    }

    /** The least whole value, as integer text, or null (none). */
    public String floatIntMin() {
        return floatIntegral == 0 ? null : Long.toString(floatIntMin);
    }

    public String floatIntMax() {
        return floatIntegral == 0 ? null : Long.toString(floatIntMax);
    }

    /** The spelling of the least value (of equal values, the least spelling), or null. */
    public String floatMinNumber() {
        return floatMinSpelling == null ? null : new String(floatMinSpelling, StandardCharsets.US_ASCII);
    }

    public String floatMaxNumber() {
        return floatMaxSpelling == null ? null : new String(floatMaxSpelling, StandardCharsets.US_ASCII);
    }

    /** The least value, shown as the profile shows it: its first 60 characters. */
    public String minText() {
        return shown(min);
    }

    public String maxText() {
        return shown(max);
    }

    public String realMinText() {
        return shown(markers == 0 ? min : realMin);
    }

    public String realMaxText() {
        return shown(markers == 0 ? max : realMax);
    }

    private String shown(byte[] v) {
        if (v == null) {
            return null;
        }
        if (bytes) {
            return shownBlob(v);
        }
        String s = new String(v, StandardCharsets.UTF_8);
        return s.codePointCount(0, s.length()) <= 60 ? s : s.substring(0, s.offsetByCodePoints(0, 60));
    }

    /**
     * Bytes as DuckDB casts a BLOB to text, cut to 60 characters: printable ASCII as itself but
     * for the backslash and quotes, every other byte as {@code \xHH}.
     */
    public static String shownBlob(byte[] bytes) {
        StringBuilder sb = new StringBuilder();
        for (byte b : bytes) {
            int u = b & 0xff;
            if (u >= 32 && u <= 126 && u != '\\' && u != '\'' && u != '"') {
                sb.append((char) u);
            } else {
                sb.append(String.format("\\x%02X", u));
            }
            if (sb.length() >= 60) {
                break;
            }
        }
        return sb.length() > 60 ? sb.substring(0, 60) : sb.toString();
    }
}
