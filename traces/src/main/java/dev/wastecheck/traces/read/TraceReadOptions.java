package dev.wastecheck.traces.read;

/**
 * @param maxBadFraction share of a file's lines that may be malformed before reading fails (0.01 = 1%)
 * @param minLinesBeforeFailing lines read before the share is checked while reading (the end of the file is always checked)
 */
public record TraceReadOptions(double maxBadFraction, long minLinesBeforeFailing) {
    public static TraceReadOptions defaults() {
        return new TraceReadOptions(0.01, 1000);
    }

    public TraceReadOptions withMaxBadFraction(double f) {
        return new TraceReadOptions(f, minLinesBeforeFailing);
    }
}
