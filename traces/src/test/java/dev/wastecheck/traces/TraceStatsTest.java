package dev.wastecheck.traces;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.traces.generate.WikiGenerator;
import dev.wastecheck.traces.read.TraceFormat;
import dev.wastecheck.traces.read.TraceReadOptions;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceStatsTest {
    @Test
    void statsOfAGeneratedTraceShowMixTablesColumnsAndSkew(@TempDir Path dir) throws Exception {
        new WikiGenerator(WikiGenerator.Config.defaults(300, 5).withTextMedianBytes(100).withRequests(3000)).generate(dir);
        Files.writeString(dir.resolve("trace.log"), "/* 2016-06-01T01:00:00.000Z */ SELECT nosuch FROM page WHERE page_id = 1;\n", java.nio.file.StandardOpenOption.APPEND);
        TraceStats stats = TraceStats.compute(dir.resolve("trace.log"), WikiGenerator.schema(), TraceReadOptions.defaults());
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        stats.render(new PrintStream(bytes, true, StandardCharsets.UTF_8), 10);
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertThat(stats.format()).isEqualTo(TraceFormat.WASTECHECK);
        assertThat(out).contains("operation mix").contains("POINT_LOOKUP").contains("hottest tables").contains("revision")
                .contains("page.page_title").contains("by name_title").contains("1 x ").contains("nosuch");
        assertThat(stats.report().unresolved()).isEqualTo(1);
    }
}
