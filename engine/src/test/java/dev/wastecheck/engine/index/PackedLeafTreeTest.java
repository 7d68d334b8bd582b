package dev.wastecheck.engine.index;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.file.TupleId;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.*;
import org.junit.jupiter.api.Test;

/**
 * A tree of {@link PackedLeafPage} leaves against a tree of {@link BTreePage} leaves (the format
 * every other index uses, itself checked against a TreeMap by {@link BTreePropertiesTest}): the
 * same random inserts, deletes, lookups and scans, with the same answers, over 512-byte pages so
 * that a few hundred keys split leaves and grow interior levels. Tuple ids are mostly close
 * together (a hot partition's), and one in eight far away, so leaves re-encode at wider widths
 * and split because an offset, not the count, outgrew them.
 */
class PackedLeafTreeTest {

    enum Kind {
        INSERT,
        DELETE,
        LOOKUP,
        SCAN,
        PREFIX_SCAN
    }

    record Op(Kind kind, int key, int key2, int tid) {}

    /** Fixed-width integer keys: 4-byte ints, 8-byte longs with far outliers, (int, u8) composites. */
    enum Family {
        INT(4) {
            byte[] key(int i) {
                return KeyEncoder.ofInt(i - 500);
            }
        },
        LONG(8) {
            byte[] key(int i) {
                return KeyEncoder.ofLong(i % 10 == 0 ? (long) (i - 500) << 40 : i - 500);
            }
        },
        INT_U8(5) {
            byte[] key(int i) {
                return new KeyEncoder()
                        .appendInt(i / 3 - 100)
                        .appendUnsigned(i % 3, 1)
                        .toBytes();
            }
        };

        final int width;

        Family(int width) {
            this.width = width;
        }

        abstract byte[] key(int i);
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Combinators.combine(
                        Arbitraries.of(
                                Kind.INSERT,
                                Kind.INSERT,
                                Kind.INSERT,
                                Kind.DELETE,
                                Kind.LOOKUP,
                                Kind.SCAN,
                                Kind.PREFIX_SCAN),
                        Arbitraries.integers().between(0, 999),
                        Arbitraries.integers().between(0, 999),
                        Arbitraries.integers().between(0, 4095))
                .as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(1500);
    }

    private static long tid(int key, int t) {
        return t % 8 == 0 ? TupleId.of(1L << 40 | t, key % 100) : TupleId.of(1000 + key / 4, t % 64);
    }

    private static List<Long> scan(BTree tree, byte[] lo, byte[] hi, boolean inclusive) {
        List<Long> got = new ArrayList<>();
        tree.scan(lo, hi, inclusive, (BTree.EntryVisitor) (key, t) -> got.add(t));
        return got;
    }

    private static List<String> keys(BTree tree) {
        List<String> all = new ArrayList<>();
        tree.scan(null, null, false, (BTree.EntryVisitor) (key, t) -> all.add(Arrays.toString(key) + t));
        return all;
    }

    @Property(tries = 40)
    void uniquePackedTreeAnswersAsTheSlottedTree(@ForAll("ops") List<Op> ops, @ForAll Family family) {
        run(ops, family, true);
    }

    @Property(tries = 40)
    void nonUniquePackedTreeAnswersAsTheSlottedTree(@ForAll("ops") List<Op> ops, @ForAll Family family) {
        run(ops, family, false);
    }

    private void run(List<Op> ops, Family family, boolean unique) {
        try (StorageDevice dev = StorageDevice.temporary(512, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 64 * 512); // smaller than the trees: evictions happen
            BTree slotted = new BTree(pool, unique);
            BTree packed = new BTree(pool, unique, family.width);
            for (Op op : ops) {
                // a non-unique tree: few distinct keys, many tuples a key
                byte[] k = family.key(unique ? op.key() : op.key() % 40);
                long tid = tid(op.key(), op.tid());
                switch (op.kind()) {
                    case INSERT -> assertThat(packed.insert(k, tid)).isEqualTo(slotted.insert(k, tid));
                    case DELETE -> {
                        long t = unique && op.tid() % 2 == 0 ? TupleId.NONE : tid;
                        assertThat(packed.delete(k, t)).isEqualTo(slotted.delete(k, t));
                    }
                    case LOOKUP -> assertThat(packed.lookup(k)).isEqualTo(slotted.lookup(k));
                    case SCAN -> {
                        byte[] hi = family.key(unique ? op.key2() : op.key2() % 40);
                        boolean inclusive = op.tid() % 2 == 0;
                        assertThat(scan(packed, k, hi, inclusive)).isEqualTo(scan(slotted, k, hi, inclusive));
                    }
                    case PREFIX_SCAN -> {
                        // bounds shorter and longer than the keys, as a prefix of a composite key binds
                        byte[] lo = Arrays.copyOf(k, Math.max(0, k.length - 1 - op.tid() % 3));
                        byte[] hi = Arrays.copyOf(family.key(op.key2()), family.width + op.tid() % 2);
                        assertThat(scan(packed, lo, hi, true)).isEqualTo(scan(slotted, lo, hi, true));
                        assertThat(scan(packed, lo, null, false)).isEqualTo(scan(slotted, lo, null, false));
                    }
                }
            }
            assertThat(packed.size()).isEqualTo(slotted.size());
            assertThat(keys(packed)).isEqualTo(keys(slotted));
            assertThat(packed.leafStats().entries()).isEqualTo(slotted.size());
        }
    }

    /**
     * A hot partition's primary index as the split builds it: consecutive keys with their tuples in
     * key order, 4 KiB pages. The packed leaves hold an entry in at most 5 bytes (2 of key offset, 3
     * of tuple id offset) where the slotted leaves pay 20 (2 + 4 + 8 + 6 directory), and are full.
     */
    @Test
    void aKeyOrderedBuildTakesAQuarterOfTheLeaves() {
        try (StorageDevice dev = StorageDevice.temporary(4096, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 256 * 4096);
            BTree slotted = new BTree(pool, true);
            BTree packed = new BTree(pool, true, 4);
            for (int i = 0; i < 20_000; i++) {
                byte[] k = KeyEncoder.ofInt(1_000_000 + 12 * i);
                long tid = TupleId.of(30_000 + i / 60, i % 60);
                assertThat(slotted.insert(k, tid)).isTrue();
                assertThat(packed.insert(k, tid)).isTrue();
            }
            BTree.LeafStats s = slotted.leafStats(), p = packed.leafStats();
            assertThat(p.entries()).isEqualTo(20_000);
            assertThat(p.fill()).isGreaterThan(0.95);
            assertThat((double) p.leaves() * 4096 / 20_000).isLessThan(5.5);
            assertThat(p.leaves() * 3).isLessThan(s.leaves());
            assertThat(packed.lookup(KeyEncoder.ofInt(1_000_000 + 12 * 777))).isEqualTo(TupleId.of(30_012, 57));
            assertThat(packed.lookup(KeyEncoder.ofInt(1_000_001))).isEqualTo(TupleId.NONE);
        }
    }

    @Test
    void aKeyOfAnotherWidthIsRefusedAndTheIndexCacheNeedsSlottedLeaves() {
        try (StorageDevice dev = StorageDevice.temporary(512, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 16 * 512);
            BTree packed = new BTree(pool, true, 4);
            assertThatThrownBy(() ->
                            packed.insert(new KeyEncoder().appendSigned(1, 2).toBytes(), 1))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("4-byte keys");
            assertThatThrownBy(() -> new IndexCache(packed, 8, CachePolicy.SWAP, 0.3))
                    .isInstanceOf(IllegalArgumentException.class);
        }
    }
}
