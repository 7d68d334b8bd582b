package dev.wastecheck.engine.index;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The index cache's consistency log (§2.1.2 "Efficient Consistency Enforcement"): every update that may change a
 * cached field increments the index's cache sequence number (CSN) and logs its predicate.
 * Each leaf records the CSN up to which its cached items are known to be current; a leaf that
 * is behind applies the predicates logged since, invalidating the items they match, before it
 * answers from its cache. The log is a ring: a leaf so far behind that its entries are gone
 * drops its whole cache.
 */
public final class UpdateLog {

    /** What an update touched, as far as the cache can tell. */
    public sealed interface Predicate permits TupleUpdated, KeyRangeUpdated, AnyUpdated {}

    /** One tuple, by id (a point update or a delete through any access path). */
    public record TupleUpdated(long tid) implements Predicate {}

    /** Tuples whose index key lies in [lo, hi] (inclusive; null is unbounded). */
    public record KeyRangeUpdated(byte[] lo, byte[] hi) implements Predicate {}

    /** A predicate the cache cannot evaluate (e.g. on a non-indexed column): every item may be stale. */
    public record AnyUpdated() implements Predicate {}

    private record Entry(long csn, Predicate predicate) {}

    private final AtomicReferenceArray<Entry> ring;
    private final int mask;
    private volatile long csn;

    public UpdateLog(int capacity) {
        int cap = Integer.highestOneBit(Math.max(2, capacity - 1)) << 1;
        ring = new AtomicReferenceArray<>(cap);
        mask = cap - 1;
    }

    /** The index's current cache sequence number. */
    public long current() {
        return csn;
    }

    /** Logs an update; the update itself must already be visible in the heap. Returns its CSN. */
    public synchronized long append(Predicate p) {
        long next = csn + 1;
        ring.set((int) (next & mask), new Entry(next, p));
        csn = next; // publish after the entry is in place
        return next;
    }

    /** Receives logged predicates. */
    @FunctionalInterface
    public interface Visitor {
        void visit(Predicate p);
    }

    /**
     * Visits the predicates with CSN in (from, to]. Returns false if some of them have been
     * overwritten in the ring (the caller must then assume everything changed).
     */
    public boolean forEach(long from, long to, Visitor v) {
        if (to - from > mask) return false;
        for (long c = from + 1; c <= to; c++) {
            Entry e = ring.get((int) (c & mask));
            if (e == null || e.csn != c) return false;
            v.visit(e.predicate);
        }
        return true;
    }
}
