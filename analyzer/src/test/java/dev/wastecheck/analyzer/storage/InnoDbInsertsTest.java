package dev.wastecheck.analyzer.storage;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The leaf level inserts leave: full pages for ascending keys, about ln 2 full for random ones. */
class InnoDbInsertsTest {
    static final int N = 50_000;
    static final long RECORD = 38; // orders_note's record in IndexWasteTest: 5 + 1 + 24 + 8

    static long[] sizes() {
        long[] s = new long[N];
        Arrays.fill(s, RECORD);
        return s;
    }

    /** The pages the sorted build fills: records until the next does not fit. */
    static long sortedPages() {
        InnoDbModel.Level level = new InnoDbModel.Level(0);
        for (int i = 0; i < N; i++) {
            level.add(RECORD);
        }
        return level.pages;
    }

    @Test
    void ascendingInsertsFillEveryPageAsTheSortedBuildDoes() {
        int[] order = new int[N];
        for (int i = 0; i < N; i++) {
            order[i] = i;
        }
        assertThat(InnoDbInserts.leafPages(order, sizes())).isEqualTo(sortedPages());
    }

    @Test
    void randomInsertsLeavePagesAboutSixtyNinePercentFull() {
        List<Integer> ranks = new ArrayList<>();
        for (int i = 0; i < N; i++) {
            ranks.add(i);
        }
        Collections.shuffle(ranks, new Random(7));
        int[] order = ranks.stream().mapToInt(Integer::intValue).toArray();
        long pages = InnoDbInserts.leafPages(order, sizes());
        double fill = (double) sortedPages() / pages;
        System.out.printf("random inserts: %d leaf pages, sorted build %d: fill %.3f%n", pages, sortedPages(), fill);
        // Yao (1978): ln 2 = 0.693 for random insertions into B-trees that split in half
        assertThat(fill).isBetween(0.64, 0.74);
    }
}
