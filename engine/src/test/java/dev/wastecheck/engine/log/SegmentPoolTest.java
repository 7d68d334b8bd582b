package dev.wastecheck.engine.log;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/**
 * The segment pool's two levels (§3.4's "global object pool" of redo buffer segments): a force's
 * segments go back in one chain, bounded by what the pool retains; a thread takes the whole shared
 * stack into its own list and pops from it, last given first; and under threads that take and give
 * at once no segment is ever handed to two holders.
 */
class SegmentPoolTest {
    private static Segment chain(List<Segment> segments) {
        for (int i = 0; i + 1 < segments.size(); i++) segments.get(i).next = segments.get(i + 1);
        return segments.get(0);
    }

    @Test
    void aForcesSegmentsComeBackInOneChainUpToWhatThePoolRetains() {
        SegmentPool pool = new SegmentPool(3);
        List<Segment> given = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            Segment s = pool.take();
            s.used = 100 + i;
            given.add(s);
        }
        given.add(new Segment(SegmentPool.SEGMENT_SIZE * 2)); // a large record's own segment: never pooled
        pool.giveAll(chain(given));
        assertThat(pool.pooled()).isEqualTo(3);
        // The first three of the chain are kept, cleared, and taken back in that order; then new ones.
        for (int i = 0; i < 3; i++) {
            Segment s = pool.take();
            assertThat(s).isSameAs(given.get(i));
            assertThat(s.used).isZero();
            assertThat(s.next).isNull();
        }
        assertThat(pool.pooled()).isZero();
        Segment fresh = pool.take();
        assertThat(given).doesNotContain(fresh);
        assertThat(fresh.bytes).hasSize(SegmentPool.SEGMENT_SIZE);
    }

    @Test
    void oneSegmentGivenBackIsTheNextTakenAndAFullPoolDropsIt() {
        SegmentPool pool = new SegmentPool(1);
        Segment a = pool.take(), b = pool.take();
        pool.give(a);
        pool.give(b); // the pool retains one: b is left to the collector
        assertThat(pool.pooled()).isEqualTo(1);
        assertThat(pool.take()).isSameAs(a);
        assertThat(pool.take()).isNotSameAs(b);
    }

    @Test
    void threadsTakingWhileTheLogManagerGivesBackNeverShareASegment() throws Exception {
        SegmentPool pool = new SegmentPool(64);
        int threads = 3, rounds = 20_000;
        Set<Segment> held = Collections.synchronizedSet(Collections.newSetFromMap(new IdentityHashMap<>()));
        List<Segment> returned = Collections.synchronizedList(new ArrayList<>());
        List<Throwable> failures = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch done = new CountDownLatch(threads);
        for (int t = 0; t < threads; t++) {
            new Thread(() -> {
                        try {
                            for (int i = 0; i < rounds; i++) {
                                Segment s = pool.take();
                                if (!held.add(s)) throw new AssertionError("segment handed out twice");
                                s.used = 1;
                                held.remove(s);
                                returned.add(s); // to the "log manager", which gives them back in chains
                            }
                        } catch (Throwable e) {
                            failures.add(e);
                        } finally {
                            done.countDown();
                        }
                    })
                    .start();
        }
        while (done.getCount() > 0 || !returned.isEmpty()) {
            List<Segment> group;
            synchronized (returned) {
                group = new ArrayList<>(returned);
                returned.clear();
            }
            if (!group.isEmpty()) pool.giveAll(chain(group));
            else Thread.onSpinWait();
        }
        assertThat(failures).isEmpty();
        assertThat(pool.pooled()).isBetween(1, 64);
    }
}
