package dev.wastecheck.architecture;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The module and package rules of docs/architecture.md, checked on the compiled classes of every
 * module (main code only), so that the next drift fails the build rather than a review: who may
 * use whom, and no cycle between packages inside a module. The poms already keep a module from
 * compiling against one it does not declare; these rules also catch what a declared dependency
 * would let through (cli reaching into the engine through replay, a package cycle).
 */
class ArchitectureTest {
    private static JavaClasses classes;

    @BeforeAll
    static void importClasses() {
        classes = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                .withImportOption(location -> !location.contains("-tests.jar")) // the model's test fixtures
                .importPackages("dev.wastecheck");
    }

    @Test
    void everyModuleIsImported() {
        for (String module : List.of(
                "model", "layouts", "engine", "traces", "sources", "analyzer", "tune", "replay", "autotune", "cli")) {
            assertThat(classes.stream().anyMatch(c -> c.getPackageName().startsWith("dev.wastecheck." + module)))
                    .as(module)
                    .isTrue();
        }
    }

    /** The drawing of docs/architecture.md: each module uses only the ones below it that it names. */
    @Test
    void modulesUseOnlyWhatTheArchitectureAllows() {
        layeredArchitecture()
                .consideringOnlyDependenciesInLayers()
                .layer("cli")
                .definedBy("dev.wastecheck.cli..")
                .layer("tune")
                .definedBy("dev.wastecheck.tune..")
                .layer("autotune")
                .definedBy("dev.wastecheck.autotune..")
                .layer("replay")
                .definedBy("dev.wastecheck.replay..")
                .layer("analyzer")
                .definedBy("dev.wastecheck.analyzer..")
                .layer("sources")
                .definedBy("dev.wastecheck.sources..")
                .layer("engine")
                .definedBy("dev.wastecheck.engine..")
                .layer("traces")
                .definedBy("dev.wastecheck.traces..")
                .layer("layouts")
                .definedBy("dev.wastecheck.layouts..")
                .layer("model")
                .definedBy("dev.wastecheck.model..")
                .whereLayer("cli")
                .mayOnlyAccessLayers("tune", "autotune", "replay", "analyzer", "sources", "traces", "model")
                .whereLayer("tune")
                .mayOnlyAccessLayers("analyzer", "sources", "traces", "model")
                .whereLayer("autotune")
                .mayOnlyAccessLayers("replay", "sources", "engine", "layouts", "traces", "model")
                .whereLayer("replay")
                .mayOnlyAccessLayers("analyzer", "sources", "engine", "layouts", "traces", "model")
                .whereLayer("analyzer")
                .mayOnlyAccessLayers("sources", "traces", "model")
                .whereLayer("sources")
                .mayOnlyAccessLayers("model")
                .whereLayer("engine")
                .mayOnlyAccessLayers("layouts", "model")
                .whereLayer("traces")
                .mayOnlyAccessLayers("model")
                .whereLayer("layouts")
                .mayNotAccessAnyLayer()
                .whereLayer("model")
                .mayNotAccessAnyLayer()
                .check(classes);
    }

    /** Inside one module, every package is a slice, its root package included, and no two use each other. */
    @ParameterizedTest
    @ValueSource(
            strings = {
                "model",
                "layouts",
                "engine",
                "traces",
                "sources",
                "analyzer",
                "tune",
                "replay",
                "autotune",
                "cli"
            })
    void noPackageCycleInsideAModule(String module) {
        String root = "dev.wastecheck." + module;
        slices().assignedFrom(packagesOf(root))
                .should()
                .beFreeOfCycles()
                .allowEmptyShould(true)
                .check(classes);
    }

    private static SliceAssignment packagesOf(String root) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                String p = c.getPackageName();
                return p.equals(root) || p.startsWith(root + ".") ? SliceIdentifier.of(p) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the packages of " + root;
            }
        };
    }

    /**
     * A type named by its full name inside code ({@code java.util.Locale.ROOT}) where an import
     * would do: the modules below keep to imports, so a reader sees every type a file uses at its
     * top. Strings, comments and the package and import lines are not code.
     */
    @ParameterizedTest
    @ValueSource(strings = {"model", "traces", "sources", "analyzer", "tune", "replay", "cli"})
    void noInlineQualifiedNames(String module) throws IOException {
        Path sources = repository().resolve(module).resolve("src/main/java");
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> found.addAll(qualifiedNames(f)));
        }
        assertThat(found).as("inline qualified names in " + module).isEmpty();
    }

    private static final Pattern QUALIFIED =
            Pattern.compile("(?<![\\w.])(?:java|javax|dev|org|com|net|io|picocli)(?:\\.[a-z][a-z0-9_]*)+\\.[A-Z]\\w*");

    private static List<String> qualifiedNames(Path file) {
        String code;
        try {
            code = codeOnly(Files.readString(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<String> out = new ArrayList<>();
        String[] lines = code.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            if (line.startsWith("package ") || line.startsWith("import ")) {
                continue;
            }
            Matcher m = QUALIFIED.matcher(line);
            while (m.find()) {
                out.add(file.getFileName() + ":" + (i + 1) + ": " + m.group());
            }
        }
        return out;
    }

    /** The source with comments and string and character literals blanked, lines kept. */
    static String codeOnly(String s) {
        StringBuilder out = new StringBuilder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            int end;
            if (s.startsWith("//", i)) {
                end = s.indexOf('\n', i);
                end = end < 0 ? n : end;
            } else if (s.startsWith("/*", i)) {
                end = s.indexOf("*/", i + 2);
                end = end < 0 ? n : end + 2;
            } else if (s.startsWith("\"\"\"", i)) {
                end = s.indexOf("\"\"\"", i + 3);
                end = end < 0 ? n : end + 3;
            } else if (s.charAt(i) == '"' || s.charAt(i) == '\'') {
                char q = s.charAt(i);
                end = i + 1;
                while (end < n && s.charAt(end) != q && s.charAt(end) != '\n') {
                    end += s.charAt(end) == '\\' ? 2 : 1;
                }
                end = Math.min(n, end + 1);
            } else {
                out.append(s.charAt(i++));
                continue;
            }
            for (int j = i; j < end; j++) {
                out.append(s.charAt(j) == '\n' ? '\n' : ' ');
            }
            i = end;
        }
        return out.toString();
    }

    /** The repository's root: the tests run in src/test. */
    private static Path repository() {
        Path here = Path.of("").toAbsolutePath();
        while (here != null && !Files.exists(here.resolve("mvnw"))) {
            here = here.getParent();
        }
        assertThat(here).as("the repository root (where mvnw is)").isNotNull();
        return here;
    }
}
