package dev.wastecheck.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class WrapTest {
    private static String print(String text, int width, String first, String next) {
        StringWriter s = new StringWriter();
        PrintWriter w = new PrintWriter(s);
        Wrap.print(w, text, width, first, next);
        w.flush();
        return s.toString();
    }

    @Test
    void wordsMoveWholeToTheNextLineUnderAHangingIndent() {
        assertThat(print(
                        "constant text.old_flags: every row holds 'utf-8': a DEFAULT could supply it",
                        30,
                        "  ",
                        "    "))
                .isEqualTo("""
                          constant text.old_flags:
                            every row holds 'utf-8': a
                            DEFAULT could supply it
                        """);
    }

    @Test
    void aNoBreakSpaceHoldsTwoWordsTogetherAndPrintsAsASpace() {
        assertThat(Wrap.lines("bigint unsigned ->" + Wrap.NBSP + "SMALLINT UNSIGNED", 20))
                .containsExactly("bigint unsigned", "-> SMALLINT UNSIGNED");
        assertThat(Wrap.lines("saves " + Wrap.together("40.0 KiB"), 10)).containsExactly("saves", "40.0 KiB");
    }

    @Test
    void aWordLongerThanTheLineBreaksAfterACommaOrIsCutNeverOverflows() {
        assertThat(print("layout=pax,cache=swap,cluster=partition", 16, "", ""))
                .isEqualTo("layout=pax,\ncache=swap,\ncluster=partitio\nn\n");
        assertThat(Wrap.lines("abcdefghij", 4)).containsExactly("abcd", "efgh", "ij");
    }

    @Test
    void lineBreaksInTheTextAreKept() {
        assertThat(Wrap.lines("one\ntwo three", 20)).containsExactly("one", "two three");
    }
}
