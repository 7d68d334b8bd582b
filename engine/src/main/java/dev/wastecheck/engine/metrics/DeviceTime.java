package dev.wastecheck.engine.metrics;

import dev.wastecheck.engine.file.StorageDevice;

/**
 * The device time a run's buffer-pool misses and write-backs would cost on the device model,
 * kept apart from measured latency (the engine runs in memory; what a miss would cost on a disk
 * is a model, reported beside the measured time, never added into it): a snapshot of the device
 * counters at the start of a run, and the difference at its end.
 */
public final class DeviceTime {
    private final StorageDevice device;
    private long reads0, writes0;

    public DeviceTime(StorageDevice device) {
        this.device = device;
        start();
    }

    public void start() {
        reads0 = device.reads();
        writes0 = device.writes();
    }

    public long reads() {
        return device.reads() - reads0;
    }

    public long writes() {
        return device.writes() - writes0;
    }

    /** Modeled device nanoseconds since {@link #start()}. */
    public long nanos() {
        return reads() * device.model().readNanos() + writes() * device.model().writeNanos();
    }

    /** The replay JSON's {@code device_us_per_query}. */
    public double microsPerQuery(long queries) {
        return queries == 0 ? 0 : nanos() / 1000.0 / queries;
    }
}
