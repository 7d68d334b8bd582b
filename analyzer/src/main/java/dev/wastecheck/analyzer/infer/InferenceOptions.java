package dev.wastecheck.analyzer.infer;

/**
 * Knobs of the type inference.
 *
 * @param headroom   factor by which an ordinary integer's observed range may grow and still fit
 * @param idHeadroom the same for identifiers (auto-increment, single-column primary keys, *_id):
 *                   they grow with the table, so the default leaves ten times the current maximum
 * @param enumMax    most distinct values a string column may have to become an ENUM or
 *                   dictionary type (PROCEDURE ANALYSE's max_elements idea); the default keeps
 *                   country codes, states and the like as strings
 */
public record InferenceOptions(double headroom, double idHeadroom, int enumMax) {
    public static final double DEFAULT_HEADROOM = 2.0;
    public static final double DEFAULT_ID_HEADROOM = 10.0;
    public static final int DEFAULT_ENUM_MAX = 16;

    public InferenceOptions {
        if (headroom < 1 || idHeadroom < 1) {
            throw new IllegalArgumentException("headroom must be at least 1 (no room to grow)");
        }
        if (enumMax < 0) {
            throw new IllegalArgumentException("enum cap must not be negative");
        }
    }

    public static InferenceOptions defaults() {
        return new InferenceOptions(DEFAULT_HEADROOM, DEFAULT_ID_HEADROOM, DEFAULT_ENUM_MAX);
    }
}
