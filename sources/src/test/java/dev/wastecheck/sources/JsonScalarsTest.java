package dev.wastecheck.sources;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JsonScalarsTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void bareScalarsInAJsonFileAreRefused() throws Exception {
        String[][] cases = {
            {"42\n", "number"},
            {"\"hello\"", "string"},
            {"true", "boolean"},
            {"null\n", "null"},
            {"1\n2\n3\n", "number"},
            {"-0.5e3", "number"},
        };
        for (String[] c : cases) {
            Path p = write("x.json", c[0]);
            assertThatThrownBy(() -> SourceDetector.detect(p))
                    .as(c[0])
                    .isInstanceOf(DumpFormatException.class)
                    .hasMessageStartingWith(p + ":1: expected a JSON array of objects")
                    .hasMessageContaining("a bare JSON " + c[1]);
        }
    }

    @Test
    void contentNotJsonStaysCsvAndOtherNamesAreNotJudged() throws Exception {
        assertThat(SourceDetector.detect(write("a.json", "a,b\n1,2\n")).kind()).isEqualTo(SourceKind.CSV);
        assertThat(SourceDetector.detect(write("b.json", "1,2\n3,4\n")).kind()).isEqualTo(SourceKind.CSV);
        assertThat(SourceDetector.detect(write("c.csv", "42\n")).kind()).isEqualTo(SourceKind.CSV);
        assertThat(SourceDetector.detect(write("d.json", "[{\"a\":1}]")).kind()).isEqualTo(SourceKind.JSON);
    }
}
