package dev.wastecheck.engine.metrics;

import org.HdrHistogram.Histogram;

/**
 * Per-query latency as the engine measures it (CPU time in memory, nanoseconds), kept in an
 * HdrHistogram with 3 significant digits from 1 ns to 1 minute. Device time is not in here: it
 * is modeled separately ({@link DeviceTime}). Not thread-safe: one recorder per thread, then
 * {@link #add}.
 */
public final class LatencyRecorder {
    private final Histogram histogram = new Histogram(1, 60_000_000_000L, 3);

    public void recordNanos(long nanos) {
        histogram.recordValue(Math.max(1, Math.min(nanos, 60_000_000_000L)));
    }

    public void add(LatencyRecorder other) {
        histogram.add(other.histogram);
    }

    public long count() {
        return histogram.getTotalCount();
    }

    public double percentileMicros(double p) {
        return histogram.getValueAtPercentile(p) / 1000.0;
    }

    public double meanMicros() {
        return histogram.getMean() / 1000.0;
    }

    public void reset() {
        histogram.reset();
    }

    /** The replay JSON's {@code latency_us}: p50, p95, p99, mean. */
    public Summary summary() {
        return new Summary(percentileMicros(50), percentileMicros(95), percentileMicros(99), meanMicros());
    }

    public record Summary(double p50, double p95, double p99, double mean) {}
}
