package dev.wastecheck.engine.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import org.junit.jupiter.api.Test;

class DeviceTimeTest {

    @Test
    void missesCostTheModeledDeviceTimeApartFromMeasuredLatency() {
        try (StorageDevice dev = StorageDevice.temporary(4096, DeviceModel.NVME)) {
            BufferPool pool = new BufferPool(dev, 2 * 4096);
            for (int i = 0; i < 10; i++) pool.unpin(pool.newPage(), true);
            pool.flushAll();
            DeviceTime device = new DeviceTime(dev);
            LatencyRecorder latency = new LatencyRecorder();
            for (int round = 0; round < 2; round++)
                for (long p = 0; p < 10; p++) {
                    long t0 = System.nanoTime();
                    pool.unpin(pool.pin(p), false);
                    latency.recordNanos(System.nanoTime() - t0);
                }
            // two frames, ten pages read in a cycle: every pin misses; nothing is dirty
            assertThat(device.reads()).isEqualTo(20);
            assertThat(device.writes()).isZero();
            assertThat(device.nanos()).isEqualTo(20 * 85_000L);
            assertThat(device.microsPerQuery(20)).isEqualTo(85.0);
            assertThat(latency.count()).isEqualTo(20);
            assertThat(latency.summary().p50()).isPositive();
        }
    }
}
