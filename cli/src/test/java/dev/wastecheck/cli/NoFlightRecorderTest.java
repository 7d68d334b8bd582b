package dev.wastecheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * analyze does not set up the JDK's flight recorder, which DuckDB's driver (its memory event) and
 * Netty (its chunk events) each would at their first use: 0.08 s of CPU in a 1.1-1.4 s start
 * (docs/benchmarks.md, issue 32's start-up). Run in a JVM of its own, as a user's start is
 * (in this one another test may have set it up already), whose class loading tells: setting the
 * recorder up loads its metadata repository ({@code FlightRecorder.isInitialized} says only
 * whether a recording could be made, and is false either way).
 */
class NoFlightRecorderTest {
    /** Runs the command line as {@link Main#main} does, without its exit. */
    public static void main(String[] args) {
        Main.settings(args);
        int code = Main.run(args, new PrintWriter(System.out, true), new PrintWriter(System.err, true));
        System.out.println("exit " + code);
    }

    @Test
    void analyzeOfADumpLeavesTheRecorderAlone(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report.json");
        Path dump = Path.of("..", "examples", "wiki", "dump.sql").toAbsolutePath();
        Process p = new ProcessBuilder(List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "--add-opens=java.base/java.nio=ALL-UNNAMED",
                        "-Xmx512m",
                        "-Xlog:class+load=info",
                        "-cp",
                        System.getProperty("java.class.path"),
                        NoFlightRecorderTest.class.getName(),
                        "analyze",
                        "-q",
                        "--format",
                        "json",
                        "-o",
                        report.toString(),
                        dump.toString()))
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(out).contains("exit 0").contains("dev.wastecheck.sources.load.ProfilingDatabase");
        assertThat(out).doesNotContain("jdk.jfr.internal.MetadataRepository");
        assertThat(Files.readString(report)).contains("\"tables\"");
    }
}
