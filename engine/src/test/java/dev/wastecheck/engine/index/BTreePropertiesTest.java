package dev.wastecheck.engine.index;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.buffer.BufferPool;
import dev.wastecheck.engine.file.DeviceModel;
import dev.wastecheck.engine.file.StorageDevice;
import dev.wastecheck.engine.file.TupleId;
import java.util.*;
import net.jqwik.api.*;
import net.jqwik.api.constraints.IntRange;

/**
 * The B+tree against a TreeMap model: the same random inserts, deletes, lookups and range
 * scans, over small pages (512 B) so that a few hundred keys build a tree of several levels,
 * and over small key domains so that duplicates and deletes of present keys are common.
 */
class BTreePropertiesTest {

    enum Kind {
        INSERT,
        DELETE,
        LOOKUP,
        SCAN
    }

    record Op(Kind kind, int key, int key2, int tid) {}

    /** Key families: each maps an int to an encoded key. */
    enum Family {
        INT {
            byte[] key(int i) {
                return KeyEncoder.ofInt(i - 500);
            }
        },
        /**
         * 8-byte integers, most of small magnitude (whose sign-flipped encodings share their
         * first 4 bytes, 0x80000000 or 0x7FFFFFFF, so nodes keep a long common prefix) and every
         * tenth scaled by 2^40, which shortens a node's prefix when it arrives and puts search
         * keys outside other nodes' prefixes. All keys are 8 bytes: the tie-breaking byte
         * compares are the STRING and COMPOSITE families' job.
         */
        LONG {
            byte[] key(int i) {
                return KeyEncoder.ofLong(i % 10 == 0 ? (long) (i - 500) << 40 : i - 500);
            }
        },
        /** strings sharing long prefixes, so PMNK prefixes tie and full compares decide. */
        STRING {
            byte[] key(int i) {
                return KeyEncoder.ofString("user:" + "x".repeat(i % 7) + (i % 3 == 0 ? "\0" : "") + i);
            }
        },
        /** composite (string, int): city name then id. */
        COMPOSITE {
            byte[] key(int i) {
                return new KeyEncoder()
                        .appendString(new String[] {"", "a", "ab", "ab\0", "b"}[i % 5])
                        .appendInt(i / 5 - 60)
                        .toBytes();
            }
        };

        abstract byte[] key(int i);
    }

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Op> op = Combinators.combine(
                        Arbitraries.of(Kind.INSERT, Kind.INSERT, Kind.INSERT, Kind.DELETE, Kind.LOOKUP, Kind.SCAN),
                        Arbitraries.integers().between(0, 999),
                        Arbitraries.integers().between(0, 999),
                        Arbitraries.integers().between(0, 30))
                .as(Op::new);
        return op.list().ofMinSize(1).ofMaxSize(1500);
    }

    private static final Comparator<byte[]> BYTES = Arrays::compareUnsigned;

    @Property(tries = 40)
    void uniqueTreeBehavesLikeATreeMap(@ForAll("ops") List<Op> ops, @ForAll Family family) {
        try (StorageDevice dev = StorageDevice.temporary(512, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 64 * 512); // smaller than the tree: evictions happen
            BTree tree = new BTree(pool, true);
            TreeMap<byte[], Long> model = new TreeMap<>(BYTES);
            for (Op op : ops) {
                byte[] k = family.key(op.key());
                long tid = TupleId.of(op.key(), op.tid());
                switch (op.kind()) {
                    case INSERT -> {
                        boolean fresh = !model.containsKey(k);
                        assertThat(tree.insert(k, tid)).isEqualTo(fresh);
                        if (fresh) model.put(k, tid);
                    }
                    case DELETE -> assertThat(tree.delete(k, TupleId.NONE)).isEqualTo(model.remove(k) != null);
                    case LOOKUP -> assertThat(tree.lookup(k)).isEqualTo(model.getOrDefault(k, TupleId.NONE));
                    case SCAN -> {
                        byte[] hi = family.key(op.key2());
                        List<Long> got = new ArrayList<>();
                        tree.scan(k, hi, false, (key, t) -> got.add(t));
                        List<Long> want = KeyEncoder.compare(k, hi) <= 0
                                ? new ArrayList<>(
                                        model.subMap(k, true, hi, false).values())
                                : List.of();
                        assertThat(got).isEqualTo(want);
                    }
                }
            }
            assertThat(tree.size()).isEqualTo(model.size());
            List<byte[]> all = new ArrayList<>();
            tree.scan(null, null, false, (key, t) -> all.add(key));
            assertThat(all).containsExactlyElementsOf(model.keySet());
        }
    }

    record Entry(byte[] key, long tid) {}

    @Property(tries = 40)
    void nonUniqueTreeBehavesLikeASortedSetOfKeyAndTid(@ForAll("ops") List<Op> ops, @ForAll Family family) {
        try (StorageDevice dev = StorageDevice.temporary(512, DeviceModel.MEMORY)) {
            BufferPool pool = new BufferPool(dev, 64 * 512);
            BTree tree = new BTree(pool, false);
            Comparator<Entry> order = Comparator.comparing(Entry::key, BYTES).thenComparingLong(Entry::tid);
            TreeSet<Entry> model = new TreeSet<>(order);
            for (Op op : ops) {
                // few distinct keys, many tuples per key
                byte[] k = family.key(op.key() % 40);
                long tid = TupleId.of(op.key2(), op.tid());
                switch (op.kind()) {
                    case INSERT -> {
                        if (model.add(new Entry(k, tid)))
                            assertThat(tree.insert(k, tid)).isTrue();
                    }
                    case DELETE -> assertThat(tree.delete(k, tid)).isEqualTo(model.remove(new Entry(k, tid)));
                    case LOOKUP -> {
                        List<Long> got = new ArrayList<>();
                        tree.scan(k, k, true, (key, t) -> got.add(t));
                        List<Long> want =
                                model.subSet(new Entry(k, -1), true, new Entry(k, Long.MAX_VALUE), true).stream()
                                        .map(Entry::tid)
                                        .toList();
                        assertThat(got).isEqualTo(want);
                    }
                    case SCAN -> {
                        byte[] hi = family.key(op.key2() % 40);
                        List<Long> got = new ArrayList<>();
                        tree.scan(k, hi, true, (key, t) -> got.add(t));
                        List<Long> want = KeyEncoder.compare(k, hi) <= 0
                                ? model.subSet(new Entry(k, -1), true, new Entry(hi, Long.MAX_VALUE), true).stream()
                                        .map(Entry::tid)
                                        .toList()
                                : List.of();
                        assertThat(got).isEqualTo(want);
                    }
                }
            }
            assertThat(tree.size()).isEqualTo(model.size());
        }
    }

    @Property(tries = 20)
    void encodedKeysSortLikeTheirValues(
            @ForAll List<@IntRange(min = -1000, max = 1000) Integer> ints, @ForAll List<String> strings) {
        List<Integer> sortedInts = new ArrayList<>(ints);
        Collections.sort(sortedInts);
        List<Integer> byKey = new ArrayList<>(ints);
        byKey.sort((x, y) -> KeyEncoder.compare(KeyEncoder.ofInt(x), KeyEncoder.ofInt(y)));
        assertThat(byKey).isEqualTo(sortedInts);
        // strings: encoded order is UTF-8 byte order, i.e. code-point order
        List<String> byCodePoint = new ArrayList<>(strings);
        byCodePoint.sort((x, y) ->
                Arrays.compare(x.codePoints().toArray(), y.codePoints().toArray()));
        List<String> byEncoded = new ArrayList<>(strings);
        byEncoded.sort((x, y) -> KeyEncoder.compare(KeyEncoder.ofString(x), KeyEncoder.ofString(y)));
        assertThat(byEncoded).isEqualTo(byCodePoint);
    }
}
