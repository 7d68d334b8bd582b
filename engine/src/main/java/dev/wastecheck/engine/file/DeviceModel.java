package dev.wastecheck.engine.file;

/**
 * What a page read or write would cost on a real storage device. The engine does real I/O
 * against a file (which the OS page cache usually absorbs), so its measured CPU time says
 * nothing about a device; this model adds, separately, the time each buffer-pool miss and
 * write-back would take on the stated device.
 *
 * @param name          the device the figures come from
 * @param readNanos     modeled latency of one random page read
 * @param writeNanos    modeled latency of one random page write
 */
public record DeviceModel(String name, long readNanos, long writeNanos) {

    /**
     * A data-center TLC NVMe drive at queue depth 1: the Intel SSD DC P4500 (PCIe 3.0 x4)
     * lists "read access latency random 85 µs" and "write access latency random 20 µs" for
     * 4 KB blocks (Lenovo Press product guide for the Intel P4500 NVMe, part 4XB7A08539,
     * technical specifications table).
     */
    public static final DeviceModel NVME =
            new DeviceModel("NVMe TLC (Intel DC P4500, QD1, 4 KB random)", 85_000, 20_000);

    /** No device cost: everything is memory. */
    public static final DeviceModel MEMORY = new DeviceModel("memory", 0, 0);

    public DeviceModel {
        if (readNanos < 0 || writeNanos < 0) throw new IllegalArgumentException("negative latency");
    }

    /** A device with the given random read latency in microseconds and the NVMe write ratio. */
    public static DeviceModel ofReadMicros(double readMicros) {
        long read = Math.round(readMicros * 1000);
        return new DeviceModel("custom (" + readMicros + " µs read)", read, Math.round(read * 20.0 / 85.0));
    }
}
