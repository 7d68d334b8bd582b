package dev.wastecheck.engine.buffer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class BufferPoolTest {

    @Test
    void evictsWithinItsBudgetAndWritesDirtyPagesBackToTheFile() throws Exception {
        Path file = Files.createTempFile("bp", ".db");
        try (StorageDevice dev = new StorageDevice(file, 1024, DeviceModel.NVME)) {
            BufferPool pool = new BufferPool(dev, 4 * 1024);
            assertThat(pool.capacityFrames()).isEqualTo(4);
            long[] pages = new long[20];
            for (int i = 0; i < 20; i++) {
                Frame f = pool.newPage();
                pages[i] = f.pageNo();
                f.buffer().putInt(100, 7000 + i);
                pool.unpin(f, true);
                assertThat(pool.residentPages()).isLessThanOrEqualTo(4);
            }
            // 16 of the 20 dirty pages had to leave memory, so 16 were written back
            assertThat(pool.evictions()).isEqualTo(16);
            assertThat(pool.writeBacks()).isEqualTo(16);
            assertThat(dev.writes()).isEqualTo(16);

            // every page reads back its own contents, the evicted ones from the file
            for (int i = 0; i < 20; i++) {
                Frame f = pool.pin(pages[i]);
                assertThat(f.buffer().getInt(100)).isEqualTo(7000 + i);
                pool.unpin(f, false);
            }
            assertThat(pool.misses()).isGreaterThanOrEqualTo(16);
            assertThat(dev.modeledDeviceNanos()).isEqualTo(dev.reads() * 85_000 + dev.writes() * 20_000);

            pool.flushAll();
            assertThat(Files.size(file)).isEqualTo(20 * 1024);
        }
        // a second device over the same file sees what the pool wrote
        try (StorageDevice dev = new StorageDevice(file, 1024, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 2 * 1024);
            assertThat(dev.pageCount()).isEqualTo(20);
            Frame f = pool.pin(13);
            assertThat(f.buffer().getInt(100)).isEqualTo(7013);
            pool.unpin(f, false);
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /**
     * A bulk reorganization's reads go through a ring of frames: the pages resident before it, and the pages it
     * creates, stay in memory; without the ring its reads push them out.
     */
    @Test
    void bulkReadsCycleThroughARingAndLeaveTheResidentPagesInMemory() {
        for (boolean ring : new boolean[] {true, false}) {
            try (StorageDevice dev = StorageDevice.temporary(512, DeviceModel.NVME)) {
                BufferPool pool = new BufferPool(dev, 256 * 512);
                long[] cold = new long[1000];
                for (int i = 0; i < cold.length; i++) { // written and evicted: on the device
                    Frame f = pool.newPage();
                    cold[i] = f.pageNo();
                    pool.unpin(f, true);
                }
                pool.flushAll();
                BufferPool.Bulk before = pool.bulk(ring ? BufferPool.Bulk.READS : BufferPool.Bulk.OFF);
                long[] hot = new long[100];
                for (int i = 0; i < cold.length; i++) { // a reorganization: reads every cold page, writes hot ones
                    Frame f = pool.pin(cold[i]);
                    pool.unpin(f, false);
                    if (i % 10 == 0) {
                        Frame h = pool.newPage();
                        hot[i / 10] = h.pageNo();
                        pool.unpin(h, true);
                    }
                }
                assertThat(pool.bulk(before)).isEqualTo(ring ? BufferPool.Bulk.READS : BufferPool.Bulk.OFF);
                pool.trackTouched();
                for (long h : hot) pool.unpin(pool.pin(h), false);
                long missed = 0;
                for (long h : hot) missed += pool.misses(h);
                if (ring) assertThat(missed).isZero();
                else assertThat(missed).isGreaterThan(50);
            }
        }
    }

    @Test
    void cleanPagesAreNotWrittenAndHitsAreCounted() {
        try (StorageDevice dev = StorageDevice.temporary(512, DeviceModel.NVME)) {
            BufferPool pool = new BufferPool(dev, 3 * 512);
            for (int i = 0; i < 6; i++) pool.unpin(pool.newPage(), true);
            pool.flushAll();
            long written = dev.writes();
            for (int round = 0; round < 3; round++) for (long p = 0; p < 6; p++) pool.unpin(pool.pin(p), false);
            assertThat(dev.writes()).isEqualTo(written); // reading never writes
            Frame a = pool.pin(0);
            Frame b = pool.pin(0);
            assertThat(a).isSameAs(b);
            pool.unpin(a, false);
            pool.unpin(b, false);
            assertThat(pool.hits()).isGreaterThanOrEqualTo(1);
        }
    }

    @Test
    void refusesToEvictPinnedPages() {
        try (StorageDevice dev = StorageDevice.temporary(512, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 2 * 512);
            pool.newPage();
            pool.newPage();
            assertThatThrownBy(pool::newPage)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("pinned");
        }
    }

    /**
     * While tracking, every pin counts for its page, on the lock-free path (a resident page) as on the locked one
     * (a miss), and a page's count outlives its frame when the page is evicted and read again; pins before {@link
     * BufferPool#trackTouched()} do not count, and a second call starts from nothing.
     */
    @Test
    void pinsWhileTrackingCountPerPageAcrossEvictions() {
        try (StorageDevice dev = StorageDevice.temporary(512, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 3 * 512);
            for (int i = 0; i < 6; i++) pool.unpin(pool.newPage(), true);
            for (long p = 0; p < 6; p++) pool.unpin(pool.pin(p), false); // before tracking: not counted
            assertThat(pool.touchedPages()).isZero();
            pool.trackTouched();
            int[] expected = new int[6];
            long[] sequence = {5, 5, 5, 0, 1, 2, 0, 3, 4, 5, 0, 0, 1};
            for (long p : sequence) {
                Frame f = pool.pin(p);
                assertThat(f.pageNo()).isEqualTo(p);
                pool.unpin(f, false);
                expected[(int) p]++;
            }
            for (int p = 0; p < 6; p++) {
                assertThat(pool.pins(p)).as("page %d", p).isEqualTo(expected[p]);
                assertThat(pool.touched(p)).isTrue();
            }
            assertThat(pool.touchedPages()).isEqualTo(6);
            assertThat(pool.misses(0)).isGreaterThanOrEqualTo(1); // page 0 left its frame and came back
            pool.trackTouched();
            assertThat(pool.touchedPages()).isZero();
            assertThat(pool.pins(5)).isZero();
            pool.unpin(pool.pin(5), false);
            assertThat(pool.pins(5)).isEqualTo(1);
            assertThat(pool.touchedPages()).isEqualTo(1);
            assertThat(pool.touched(4)).isFalse();
        }
    }
}
