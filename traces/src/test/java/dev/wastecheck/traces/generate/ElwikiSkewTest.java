package dev.wastecheck.traces.generate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import dev.wastecheck.model.RealData;
import dev.wastecheck.traces.access.AccessExtractor;
import dev.wastecheck.traces.heat.SkewShares;
import dev.wastecheck.traces.heat.WorkloadHeat;
import dev.wastecheck.traces.read.TraceReader;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real popularity curve of the Greek Wikipedia (elwiki 2015 read counts: the hottest 1% of
 * pages take 51.8% of reads, the hottest 10% take 86.9%) drives the generator's page views; the
 * trace, read back and resolved like any other, must show the same skew.
 */
@Tag("real-data")
class ElwikiSkewTest {
    static final int PAGES = 5_300;

    @Test
    void theCountsFileItselfHasTheSkewItsReadmeStates() throws IOException {
        Path counts = RealData.file("elwiki-2015-access-skew/readcount.txt");
        Popularity full = Popularity.fromCounts(counts, 1_060_120);
        assertThat(full.shareOfTop(0.01)).isCloseTo(0.518, within(0.0005));
        assertThat(full.shareOfTop(0.10)).isCloseTo(0.869, within(0.0005));
        assertThat(Popularity.fromCounts(counts, PAGES).shareOfTop(0.01)).isCloseTo(0.518, within(0.001));
    }

    @Test
    void aTraceDrawnFromElwikiReadCountsReproducesTheirSkew(@TempDir Path dir) throws IOException {
        Path counts = RealData.file("elwiki-2015-access-skew/readcount.txt");
        WikiGenerator g = new WikiGenerator(WikiGenerator.Config.defaults(PAGES, 2015)
                .withPopularityFile(counts)
                .withRequests(100_000)
                .withEditShare(0)
                .withWatchlistShare(0));
        Path trace = dir.resolve("trace.log");
        g.generateTrace(trace);
        AccessExtractor x = new AccessExtractor(WikiGenerator.schema());
        WorkloadHeat heat = new WorkloadHeat(WikiGenerator.schema());
        try (TraceReader r = TraceReader.open(trace)) {
            while (r.hasNext()) {
                x.extract(r.next(), heat::add);
            }
        }
        assertThat(x.report().unresolved()).isZero();
        SkewShares s = heat.table("page").orElseThrow().skew("name_title", PAGES);
        System.out.printf(
                "elwiki-driven trace: hottest 1%% of pages %.4f, 10%% %.4f of %d reads%n",
                s.top1(), s.top10(), s.accesses());
        assertThat(s.accesses()).isEqualTo(100_000);
        assertThat(s.top1()).isCloseTo(0.518, within(0.01));
        assertThat(s.top10()).isCloseTo(0.869, within(0.02));
    }
}
