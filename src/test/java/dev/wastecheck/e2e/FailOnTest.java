package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code analyze --fail-on}, the CI gate: exit 3 above a threshold with the report still written
 * and stderr naming the threshold and what crossed it, 0 below, 2 on a spec that is not one.
 */
class FailOnTest {
    @TempDir
    static Path dir;

    static Path dump;
    static JsonNode report;
    static long declared;
    static long wasted;

    @BeforeAll
    static void writeDump() throws Exception {
        StringBuilder b = new StringBuilder("""
                CREATE TABLE `item` (
                  `id` bigint NOT NULL,
                  `qty` bigint NOT NULL,
                  `code` char(40) NOT NULL,
                  PRIMARY KEY (`id`)
                ) ENGINE=InnoDB;
                INSERT INTO `item` VALUES
                """);
        for (int i = 1; i <= 400; i++) {
            b.append(String.format(Locale.ROOT, "(%d,%d,'C%d')%s%n", i, i % 7, i % 50, i < 400 ? "," : ";"));
        }
        dump = Files.writeString(dir.resolve("item.sql"), b);
        report = Cli.analyzeJson(dump);
        declared = report.get("totals").get("declared_bytes").asLong();
        wasted = report.get("totals").get("wasted_bytes").asLong();
    }

    @Test
    void theFixtureWastesBytes() {
        // the thresholds below sit on either side of this share
        assertThat(wasted).isPositive().isLessThan(declared);
    }

    @Test
    void aShareAboveTheThresholdExitsThreeWithTheReportWritten() throws Exception {
        double share = 100.0 * wasted / declared;
        String percent = String.format(Locale.ROOT, "%.3f", share - 0.001); // just under the share: crossed
        String above = String.format(Locale.ROOT, "%.3f", share + 0.001);
        Path out = dir.resolve("report.json");
        Cli.Result r = Cli.run(
                "analyze",
                "-q",
                "--format",
                "json",
                "-o",
                out.toString(),
                "--fail-on",
                "waste=" + percent + "%",
                dump.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
        assertThat(Files.readString(out)).contains("\"wasted_bytes\" : " + wasted);
        assertThat(r.err())
                .contains("--fail-on waste=" + percent + "%: ")
                .contains(String.format(Locale.ROOT, "of %,d declared bytes wasted (%,d)", declared, wasted))
                .contains("item.");

        Cli.Result below = Cli.run("analyze", "-q", "--fail-on", "waste=" + above + "%", dump.toString());
        assertThat(below.exitCode()).as(below.err()).isZero();
        assertThat(below.out()).contains("item");
        assertThat(below.err()).doesNotContain("--fail-on");
    }

    @Test
    void wastedBytesOverABudgetExitThreeAndUnderItZero() {
        Cli.Result over = Cli.run("analyze", "-q", "--fail-on", "bytes=" + (wasted - 1), dump.toString());
        assertThat(over.exitCode()).as(over.err()).isEqualTo(3);
        assertThat(over.out()).as("the report still goes to stdout").contains("item");
        assertThat(over.err())
                .contains(String.format(Locale.ROOT, "%,d bytes wasted, over the budget of %,d", wasted, wasted - 1));

        Cli.Result under = Cli.run("analyze", "-q", "--fail-on", "bytes=" + wasted, dump.toString());
        assertThat(under.exitCode()).as(under.err()).isZero();
        // units: 1KB is 1,000 bytes, 1KiB 1,024
        Cli.Result kb = Cli.run("analyze", "-q", "--fail-on", "bytes=1KB", dump.toString());
        assertThat(kb.err()).contains("over the budget of 1,000");
        Cli.Result huge = Cli.run("analyze", "-q", "--fail-on", "bytes=10GB", dump.toString());
        assertThat(huge.exitCode()).as(huge.err()).isZero();
    }

    @Test
    void aKindFoundExitsThreeListingItsFindingsAndAKindAbsentZero() {
        String found = null;
        for (JsonNode t : report.get("tables")) {
            for (JsonNode c : t.get("columns")) {
                for (String k : Cli.kinds(c)) {
                    if (!k.equals("kept_declared") && !k.equals("references") && found == null) {
                        found = k;
                    }
                }
            }
        }
        assertThat(found).as("a finding in the fixture").isNotNull();
        Cli.Result r = Cli.run("analyze", "-q", "--fail-on", found, "--fail-on", "waste=100%", dump.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(3);
        assertThat(r.err())
                .containsPattern("--fail-on " + found + ": \\d+ " + found + " findings?")
                .contains("item.")
                .doesNotContain("--fail-on waste=100%");

        Cli.Result absent = Cli.run("analyze", "-q", "--fail-on", "string_holds_uuid", dump.toString());
        assertThat(absent.exitCode()).as(absent.err()).isZero();
    }

    @Test
    void aSpecThatIsNoThresholdExitsTwoSuggestingTheNearestKind() {
        Cli.Result typo = Cli.run("analyze", "-q", "--fail-on", "functional_dependancy", dump.toString());
        assertThat(typo.exitCode()).as(typo.err()).isEqualTo(2);
        assertThat(typo.err()).contains("did you mean functional_dependency?").doesNotContain("Exception");
        assertThat(typo.out()).as("nothing analyzed").isEmpty();

        for (String bad : new String[] {"waste=abc", "waste=120%", "bytes=lots", "everything"}) {
            Cli.Result r = Cli.run("analyze", "-q", "--fail-on", bad, dump.toString());
            assertThat(r.exitCode()).as(bad + ": " + r.err()).isEqualTo(2);
            assertThat(r.err()).contains("--fail-on " + bad).doesNotContain("internal error");
        }
    }
}
