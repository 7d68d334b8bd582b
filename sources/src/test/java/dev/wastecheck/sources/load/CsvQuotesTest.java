package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.wastecheck.sources.DumpFormatException;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CsvQuotesTest {
    @TempDir
    Path dir;

    private Path write(String name, String text) throws Exception {
        Path p = dir.resolve(name);
        Files.writeString(p, text, StandardCharsets.UTF_8);
        return p;
    }

    @Test
    void aQuoteNeverClosedIsRefusedAtTheLineItOpened() throws Exception {
        StringBuilder sb = new StringBuilder("id,name\n");
        for (int i = 1; i < 300; i++) {
            sb.append(i).append(i == 100 ? ",\"open" : ",n" + i).append('\n');
        }
        Path p = write("open.csv", sb.toString());
        assertThatThrownBy(() -> CsvQuotes.check(p, "open.csv", false))
                .isInstanceOf(DumpFormatException.class)
                .hasMessageStartingWith("open.csv:101: expected a closing quote")
                .hasMessageContaining("never closed");
    }

    @Test
    void closedQuotesAcrossLinesDoubledAndInsideBareValuesPass() throws Exception {
        String[] fine = {
            "a,b\n1,\"x \"\"y\"\"\nz\"\n", // a doubled quote and a line break inside quotes
            "a;b\n1;\"x;y\"\n", // semicolon-delimited
            "a\tb\n1\t\"x\ty\"\n", // tab-delimited
            "a,b\n1,5'11\"\n", // a quote inside an unquoted value opens nothing
            "a,b\n1, \"spaced\"\n", // a space before the quote
            "a,b\n1,\"\"\n", // an empty quoted value
            "a,b\r\n1,\"x\"\r\n", // CRLF
            "a,b\n1,\"ends at the end\"", // no final line break
        };
        for (String text : fine) {
            Path p = write("fine.csv", text);
            assertThat(catchThrowable(() -> CsvQuotes.check(p, "fine.csv", false)))
                    .as(text)
                    .isNull();
        }
    }

    @Test
    void aQuoteLeftOpenByADoubledQuoteAtTheEndIsFound() throws Exception {
        Path p = write("doubled.csv", "a,b\n1,2\n3,\"x\"\"\n");
        assertThatThrownBy(() -> CsvQuotes.check(p, "doubled.csv", false)).hasMessageStartingWith("doubled.csv:3:");
    }

    @Test
    void gzipIsReadThrough() throws Exception {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        try (GZIPOutputStream z = new GZIPOutputStream(b)) {
            z.write("a,b\n1,2\n3,\"never".getBytes(StandardCharsets.UTF_8));
        }
        Path p = dir.resolve("open.csv.gz");
        Files.write(p, b.toByteArray());
        assertThatThrownBy(() -> CsvQuotes.check(p, "open.csv.gz", true)).hasMessageStartingWith("open.csv.gz:3:");
    }
}
