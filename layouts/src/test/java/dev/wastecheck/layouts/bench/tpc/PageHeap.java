package dev.wastecheck.layouts.bench.tpc;

import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.List;

/**
 * A table as a heap of pages of one format: pages back to back in arenas, as a buffer pool
 * keeps its frames, filled one after another, each until it refuses a record. A record is named
 * by its RID, {@code page << 32 | slot}, which the workloads keep in their own key directories
 * (a dense array or a hash map: the same for every format, so only the page operations differ).
 *
 * <p>One flyweight per heap: {@link #page(int)} re-wraps it, and returns it as it is when it
 * already wraps that page (an OLTP statement's second access to a page costs no wrap).
 */
public final class PageHeap {
    /** Arenas grow from 16 pages to this many bytes, so a small table does not take 64 MB. */
    static final int MAX_ARENA_BYTES = 64 << 20;

    public final String name;
    private final Page page;
    public final int pageSize;
    private final List<ByteBuffer> arenas = new ArrayList<>();
    private final List<Integer> arenaFirstPage = new ArrayList<>();
    private int pages;
    private int wrapped = -1;
    private int maxSlots;
    /** A page stops taking records once this share of it is used (1 = until it refuses one). */
    private double fillFactor = 1;
    /** A page takes at most this many records (HPL-2012-240 §6 scaled records per page in every layout). */
    private int maxRecordsPerPage = Integer.MAX_VALUE;

    public PageHeap(String name, Page flyweight, int pageSize) {
        this.name = name;
        this.page = flyweight;
        this.pageSize = pageSize;
    }

    /**
     * Leaves {@code 1 - fillFactor} of every page free while loading, for records that grow later
     * (TPC-C's c_data): a page whose {@link Page#fill()} reached the factor takes no more inserts.
     */
    public PageHeap fillFactor(double factor) {
        this.fillFactor = factor;
        return this;
    }

    /**
     * At most {@code records} a page, in every format alike: §6 of HPL-2012-240 "scaled the
     * number of records per page in all page layouts to 204 records for the 'line item' table,
     * 256 records for the 'orders' table, and 199 records for the 'part' table" on 32 KB pages.
     */
    public PageHeap maxRecordsPerPage(int records) {
        this.maxRecordsPerPage = records;
        return this;
    }

    public static long rid(int page, int slot) {
        return (long) page << 32 | slot;
    }

    public static int ridPage(long rid) {
        return (int) (rid >>> 32);
    }

    public static int ridSlot(long rid) {
        return (int) rid;
    }

    public int pageCount() {
        return pages;
    }

    /** The most slots any page has had: what a selection or a vector for one page needs. */
    public int maxSlots() {
        return maxSlots;
    }

    /** The flyweight, wrapping page {@code p}. */
    public Page page(int p) {
        if (p != wrapped) {
            int a = arenaOf(p);
            page.wrap(arenas.get(a), (p - arenaFirstPage.get(a)) * pageSize, pageSize);
            wrapped = p;
        }
        return page;
    }

    /** The flyweight wrapping the page of {@code rid}. */
    public Page pageOf(long rid) {
        return page(ridPage(rid));
    }

    /** Appends a record to the last page, or to a new page when the last one refuses it; returns its RID. */
    public long insert(Record r) {
        if (pages > 0
                && (fillFactor >= 1 || page(pages - 1).fill() < fillFactor)
                && page(pages - 1).slotCount() < maxRecordsPerPage) {
            int slot = page(pages - 1).insert(r);
            if (slot >= 0) {
                maxSlots = Math.max(maxSlots, slot + 1);
                return rid(pages - 1, slot);
            }
        }
        Page fresh = newPage();
        int slot = fresh.insert(r);
        if (slot < 0)
            throw new IllegalStateException("a " + name + " record does not fit an empty " + pageSize + "-byte page");
        maxSlots = Math.max(maxSlots, slot + 1);
        return rid(pages - 1, slot);
    }

    private Page newPage() {
        int p = pages;
        int last = arenas.size() - 1;
        if (last < 0 || p >= arenaFirstPage.get(last) + arenas.get(last).capacity() / pageSize) {
            int count = last < 0
                    ? 16
                    : Math.min(2 * arenas.get(last).capacity() / pageSize, Math.max(1, MAX_ARENA_BYTES / pageSize));
            arenas.add(ByteBuffer.allocate(count * pageSize).order(ByteOrder.LITTLE_ENDIAN));
            arenaFirstPage.add(p);
        }
        pages++;
        int a = arenaFor(p);
        page.format(arenas.get(a), (p - arenaFirstPage.get(a)) * pageSize, pageSize);
        wrapped = p;
        return page;
    }

    private int arenaOf(int p) {
        if (p < 0 || p >= pages) throw new IndexOutOfBoundsException("page " + p + " of " + pages + " in " + name);
        return arenaFor(p);
    }

    /** The arena holding page p (arenas are in page order, and keep their pages after {@link #clear}). */
    private int arenaFor(int p) {
        int a = arenas.size() - 1;
        while (arenaFirstPage.get(a) > p) a--;
        return a;
    }

    /** Drops every page (the arenas stay, for the next inserts). */
    public void clear() {
        pages = 0;
        wrapped = -1;
        maxSlots = 0;
    }

    /** Live records over all pages. */
    public long liveRecords() {
        long n = 0;
        for (int p = 0; p < pages; p++) n += page(p).liveCount();
        return n;
    }

    /** Bytes of the arenas' pages in use. */
    public long bytes() {
        return (long) pages * pageSize;
    }

    /** A byte-for-byte copy of every page in use, to restore the table after a destructive benchmark. */
    public byte[][] snapshot() {
        byte[][] copy = new byte[arenas.size()][];
        for (int a = 0; a < copy.length; a++) copy[a] = arenas.get(a).array().clone();
        return copy;
    }

    /** Restores a {@link #snapshot()} (pages added since then are dropped). */
    public void restore(byte[][] snapshot, int pageCount) {
        for (int a = 0; a < snapshot.length; a++)
            System.arraycopy(snapshot[a], 0, arenas.get(a).array(), 0, snapshot[a].length);
        while (arenas.size() > snapshot.length) {
            arenas.remove(arenas.size() - 1);
            arenaFirstPage.remove(arenaFirstPage.size() - 1);
        }
        pages = pageCount;
        wrapped = -1;
    }
}
