package dev.wastecheck.engine.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.buffer.Frame;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.file.TupleId;
import java.util.Locale;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * How much a B+tree's natural free space can cache: for 8 KB leaves of 4-byte keys built by
 * random inserts, the share of the table's tuples whose item (8-byte tid plus the cached
 * fields) fits in the leaves' free space, i.e. the largest cache_size the engine can honour.
 */
class LeafFreeSpaceTest {

    @Test
    void naturalFreeSpaceHoldsItemsForAboutHalfTheTuples() {
        int n = 100_000;
        try (StorageDevice dev = StorageDevice.temporary(8192, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 64L << 20);
            BTree tree = new BTree(pool, true);
            int[] keys = new int[n];
            for (int i = 0; i < n; i++) keys[i] = i;
            Random r = new Random(7);
            for (int i = n - 1; i > 0; i--) {
                int j = r.nextInt(i + 1);
                int t = keys[i];
                keys[i] = keys[j];
                keys[j] = t;
            }
            for (int k : keys) tree.insert(KeyEncoder.ofInt(k), TupleId.of(k, 0));
            BTree.LeafStats stats = tree.leafStats();
            StringBuilder report = new StringBuilder(String.format(
                    Locale.ROOT,
                    "leaves %d, fill %.1f%%, free %d B (%.1f B per key)%n",
                    stats.leaves(),
                    100 * stats.fill(),
                    stats.freeBytes(),
                    (double) stats.freeBytes() / n));
            double[] shares = new double[3];
            int[] fieldBytes = {4, 8, 12};
            for (int i = 0; i < fieldBytes.length; i++) {
                int item = CacheRegion.ITEM_FIELDS + fieldBytes[i];
                long slots = 0;
                BTreePage leaf = new BTreePage();
                CacheRegion region = new CacheRegion();
                long page = firstLeaf(tree);
                while (page != BTreePage.NO_PAGE) {
                    Frame f = pool.pin(page);
                    leaf.wrap(f.buffer());
                    slots += region.wrapLeaf(leaf, item, 1.0).windowSlots();
                    page = leaf.link();
                    pool.unpin(f, false);
                }
                shares[i] = (double) slots / n;
                report.append(String.format(
                        Locale.ROOT,
                        "items of %d B (%d B of fields): room for %.1f%% of the tuples%n",
                        item,
                        fieldBytes[i],
                        100 * shares[i]));
            }
            System.out.print(report);
            assertThat(stats.fill()).isBetween(0.64, 0.74);
            assertThat(shares[0]).isBetween(0.55, 0.85);
            assertThat(shares[2]).isLessThan(shares[0]);
        }
    }

    private static long firstLeaf(BTree tree) {
        long[] first = {BTreePage.NO_PAGE};
        BufferPool pool = tree.pool();
        long page = tree.rootPage();
        BTreePage p = new BTreePage();
        while (true) {
            Frame f = pool.pin(page);
            p.wrap(f.buffer());
            boolean leaf = p.isLeaf();
            long next = p.link();
            pool.unpin(f, false);
            if (leaf) {
                first[0] = page;
                return first[0];
            }
            page = next;
        }
    }
}
