package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The {@code ./wastecheck} launcher's rule "C1 alone below 320 MB of input files" (and, above it, the
 * compiler directives of analyze and tune) counts the
 * inputs, not the values of {@code -o} and {@code --temp-dir}: a {@code --temp-dir} folder once
 * counted as an input of unknown size and kept C2 (for users, and for every {@code ./bench
 * analyze} run, which passes one; docs/benchmarks.md, issue 32). The launcher runs from a copy
 * beside an empty jar, with a {@code java} that prints the arguments it is given, so nothing is
 * built or started.
 */
class LauncherC1RuleTest {
    private static final String C1 = "-XX:TieredStopAtLevel=1";

    @TempDir
    static Path dir;

    private static final String DIRECTIVES = "cli/src/main/jvm/compiler-directives.json";
    private static final String C2_DIRECTIVES = "-XX:CompilerDirectivesFile=";

    private static Path launcher;
    /** The repository's own directives file. */
    private static Path real;

    private static Path input;

    @BeforeAll
    static void copyLauncher() throws IOException {
        Path root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("mvnw"))) {
            root = root.getParent();
        }
        Path home = dir.resolve("home");
        launcher = home.resolve("wastecheck");
        Files.createDirectories(home.resolve("cli/target"));
        Files.copy(root.resolve("wastecheck"), launcher, StandardCopyOption.COPY_ATTRIBUTES);
        Files.createDirectories(home.resolve("cli/src/main/jvm"));
        Files.copy(root.resolve(DIRECTIVES), home.resolve(DIRECTIVES));
        Files.writeString(home.resolve("cli/target/wastecheck.jar"), ""); // newer than any source: no build
        real = root.resolve(DIRECTIVES);
        Path bin = Files.createDirectories(dir.resolve("jdk/bin"));
        Path java = bin.resolve("java");
        Files.writeString(java, "#!/bin/sh\necho 'openjdk version \"17.0.1\"' >&2\necho \"$@\"\n");
        Files.setPosixFilePermissions(java, PosixFilePermissions.fromString("rwxr-xr-x"));
        input = dir.resolve("small.sql");
        Files.writeString(input, "INSERT INTO t VALUES (1);\n");
    }

    private static String javaArgs(String... args) throws IOException, InterruptedException {
        return javaArgs(true, args);
    }

    private static String javaArgs(boolean directives, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(launcher.toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD);
        pb.environment().put("JAVA_HOME", dir.resolve("jdk").toString());
        pb.environment().put("WASTECHECK_CDS", "0");
        pb.environment().remove("WASTECHECK_MAIN");
        pb.environment().put("WASTECHECK_C2_DIRECTIVES", directives ? "1" : "0");
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }

    @Test
    void aTempDirAndAnOutputAreNotInput() throws Exception {
        String folder = dir.toString();
        assertThat(javaArgs("analyze", input.toString())).contains(C1);
        assertThat(javaArgs("analyze", "-q", "--temp-dir", folder, "-o", folder, input.toString()))
                .contains(C1);
        assertThat(javaArgs("analyze", "--output", folder, "--temp-dir=" + folder, input.toString()))
                .contains(C1);
    }

    @Test
    void aFolderInputKeepsC2() throws Exception {
        assertThat(javaArgs("analyze", dir.toString())).doesNotContain(C1);
        assertThat(javaArgs("analyze", "--temp-dir", dir.toString(), input.toString(), dir.toString()))
                .doesNotContain(C1);
    }

    /**
     * Where analyze and tune run C2, the launcher passes the compiler directives that leave Arrow's
     * and Netty's per-batch code to C1 (docs/benchmarks.md, issue 32); never beside C1 alone, never
     * for the engine's commands, and not under {@code WASTECHECK_C2_DIRECTIVES=0}.
     */
    @Test
    void c2GetsTheDirectivesAndC1DoesNot() throws Exception {
        // with C1 alone one compiler thread, and the loader is told so (DumpLoader.twoFillers)
        assertThat(javaArgs("analyze", input.toString()))
                .contains(C1 + " -XX:CICompilerCount=1 -Dwastecheck.jit=c1")
                .doesNotContain(C2_DIRECTIVES);
        assertThat(javaArgs("analyze", dir.toString()))
                .doesNotContain(C1)
                .doesNotContain("CICompilerCount")
                .doesNotContain("wastecheck.jit")
                .contains("-XX:+UnlockDiagnosticVMOptions " + C2_DIRECTIVES
                        + launcher.getParent().resolve(DIRECTIVES) + " -XX:-DisplayVMOutput");
        assertThat(javaArgs(false, "analyze", dir.toString()))
                .doesNotContain(C1)
                .doesNotContain(C2_DIRECTIVES);
        assertThat(javaArgs("tune", dir.toString())).contains(C2_DIRECTIVES);
        // the engine's commands read Arrow blocks value by value: C2 for all of Arrow there
        assertThat(javaArgs("replay", dir.toString())).doesNotContain(C1).doesNotContain(C2_DIRECTIVES);
        assertThat(javaArgs("autotune", dir.toString())).doesNotContain(C2_DIRECTIVES);
    }

    /**
     * The file parses in the JVM that runs the tests (a syntax error would stop every C2 start) and
     * leaves the loader's per-value Arrow calls (MemoryUtil) to C2 while it keeps Arrow's and Netty's other code out.
     */
    @Test
    void theDirectivesParseAndMatchWhatTheySay() throws Exception {
        String out = realJava(true, "-XX:+CompilerDirectivesPrint");
        assertThat(out).doesNotContainIgnoringCase("syntax error").doesNotContainIgnoringCase("could not");
        // printed in the file's order, each with its c2 Exclude: MemoryUtil first, kept; then the rest, excluded
        int memoryUtil = out.indexOf("org/apache/arrow/memory/util/MemoryUtil.*");
        int rest = out.indexOf("io/netty/*.*");
        assertThat(memoryUtil).as(out).isNotNegative().isLessThan(rest);
    }

    /**
     * The JVM says "2 compiler directives added" on standard output, where analyze's report may go:
     * with the flags the launcher passes beside the directives, standard output stays empty.
     */
    @Test
    void theDirectivesLeaveStandardOutputToTheReport() throws Exception {
        assertThat(realJava(false, "-XX:-DisplayVMOutput")).isEmpty();
        // without that flag, the line this guards against
        assertThat(realJava(false)).contains("compiler directives added");
    }

    /**
     * The test's own JVM starts with the flags the launcher gives C1 alone: one compiler thread is
     * allowed there (tiered C2 would refuse it: "CICompilerCount (1) must be at least 2").
     */
    @Test
    void theJvmTakesOneCompilerThreadWithC1Alone() throws Exception {
        Process p = new ProcessBuilder(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        C1,
                        "-XX:CICompilerCount=1",
                        "-version")
                .redirectErrorStream(true)
                .start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
    }

    /**
     * What the test's own JVM prints with the repository's directives and {@code flags}, then
     * {@code -version}: standard output, with standard error when {@code withErrors}.
     */
    private static String realJava(boolean withErrors, String... flags) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-XX:+UnlockDiagnosticVMOptions",
                C2_DIRECTIVES + real));
        cmd.addAll(List.of(flags));
        cmd.add("-version");
        ProcessBuilder pb = new ProcessBuilder(cmd);
        if (withErrors) {
            pb.redirectErrorStream(true);
        } else {
            pb.redirectError(ProcessBuilder.Redirect.DISCARD);
        }
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
        return out;
    }
}
