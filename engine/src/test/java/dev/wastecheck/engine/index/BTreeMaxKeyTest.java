package dev.wastecheck.engine.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.file.TupleId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The greatest key a tree has held, kept in memory: a lookup or scan from a key above it reads no page and finds
 * nothing, and every other answer is the descent's, also after the greatest key is deleted (the bound stays, an
 * upper bound) and in a non-unique tree looked up by a prefix. Both leaf formats.
 */
class BTreeMaxKeyTest {
    private static byte[] key(long v) {
        return KeyEncoder.ofLong(v);
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 8})
    void aKeyAboveEveryKeyIsAnsweredWithoutAPage(int packedWidth) {
        try (StorageDevice dev = StorageDevice.temporary(4096, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 256 * 4096);
            BTree tree = new BTree(pool, true, packedWidth);
            assertThat(tree.maxKey()).isNull();
            assertThat(tree.lookup(key(5))).as("an empty tree").isEqualTo(TupleId.NONE);
            for (long k = 0; k < 5_000; k += 2)
                assertThat(tree.insert(key(k), TupleId.of(k / 100, (int) (k % 100))))
                        .isTrue();
            assertThat(tree.height()).as("a tree of several levels").isGreaterThan(1);
            assertThat(tree.maxKey()).isEqualTo(key(4_998));

            pool.trackTouched();
            assertThat(tree.lookup(key(4_999))).isEqualTo(TupleId.NONE);
            assertThat(tree.lookup(key(1_000_000))).isEqualTo(TupleId.NONE);
            List<Long> seen = new ArrayList<>();
            tree.scan(key(5_000), null, true, (k, tid) -> seen.add(tid));
            assertThat(seen).isEmpty();
            assertThat(pool.touchedPages())
                    .as("no page read for keys above every key")
                    .isZero();

            // keys at or below the bound still descend, and find what is there
            assertThat(tree.lookup(key(4_998))).isEqualTo(TupleId.of(49, 98));
            assertThat(tree.lookup(key(4_997))).isEqualTo(TupleId.NONE);
            assertThat(pool.touchedPages()).isGreaterThan(0);

            // a delete leaves the bound: the deleted key is looked up in the tree, and not found
            assertThat(tree.delete(key(4_998), TupleId.of(49, 98))).isTrue();
            assertThat(tree.maxKey()).isEqualTo(key(4_998));
            assertThat(tree.lookup(key(4_998))).isEqualTo(TupleId.NONE);
            assertThat(tree.lookup(key(4_996))).isEqualTo(TupleId.of(49, 96));
            // an insert above it raises it
            assertThat(tree.insert(key(7_000), TupleId.of(70, 0))).isTrue();
            assertThat(tree.maxKey()).isEqualTo(key(7_000));
            assertThat(tree.lookup(key(7_000))).isEqualTo(TupleId.of(70, 0));
            seen.clear();
            tree.scan(key(4_999), null, true, (k, tid) -> seen.add(tid));
            assertThat(seen).containsExactly(TupleId.of(70, 0));
        }
    }

    @org.junit.jupiter.api.Test
    void aNonUniqueTreeLookedUpByAPrefix() {
        try (StorageDevice dev = StorageDevice.temporary(4096, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 256 * 4096);
            BTree tree = new BTree(pool, false);
            // keys (page, revision): 8 + 8 bytes; the prefix is a page's 8 bytes
            for (long page = 0; page < 300; page++)
                for (long rev = 0; rev < 5; rev++) {
                    byte[] k = new byte[16];
                    System.arraycopy(key(page), 0, k, 0, 8);
                    System.arraycopy(key(page * 10 + rev), 0, k, 8, 8);
                    tree.insert(k, TupleId.of(page, (int) rev));
                }
            List<Long> seen = new ArrayList<>();
            tree.scan(key(299), null, true, (k, tid) -> seen.add(tid));
            assertThat(seen).as("the greatest key's prefix is below the bound").hasSize(5);
            pool.trackTouched();
            seen.clear();
            tree.scan(key(300), null, true, (k, tid) -> seen.add(tid));
            assertThat(tree.lookup(key(300))).isEqualTo(TupleId.NONE);
            assertThat(seen).isEmpty();
            assertThat(pool.touchedPages()).isZero();
        }
    }
}
