package dev.wastecheck.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TerminalTest {
    @Test
    void columnsSetsTheWidthOfStdoutAndOfFiles() {
        Terminal t = new Terminal(Map.of("COLUMNS", "132"), false);
        assertThat(t.width()).isEqualTo(132);
        assertThat(t.fileWidth()).isEqualTo(132);
        assertThat(t.stderrWidth()).isEqualTo(132);
    }

    @Test
    void withoutColumnsAndNoTerminalTheWidthIs80() {
        assertThat(new Terminal(Map.of(), false).width()).isEqualTo(80);
        assertThat(new Terminal(Map.of("COLUMNS", "wide"), false).width()).isEqualTo(80);
        assertThat(new Terminal(Map.of("COLUMNS", "0"), false).fileWidth()).isEqualTo(80);
    }

    @Test
    void aTinyColumnsIsTakenAsTheNarrowestReportLayout() {
        assertThat(new Terminal(Map.of("COLUMNS", "12"), false).width()).isEqualTo(Terminal.MIN_WIDTH);
    }
}
