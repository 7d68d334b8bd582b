package dev.wastecheck.layouts;

import java.util.List;

/** The storage layouts of a table's heap: the page formats, with a factory for their flyweights, and Arrow blocks. */
public enum Layout {
    /** N-ary storage model: whole records in a slotted page ({@link NsmPage}). */
    NSM,
    /** Partition attributes across: one mini-page per field ({@link PaxPage}). */
    PAX,
    /** The hybrid page layout, incremental variant (HPL-2012-240 §5; {@link HybridPage}). */
    HPL,
    /**
     * Arrow-native blocks, relaxed while hot and frozen to canonical Arrow when cold (Mainlining
     * Databases §3-§4; {@code arrow.BlockLayout}): not a page, so it has no page flyweight.
     */
    ARROW;

    /** The page formats: every layout but {@link #ARROW}. */
    public static final List<Layout> PAGES = List.of(NSM, PAX, HPL);

    /** A new flyweight of this layout for records of {@code schema}. */
    public Page newPage(RecordSchema schema) {
        switch (this) {
            case NSM:
                return new NsmPage(schema);
            case PAX:
                return new PaxPage(schema);
            case HPL:
                return new HybridPage(schema);
            case ARROW:
                throw new IllegalArgumentException("Arrow blocks are not pages: they have no page flyweight");
            default:
                throw new AssertionError(this);
        }
    }
}
