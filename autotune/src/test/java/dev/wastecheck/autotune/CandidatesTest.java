package dev.wastecheck.autotune;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.table.TableDesign;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** What each step of the descent offers from the incumbent design. */
class CandidatesTest {
    private static TraceSplit split(int revisionTraining, int pageTraining) {
        List<AccessEvent> events = new ArrayList<>();
        for (int i = 0; i < revisionTraining; i++) events.add(lookup("revision", events.size()));
        for (int i = 0; i < pageTraining; i++) events.add(lookup("page", events.size()));
        int at = events.size();
        events.add(lookup("revision", at));
        events.add(lookup("page", at + 1));
        return TraceSplit.of(events, at, Map.of(), Map.of(), (t, ix) -> List.of("id"), 1 << 20, 8192);
    }

    private static AccessEvent lookup(String table, long time) {
        return new AccessEvent(
                table,
                Operation.POINT_LOOKUP,
                "PRIMARY",
                Map.of("id", "1"),
                List.of("id"),
                Set.of(),
                Set.of(),
                Set.of(),
                Set.of(),
                Map.of(),
                1,
                time,
                time);
    }

    @Test
    void clusteringOffersNoneRelocationPartitionAndAPartitionKeptUpToDate() {
        Candidates c = new Candidates(null, split(12_000, 4_000), new CandidateLog());
        TableDesign current = TableDesign.BASELINE.with("tight", "on");
        assertThat(c.options(Dimension.CLUSTER, current, "revision"))
                .extracting(TableDesign::describe)
                .containsExactly(
                        "layout=nsm,cache=off,cluster=none,tight=on",
                        "layout=nsm,cache=off,cluster=1,tight=on",
                        "layout=nsm,cache=off,cluster=partition,tight=on",
                        // a quarter of the table's 12,000 training events
                        "layout=nsm,cache=off,cluster=partition,demote_after=3000,promote=2,tight=on");
        // uniform: a quarter of the mean table's (16,000 / 2), at least 1,000
        assertThat(c.options(Dimension.CLUSTER, current, null).get(3).demoteAfter())
                .isEqualTo(2000);
        assertThat(new Candidates(null, split(100, 100), new CandidateLog())
                        .options(Dimension.CLUSTER, current, "page")
                        .get(3)
                        .demoteAfter())
                .isEqualTo(1000);
    }

    @Test
    void theCacheStepOffersOffAndSwapAtThreeSizesAndTheLayoutStepThePageLayouts() {
        Candidates c = new Candidates(null, split(10, 10), new CandidateLog());
        assertThat(c.options(Dimension.CACHE, TableDesign.BASELINE, "page"))
                .extracting(TableDesign::describe)
                .containsExactly(
                        "layout=nsm,cache=off,cluster=none,tight=off",
                        "layout=nsm,cache=swap,cache_size=0.1,cluster=none,tight=off",
                        "layout=nsm,cache=swap,cache_size=0.3,cluster=none,tight=off",
                        "layout=nsm,cache=swap,cache_size=1,cluster=none,tight=off");
        assertThat(c.options(Dimension.LAYOUT, TableDesign.BASELINE, "page"))
                .extracting(d -> d.layout().name())
                .containsExactly("NSM", "PAX", "HPL");
        assertThat(c.options(Dimension.SPLIT, TableDesign.BASELINE, "page"))
                .extracting(d -> d.split().mode())
                .containsExactly("none", "cold", "updates", "cached");
        assertThat(c.options(Dimension.COMPRESS, TableDesign.BASELINE, "text"))
                .extracting(TableDesign::describe)
                .containsExactly(
                        "layout=nsm,cache=off,cluster=none,tight=off",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_block=4096",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_block=16384",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_block=65536",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_cache=262144",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_cache=1048576",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_dict=1048576",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_cache=262144,"
                                + "compress_dict=1048576",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_dict=1048576,"
                                + "compress_dict_kind=content",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_cache=262144,"
                                + "compress_dict=1048576,compress_dict_kind=content",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_dict=2097152,"
                                + "compress_dict_kind=content",
                        "layout=nsm,cache=off,cluster=none,tight=off,compress=large,compress_cache=262144,"
                                + "compress_dict=2097152,compress_dict_kind=content");
        // from a design with a content dictionary, the step's plain candidates go back to a trained one
        TableDesign content = TableDesign.BASELINE
                .with("compress", "large")
                .with("compress_dict", "2m")
                .with("compress_dict_kind", "content");
        assertThat(c.options(Dimension.COMPRESS, content, "text").get(1).describe())
                .isEqualTo("layout=nsm,cache=off,cluster=none,tight=off,compress=large");
    }
}
