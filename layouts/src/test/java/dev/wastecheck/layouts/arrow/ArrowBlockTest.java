package dev.wastecheck.layouts.arrow;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.RecordSchema;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The block format of docs/arrow.md: geometry, bitmaps, entries, slots and the variable-length heap. */
class ArrowBlockTest {
    static final RecordSchema ORDERS = RecordSchema.of(
            Field.of("id", FieldType.INT64),
            Field.nullable("qty", FieldType.INT32),
            Field.of("flag", FieldType.BIT),
            Field.of("code", FieldType.UINT16),
            Field.nullable("name", FieldType.VARLEN));

    @Test
    void aOneMegabyteBlockIsFilledByEightByteAlignedBuffersOfAMultipleOf64Slots() {
        BlockLayout l = new BlockLayout(ORDERS);
        // Bits per slot: allocation 1 + validity 5 + 64 + 32 + 1 + 16 + 128 = 247.
        int bits = 1 + 5 + 64 + 32 + 1 + 16 + 128;
        assertThat(l.slots())
                .isEqualTo(((1 << 20) - l.headerSize()) * 8 / bits / 64 * 64)
                .isEqualTo(33920);
        assertThat(l.headerSize()).isEqualTo(48); // 24 + 5 null counts, rounded to 8
        assertThat(l.allocationOffset()).isEqualTo(l.headerSize());
        int expect = l.allocationOffset() + l.bitmapBytes();
        for (int c = 0; c < l.columns(); c++) {
            assertThat(l.validityOffset(c)).isEqualTo(expect).matches(o -> o % 8 == 0);
            assertThat(l.valuesOffset(c)).isEqualTo(expect + l.bitmapBytes()).matches(o -> o % 8 == 0);
            expect = l.valuesOffset(c) + l.valuesBytes(c);
        }
        assertThat(l.valuesBytes(4)).isEqualTo(16 * l.slots());
        assertThat(l.valuesBytes(2)).isEqualTo(l.slots() / 8);
        assertThat(l.usedBytes()).isEqualTo(expect).isLessThanOrEqualTo(1 << 20);
        assertThat((1 << 20) - l.usedBytes()).as("slack under 64 slots' worth").isLessThan(64 * bits / 8);
    }

    @Test
    void aSingleBitColumnStopsAtTheSlotLimitOfATupleSlot() {
        BlockLayout l = new BlockLayout(RecordSchema.of(Field.of("b", FieldType.BIT)));
        assertThat(l.slots()).isEqualTo(BlockLayout.MAX_SLOTS).isLessThan(1 << TupleSlot.OFFSET_BITS);
    }

    @Test
    void tupleSlotsPackBlockAndOffsetIntoOneLong() {
        long s = TupleSlot.of(123_456, 1_000_000);
        assertThat(TupleSlot.block(s)).isEqualTo(123_456);
        assertThat(TupleSlot.offset(s)).isEqualTo(1_000_000);
        assertThat(TupleSlot.of(1, 0)).isEqualTo(1L << 20);
        assertThatThrownBy(() -> TupleSlot.of(0, 1 << 20)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void valuesOfTwelveBytesOrLessLiveInTheEntryAndLongerOnesBehindAPointer() {
        VarlenHeap heap = new VarlenHeap();
        BlockLayout l = new BlockLayout(ORDERS, 4096);
        ArrowBlock b = ArrowBlock.allocate(l);
        for (int n = 0; n <= 40; n++) {
            byte[] v = new byte[n];
            for (int i = 0; i < n; i++) v[i] = (byte) ('a' + (i * 7 + n) % 26);
            long w0 = VarlenEntry.word0(v, 0, n);
            long w1 = n <= VarlenEntry.INLINE_THRESHOLD ? VarlenEntry.inlineWord1(v, 0, n) : heap.allocate(v, 0, n);
            b.putEntry(4, n, w0, w1);
            long r0 = b.entryWord0(4, n), r1 = b.entryWord1(4, n);
            assertThat(VarlenEntry.size(r0)).isEqualTo(n);
            assertThat(VarlenEntry.isInline(r0)).isEqualTo(n <= 12);
            byte[] back = new byte[n];
            if (VarlenEntry.isInline(r0)) VarlenEntry.copyInline(r0, r1, back, 0);
            else heap.read(r1, back, 0, n);
            assertThat(back).isEqualTo(v);
            if (n >= 4)
                assertThat(VarlenEntry.prefix(r0))
                        .as("prefix: the first four bytes")
                        .isEqualTo((v[0] & 0xFF) | (v[1] & 0xFF) << 8 | (v[2] & 0xFF) << 16 | (v[3] & 0xFF) << 24);
        }
        // The entry's bytes on the block: size, then the value from byte 4 when inline.
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        b.putEntry(4, 0, VarlenEntry.word0(hello, 0, 5), VarlenEntry.inlineWord1(hello, 0, 5));
        byte[] raw = new byte[16];
        b.buffer().get(l.valuesOffset(4), raw);
        assertThat(Arrays.copyOfRange(raw, 0, 9)).containsExactly(5, 0, 0, 0, 'h', 'e', 'l', 'l', 'o');
    }

    @Test
    void neighbouringSlotsSetTheirBitsConcurrentlyWithoutLosingAny() throws Exception {
        BlockLayout l = new BlockLayout(ORDERS, 4096);
        ArrowBlock b = ArrowBlock.allocate(l);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int first = t;
            threads.add(new Thread(() -> {
                for (int s = first; s < l.slots(); s += 4) {
                    b.setAllocated(s, true);
                    b.setValid(1, s, true);
                    b.putFixed(2, s, 1);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread t : threads) t.join();
        for (int w = 0; w < l.slots() / 64; w++) {
            assertThat(b.allocationWord(w)).isEqualTo(-1L);
            assertThat(b.validityWord(1, w)).isEqualTo(-1L);
        }
        for (int s = 0; s < l.slots(); s++) assertThat(b.getFixed(2, s)).isEqualTo(1);
        assertThat(b.validityWord(0, 0)).as("untouched column").isZero();
    }

    @Test
    void theControlWordHoldsStateAndReaderCountTogether() {
        ArrowBlock b = ArrowBlock.allocate(new BlockLayout(ORDERS, 4096));
        assertThat(b.state()).isEqualTo(ArrowBlock.HOT);
        assertThat(b.compareAndSetControl(
                        ArrowBlock.control(ArrowBlock.HOT, 0), ArrowBlock.control(ArrowBlock.FROZEN, 2)))
                .isTrue();
        assertThat(ArrowBlock.state(b.control())).isEqualTo(ArrowBlock.FROZEN);
        assertThat(ArrowBlock.readers(b.control())).isEqualTo(2);
        assertThat(b.compareAndSetControl(
                        ArrowBlock.control(ArrowBlock.FROZEN, 1), ArrowBlock.control(ArrowBlock.HOT, 1)))
                .as("a stale reader count fails the swap")
                .isFalse();
    }

    @Test
    void aChunkLeavesTheHeapWhenItsLastValueIsFreed() {
        VarlenHeap heap = new VarlenHeap();
        byte[] value = new byte[VarlenHeap.CHUNK_SIZE / 5 + 1];
        long[] inFirst = new long[4];
        for (int i = 0; i < 4; i++) inFirst[i] = heap.allocate(value, 0, value.length);
        long next = heap.allocate(value, 0, value.length); // the fifth does not fit: chunk 2 opens, chunk 1 is sealed
        assertThat(inFirst[3] >>> 32).isEqualTo(inFirst[0] >>> 32).isNotEqualTo(next >>> 32);
        long reserved = heap.reservedBytes();
        for (int i = 0; i < 3; i++) heap.free(inFirst[i], value.length);
        assertThat(heap.holds(inFirst[3])).isTrue();
        heap.free(inFirst[3], value.length);
        assertThat(heap.holds(inFirst[0])).as("sealed and empty").isFalse();
        assertThat(heap.reservedBytes()).isEqualTo(reserved - VarlenHeap.CHUNK_SIZE);
        heap.free(next, value.length);
        assertThat(heap.holds(next)).as("the chunk taking allocations stays").isTrue();
        assertThat(heap.liveBytes()).isZero();
    }
}
