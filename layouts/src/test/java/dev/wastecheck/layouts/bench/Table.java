package dev.wastecheck.layouts.bench;

import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** A heap of pages of one layout holding the first {@code records} records of a shape. */
final class Table {
    final Shape shape;
    final Layout layout;
    final int pageSize;
    final Page page;
    final List<ByteBuffer> pages = new ArrayList<>();
    /** Records per page, in page order. */
    int[] counts;
    /** Where each page starts in its buffer: 0, or staggered (see {@link #staggered}). */
    final List<Integer> offsets = new ArrayList<>();

    private int stagger;

    Table(Shape shape, Layout layout, int pageSize) {
        this(shape, layout.newPage(shape.schema), pageSize);
    }

    Table(Shape shape, Page page, int pageSize) {
        this.shape = shape;
        this.layout = page.layout();
        this.pageSize = pageSize;
        this.page = page;
    }

    /**
     * Page p is placed {@code (p % 16) * step} bytes into a buffer that much larger, instead of at
     * the buffer's start: an experiment on cache-set aliasing (every page has the same layout, so
     * without it a column sits at nearly the same address modulo the L2's 64 KB set period).
     */
    Table staggered(int step) {
        this.stagger = step;
        return this;
    }

    int offset(int p) {
        return offsets.get(p);
    }

    /** Inserts records 0 .. n-1, one page after another, each page filled until it refuses a record. */
    Table load(int n, long seed) {
        Random random = new Random(seed);
        Record r = new Record(shape.schema);
        List<Integer> perPage = new ArrayList<>();
        ByteBuffer current = newPage();
        int inPage = 0;
        for (long i = 0; i < n; i++) {
            shape.fill(r, i, random);
            if (page.insert(r) < 0) {
                perPage.add(inPage);
                current = newPage();
                inPage = 0;
                if (page.insert(r) < 0) throw new IllegalStateException("record does not fit an empty page");
            }
            inPage++;
        }
        perPage.add(inPage);
        counts = perPage.stream().mapToInt(Integer::intValue).toArray();
        return this;
    }

    private ByteBuffer newPage() {
        int offset = (pages.size() % 16) * stagger;
        ByteBuffer b = ByteBuffer.allocate(pageSize + 15 * stagger).order(ByteOrder.LITTLE_ENDIAN);
        page.format(b, offset, pageSize);
        pages.add(b);
        offsets.add(offset);
        return b;
    }

    /** A byte-for-byte copy of every page (to restore the table after a destructive benchmark). */
    byte[][] snapshot() {
        byte[][] copy = new byte[pages.size()][];
        for (int p = 0; p < copy.length; p++) copy[p] = pages.get(p).array().clone();
        return copy;
    }

    void restore(byte[][] snapshot) {
        for (int p = 0; p < snapshot.length; p++)
            System.arraycopy(snapshot[p], 0, pages.get(p).array(), 0, pageSize);
    }

    int maxPerPage() {
        int max = 0;
        for (int c : counts) max = Math.max(max, c);
        return max;
    }
}
