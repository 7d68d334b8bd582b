package dev.wastecheck.engine.buffer;

import dev.wastecheck.engine.file.StorageDevice;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.LongAdder;

/**
 * A fixed budget of page frames over a {@link StorageDevice}, with CLOCK replacement
 * (second chance: a referenced bit per frame, cleared as the hand sweeps past), pin counts,
 * and write-back of dirty pages when they are evicted or flushed.
 *
 * <p>The budget is in bytes and is the pool's memory: {@code budgetBytes / pageSize} frames.
 * A miss reads the page from the device (real I/O), and the device model counts what it would
 * have cost; hits and misses are counted here.
 *
 * <p>Thread-safe. Pinning a resident page and a clean unpin take no lock: the pin probes the
 * page table optimistically, pins the frame it names with a CAS on the frame's pin count and
 * then checks that the frame still holds the page (else it unpins and takes the locked path).
 * Eviction claims a frame by a CAS of its pin count from 0 to {@link Frame#EVICTING}, so it can
 * never take a frame a reader has pinned, and a reader can never pin a frame being replaced
 * (see {@link Frame}). Everything else (misses, new pages, dirty unpins, the clock, the page
 * table's writes) holds one monitor; device I/O on a miss happens under it too, which
 * serializes misses: adequate for replays whose working set is in memory. The monitor had
 * been on every pin and unpin, four lock round trips per B+tree level of a lookup.
 */
public final class BufferPool implements AutoCloseable {
    private final StorageDevice device;
    private final int pageSize;
    private final Frame[] frames;
    private final PageTable table;
    private int hand;
    private long hits, misses, evictions, writeBacks;
    /** Hits of the lock-free path (the locked path counts into {@link #hits}). */
    private final LongAdder fastHits = new LongAdder();

    public BufferPool(StorageDevice device, long budgetBytes) {
        this.device = device;
        this.pageSize = device.pageSize();
        long n = budgetBytes / pageSize;
        if (n < 2)
            throw new IllegalArgumentException(
                    "budget " + budgetBytes + " B holds fewer than 2 pages of " + pageSize + " B");
        if (n > Integer.MAX_VALUE / 4) throw new IllegalArgumentException("budget too large: " + budgetBytes);
        frames = new Frame[(int) n];
        for (int i = 0; i < frames.length; i++) frames[i] = new Frame(i, pageSize);
        table = new PageTable(frames.length);
    }

    public StorageDevice device() {
        return device;
    }

    public int pageSize() {
        return pageSize;
    }

    public int capacityFrames() {
        return frames.length;
    }
    /** The memory the pool holds for pages: frames times page size. */
    public long memoryBytes() {
        return (long) frames.length * pageSize;
    }

    /** Pins page {@code pageNo}, reading it from the device on a miss. */
    public Frame pin(long pageNo) {
        if (touched == null) {
            int idx = table.probe(pageNo); // racy: a wrong or stale answer is caught below
            if (idx >= 0) {
                Frame f = frames[idx];
                if (f.tryPin()) {
                    if (f.pageNo == pageNo) {
                        if (!f.referenced) f.referenced = true;
                        fastHits.increment();
                        return f;
                    }
                    f.release(); // the frame was replaced meanwhile
                }
            }
        }
        return pinLocked(pageNo);
    }

    private synchronized Frame pinLocked(long pageNo) {
        if (touched != null) {
            touched.set((int) pageNo);
            if (pageNo >= pinned.length) pinned = Arrays.copyOf(pinned, Math.max((int) pageNo + 1, 2 * pinned.length));
            pinned[(int) pageNo]++;
        }
        int idx = table.get(pageNo);
        if (idx >= 0) {
            Frame f = frames[idx];
            if (!f.tryPin()) throw new IllegalStateException("frame of resident page " + pageNo + " is being replaced");
            f.referenced = true;
            hits++;
            return f;
        }
        misses++;
        if (touched != null) missed.merge(pageNo, 1, Integer::sum);
        Frame f = bulk != Bulk.OFF ? ringVictim() : victim();
        try {
            device.read(pageNo, f.buffer);
        } catch (RuntimeException | Error e) {
            f.unclaim(); // the frame is empty and free again
            throw e;
        }
        install(f, pageNo);
        if (bulk != Bulk.OFF) inRing(f);
        return f;
    }

    /** Allocates a new page on the device and pins it, zeroed and dirty (it has never been written). */
    public synchronized Frame newPage() {
        long pageNo = device.allocatePage();
        Frame f = bulk == Bulk.READS_AND_NEW_PAGES ? ringVictim() : victim();
        Arrays.fill(f.buffer.array(), (byte) 0);
        install(f, pageNo);
        f.dirty = true;
        if (bulk == Bulk.READS_AND_NEW_PAGES) inRing(f);
        return f;
    }

    /** Gives the claimed frame {@code f} its new page, pinned once. */
    private void install(Frame f, long pageNo) {
        f.pageNo = pageNo;
        f.referenced = true;
        f.dirty = false;
        table.put(pageNo, f.index);
        f.installPinned(); // last: a lock-free pin that sees the count sees the page
    }

    /** Releases one pin; {@code dirty} marks the page for write-back. */
    public void unpin(Frame f, boolean dirty) {
        if (dirty) unpinDirty(f);
        else f.release();
    }

    // under the monitor, so that flushAll cannot clear a dirty mark set while it writes
    private synchronized void unpinDirty(Frame f) {
        if (f.pinCount() <= 0) throw new IllegalStateException("page " + f.pageNo + " is not pinned");
        f.dirty = true;
        f.release();
    }

    /** Marks a pinned page dirty without unpinning it. */
    public synchronized void markDirty(Frame f) {
        if (f.pinCount() <= 0) throw new IllegalStateException("page " + f.pageNo + " is not pinned");
        f.dirty = true;
    }

    private Frame victim() {
        // Two full sweeps clear every referenced bit; a third finding nothing means all are pinned.
        for (int step = 0; step < 3 * frames.length; step++) {
            Frame f = frames[hand];
            hand = hand + 1 == frames.length ? 0 : hand + 1;
            if (f.pinCount() != 0) continue;
            if (f.referenced) {
                f.referenced = false;
                continue;
            }
            if (!f.claim()) continue; // a lock-free pin got there first
            empty(f);
            return f;
        }
        throw new IllegalStateException("buffer pool exhausted: all " + frames.length + " frames are pinned");
    }

    /** Writes back and forgets the page of the claimed frame {@code f}, if it holds one. */
    private void empty(Frame f) {
        if (f.pageNo >= 0) {
            if (f.dirty) {
                device.write(f.pageNo, f.buffer);
                writeBacks++;
            }
            table.remove(f.pageNo);
            evictions++;
            f.pageNo = -1;
        }
    }

    /**
     * What a bulk reorganization's pages do to the pool ({@link #bulk}): with {@code READS}, the pages it reads from
     * the device cycle through a small ring of frames instead of taking the clock's victims; with
     * {@code READS_AND_NEW_PAGES} the pages it creates too (a rewritten cold index, written once and not read
     * again by the reorganization).
     */
    public enum Bulk {
        OFF,
        READS,
        READS_AND_NEW_PAGES
    }

    /** Frames in the ring of a bulk reorganization: PostgreSQL's bulk-read ring is 256 KiB, 32 pages of 8 KiB. */
    static final int RING_FRAMES = 32;

    private Bulk bulk = Bulk.OFF;
    /** The ring's frames, and the page each was given through the ring (a frame since reused by the clock is not the ring's). */
    private final int[] ringFrame = new int[RING_FRAMES];

    private final long[] ringPage = new long[RING_FRAMES];
    private int ringNext;

    /**
     * Sets how the pages of what runs next take frames, and returns the previous setting. A reorganization (the
     * split of a table into hot and cold partitions, "No Bits Left Behind" §3.1) reads the whole cold partition to
     * move tuples, train dictionaries and build filters, and rewrites cold indexes; with the clock's victims those
     * pages would push out of memory the hot partition it is writing, which is what the workload reads next. A ring
     * keeps them to {@value #RING_FRAMES} frames, as PostgreSQL's buffer access strategies do for bulk reads, vacuum
     * and bulk writes ({@code src/backend/storage/buffer/README}, "Buffer Ring Replacement Strategy").
     */
    public synchronized Bulk bulk(Bulk mode) {
        Bulk before = bulk;
        bulk = mode;
        if (before == Bulk.OFF && mode != Bulk.OFF) Arrays.fill(ringPage, -1);
        return before;
    }

    /** The ring's next frame when it still holds the page the ring gave it and nobody pins it; else a clock victim. */
    private Frame ringVictim() {
        if (ringPage[ringNext] >= 0) {
            Frame f = frames[ringFrame[ringNext]];
            if (f.pageNo == ringPage[ringNext] && f.pinCount() == 0 && f.claim()) {
                empty(f);
                return f;
            }
        }
        return victim();
    }

    /** Gives the ring's next slot to the frame {@code f}, just installed, and leaves it first in line for the clock. */
    private void inRing(Frame f) {
        ringFrame[ringNext] = f.index;
        ringPage[ringNext] = f.pageNo;
        ringNext = ringNext + 1 == RING_FRAMES ? 0 : ringNext + 1;
        f.referenced = false;
    }

    /** Writes every dirty page to the device (pages stay cached). */
    public synchronized void flushAll() {
        for (Frame f : frames) {
            if (f.pageNo >= 0 && f.dirty) {
                device.write(f.pageNo, f.buffer);
                f.dirty = false;
                writeBacks++;
            }
        }
    }

    public synchronized long hits() {
        return hits + fastHits.sum();
    }

    public synchronized long misses() {
        return misses;
    }

    public synchronized long evictions() {
        return evictions;
    }

    public synchronized long writeBacks() {
        return writeBacks;
    }

    public synchronized double hitRate() {
        long h = hits(), t = h + misses;
        return t == 0 ? 0 : (double) h / t;
    }
    /** Pages currently cached. */
    public synchronized int residentPages() {
        int n = 0;
        for (Frame f : frames) if (f.pageNo >= 0) n++;
        return n;
    }
    /** Set while tracking; pins then take the locked path, as BitSet is not thread-safe. */
    private volatile BitSet touched;

    /** Starts (or restarts) recording which pages are pinned: the working set of what runs next. */
    public synchronized void trackTouched() {
        touched = new BitSet();
        missed.clear();
        pinned = new int[0];
    }

    /** Per page, the pins since {@link #trackTouched()} (hits and misses; an array: a pin while tracking adds one). */
    private int[] pinned = new int[0];

    /** Pins of page {@code pageNo} since {@link #trackTouched()}: what a structure's pages cost the model per pin. */
    public synchronized int pins(long pageNo) {
        return pageNo < pinned.length ? pinned[(int) pageNo] : 0;
    }

    /** Per page, the device reads (misses) since {@link #trackTouched()}. */
    private final Map<Long, Integer> missed = new HashMap<>();

    /** Device reads of page {@code pageNo} since {@link #trackTouched()}. */
    public synchronized int misses(long pageNo) {
        return missed.getOrDefault(pageNo, 0);
    }

    /** Whether page {@code pageNo} was pinned since {@link #trackTouched()}. */
    public synchronized boolean touched(long pageNo) {
        return touched != null && touched.get((int) pageNo);
    }

    /** Distinct pages pinned since {@link #trackTouched()} (0 when not tracking). */
    public synchronized long touchedPages() {
        return touched == null ? 0 : touched.cardinality();
    }

    /** Pins so far: hits plus misses. */
    public synchronized long pins() {
        return hits() + misses;
    }

    public synchronized void resetCounters() {
        hits = misses = evictions = writeBacks = 0;
        fastHits.reset();
    }

    @Override
    public void close() {
        flushAll();
    }
}
