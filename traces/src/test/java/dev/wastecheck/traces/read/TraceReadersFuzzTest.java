package dev.wastecheck.traces.read;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;

/**
 * Fuzz target: each trace reader on any text after a line of its own format. The first fuzzed
 * byte picks the reader (PostgreSQL log, MySQL general log, plain statements, WikiBench URLs,
 * pageview counts, the generator's trace), so one JVM (Jazzer fuzzes one target per JVM) covers
 * all six.
 */
class TraceReadersFuzzTest {
    private record Target(String firstLine, TraceFuzzing.Factory reader) {}

    private static final Target[] TARGETS = {
        new Target("2024-01-01 10:00:00.000 UTC [42] LOG:  statement: SELECT 1;", PostgresLogReader::new),
        new Target("2024-01-01T10:00:00.000000Z\t    8 Query\tSELECT 1", MysqlGeneralLogReader::new),
        new Target("SELECT page_id FROM page WHERE page_id = 1;", SqlStatementsReader::new),
        new Target("1 1190146243.326 http://en.wikipedia.org/wiki/Main_Page -", WikiBenchReader::new),
        new Target("en Main_Page 42 0", PageviewCountsReader::new),
        new Target("-- wastecheck trace", GeneratorTraceReader::new),
    };

    @FuzzTest(maxDuration = "3s")
    void read(FuzzedDataProvider data) throws Exception {
        Target t = TARGETS[data.consumeInt(0, TARGETS.length - 1)];
        TraceFuzzing.readAll(data, t.firstLine(), t.reader());
    }
}
