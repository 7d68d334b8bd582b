package dev.wastecheck.layouts;

/** The page formats, and a factory for their flyweights. */
public enum Layout {
    /** N-ary storage model: whole records in a slotted page ({@link NsmPage}). */
    NSM,
    /** Partition attributes across: one mini-page per field ({@link PaxPage}). */
    PAX,
    /** The hybrid page layout, incremental variant (HPL-2012-240 §5; {@link HybridPage}). */
    HPL;

    /** A new flyweight of this layout for records of {@code schema}. */
    public Page newPage(RecordSchema schema) {
        switch (this) {
            case NSM:
                return new NsmPage(schema);
            case PAX:
                return new PaxPage(schema);
            case HPL:
                return new HybridPage(schema);
            default:
                throw new AssertionError(this);
        }
    }
}
