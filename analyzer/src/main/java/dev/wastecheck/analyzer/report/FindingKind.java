package dev.wastecheck.analyzer.report;

import java.util.Locale;

/**
 * What a finding is about. Each kind has a short stable word ({@link #key()}, also its {@link
 * #toString()}), which is what the JSON contract (docs/json.md), the text report and the
 * migration's comments print. Encoding kinds say a narrower type holds the values; semantic kinds
 * ("No Bits Left Behind" §4.2) say what a column is rather than how it is encoded.
 */
public enum FindingKind {
    // encoding: a tighter type holds every value
    NARROW_INTEGER(false),
    NARROW_DECIMAL(false),
    NARROW_FLOAT(false),
    FLOAT_HOLDS_INTEGER(false),
    TIMESTAMP_HOLDS_DATE(false),
    STRING_HOLDS_INTEGER(false),
    STRING_HOLDS_DECIMAL(false),
    STRING_HOLDS_BOOLEAN(false),
    STRING_HOLDS_TIMESTAMP(false),
    STRING_HOLDS_DATE(false),
    STRING_HOLDS_UUID(false),
    LOW_CARDINALITY(false),
    PADDING(false),
    // about the values, not a narrower type
    TYPE_MISMATCH(false),
    /** Values outside the declared type (300 in a TINYINT UNSIGNED): the suggestion holds them. */
    OUT_OF_TYPE(false),
    NULL_MARKER(false),
    // notes: why the declared type stays, and what a column refers to (no bytes, no change)
    KEPT_DECLARED(false),
    REFERENCES(false),
    /**
     * Where tune's migration leaves out or alters the suggestion, and why: a change of what the
     * application reads (applied only with {@code --representation}), or one tune cannot apply.
     */
    TUNE_NOTE(false),
    // semantic
    CONSTANT(true),
    ALL_NULL(true),
    DUPLICATE_COLUMN(true),
    IMPLICIT_ID(true),
    FUNCTIONAL_DEPENDENCY(true),
    /** A dependency a handful of rows break, with those rows: a note, never a change (§4.2). */
    NEAR_DEPENDENCY(true),
    UNUSED_COLUMN(true),
    /** A large field never read, only projected or compared by equality, with what zstd saves on it (§4.1). */
    COMPRESSION_CANDIDATE(true),
    GRANULARITY(true),
    // space outside the columns ("No Bits Left Behind" §1, §5: empty space in pages): a table's
    // free and dead space worth a rebuild, a counter near the end of its type, the per-table account
    /** Empty space in a table's or an index's pages that a rebuild gives back. */
    FREE_SPACE(false),
    /** Dead rows a VACUUM has not reclaimed (PostgreSQL). */
    DEAD_SPACE(false),
    /** A sequence or AUTO_INCREMENT counter past 80% of the largest value it may give. */
    SEQUENCE_HEADROOM(false),
    /** A table's declared bytes in one account (rows, waste, indexes, free and dead space) against the engine's figure. */
    SPACE_ACCOUNT(false),
    // indexes ("No Bits Left Behind" §1: unused space in index pages): about an index, not a column
    /** An index another index makes useless: a duplicate, a left prefix, one the primary key covers. */
    REDUNDANT_INDEX(false),
    /** An index no read used over a stated period (the trace, or the server's statistics). */
    UNUSED_INDEX(false),
    /** An index of 5 values or fewer on 1,000+ rows, its rarest value in 20% of them (index-digest's rule). */
    LOW_CARDINALITY_INDEX(false);

    private final boolean semantic;
    private final String key;

    FindingKind(boolean semantic) {
        this.semantic = semantic;
        this.key = name().toLowerCase(Locale.ROOT);
    }

    /** The stable word: {@code narrow_integer}, {@code unused_column}, ... */
    public String key() {
        return key;
    }

    /** About what a column is (constant, duplicate, unused, ...) rather than how it is encoded. */
    public boolean semantic() {
        return semantic;
    }

    /**
     * A note rather than a finding: why a column keeps its declared type ({@code kept_declared}:
     * too little evidence, a key's floor, a counter, an identifier held as text), or which key its
     * values refer to ({@code references}). Notes save no bytes and ask for no change.
     */
    public boolean note() {
        return this == KEPT_DECLARED
                || this == REFERENCES
                || this == NEAR_DEPENDENCY
                || this == TUNE_NOTE
                || this == SPACE_ACCOUNT;
    }

    /** About an index rather than a column: reported in {@link AnalysisReport#indexFindings()}. */
    public boolean aboutIndex() {
        return this == REDUNDANT_INDEX || this == UNUSED_INDEX || this == LOW_CARDINALITY_INDEX;
    }

    /** A string-typed column whose values are all of another type. */
    public boolean stringHolds() {
        return name().startsWith("STRING_HOLDS_");
    }

    /** The kind a stable word names. */
    public static FindingKind of(String key) {
        for (FindingKind k : values()) {
            if (k.key.equals(key)) {
                return k;
            }
        }
        throw new IllegalArgumentException("no finding kind '" + key + "'");
    }

    @Override
    public String toString() {
        return key;
    }
}
