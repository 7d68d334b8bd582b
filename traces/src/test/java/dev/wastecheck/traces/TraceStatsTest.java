package dev.wastecheck.traces;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.access.Operation;
import dev.wastecheck.traces.generate.WikiGenerator;
import dev.wastecheck.traces.heat.TableHeat;
import dev.wastecheck.traces.read.TraceFormat;
import dev.wastecheck.traces.read.TraceReadOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceStatsTest {
    @Test
    void statsOfAGeneratedTraceShowMixTablesColumnsAndSkew(@TempDir Path dir) throws Exception {
        new WikiGenerator(WikiGenerator.Config.defaults(300, 5)
                        .withTextMedianBytes(100)
                        .withRequests(3000))
                .generate(dir);
        Files.writeString(
                dir.resolve("trace.log"),
                "/* 2016-06-01T01:00:00.000Z */ SELECT nosuch FROM page WHERE page_id = 1;\n",
                java.nio.file.StandardOpenOption.APPEND);
        TraceStats stats =
                TraceStats.compute(dir.resolve("trace.log"), WikiGenerator.schema(), TraceReadOptions.defaults());
        assertThat(stats.format()).isEqualTo(TraceFormat.WASTECHECK);
        assertThat(stats.heat().operations()).containsKey(Operation.POINT_LOOKUP);
        assertThat(stats.heat().tables()).extracting(TableHeat::name).contains("revision");
        assertThat(stats.columnsByUse())
                .extracting(c -> c.table() + "." + c.use().column())
                .contains("page.page_title");
        assertThat(stats.columnsByUse())
                .isSortedAccordingTo(java.util.Comparator.comparingLong(
                                (TraceStats.Column c) -> c.use().total())
                        .reversed());
        assertThat(stats.heat().table("page").orElseThrow().heatIndex()).isEqualTo("name_title");
        assertThat(stats.report().unresolvedReasons())
                .singleElement()
                .satisfies(r -> assertThat(r.count()).isEqualTo(1))
                .satisfies(r -> assertThat(r.examples().get(0).statement()).contains("nosuch"));
        assertThat(stats.lines())
                .isEqualTo(Files.readAllLines(dir.resolve("trace.log")).size());
        assertThat(stats.report().unresolved()).isEqualTo(1);
    }
}
