package dev.wastecheck.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class TextTableTest {
    private static String print(TextTable t, int width) {
        StringWriter s = new StringWriter();
        PrintWriter w = new PrintWriter(s);
        t.print(w, width);
        w.flush();
        return s.toString();
    }

    private static TextTable tables() {
        return new TextTable()
                .text("table")
                .number("rows")
                .number("waste")
                .row("comment", "1,000", "17%")
                .row("revision", "71", "43%");
    }

    @Test
    void aTableThatFitsHasOneLineARowNumbersRightAligned() {
        assertThat(print(tables(), 80)).isEqualTo("""
                table      rows  waste
                comment   1,000    17%
                revision     71    43%
                """);
    }

    @Test
    void tooWideTheTextColumnWrapsAndNumbersStayWhole() {
        TextTable t = new TextTable()
                .text("column")
                .text("declared -> suggested")
                .number("saves")
                .row("comment.comment_id", "bigint unsigned -> SMALLINT UNSIGNED", "5.86 KiB");
        String out = print(t, 50);
        assertThat(out.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(50));
        assertThat(out).isEqualTo("""
                column              declared ->              saves
                                    suggested
                comment.comment_id  bigint unsigned ->    5.86 KiB
                                    SMALLINT UNSIGNED
                """);
    }

    @Test
    void aNarrowTableBreaksANameOnlyBetweenTableAndColumn() {
        TextTable t = new TextTable()
                .text("column")
                .text("why")
                .number("saves")
                .row("revision.rev_content_model", "string_holds_integer", "5.86 KiB");
        String out = print(t, 40);
        // at 40 columns it cannot fit whole: the name breaks after its dot, never inside rev_content_model
        assertThat(out).contains("rev_content_model").contains("string_holds_integer");
        assertThat(out.lines()
                        .filter(l -> l.startsWith("revision."))
                        .findFirst()
                        .orElseThrow())
                .startsWith("revision. ");
    }

    @Test
    void aNoteGoesUnderItsRowAcrossTheWholeWidth() {
        TextTable t = new TextTable()
                .text("column")
                .number("saves")
                .note("declared -> suggested")
                .row("comment.comment_id", "5.86 KiB")
                .note("bigint unsigned -> SMALLINT UNSIGNED");
        assertThat(print(t, 40)).isEqualTo("""
                column                 saves
                  declared -> suggested
                comment.comment_id  5.86 KiB
                  bigint unsigned -> SMALLINT UNSIGNED
                """);
        assertThat(t.fits(40)).isTrue();
    }

    @Test
    void aFoldedTablePrintsItsColumnsInPartsEachLedByTheFirst() {
        TextTable t = new TextTable()
                .text("config")
                .number("cost/query")
                .number("speedup")
                .number("buffer hit")
                .number("working set")
                .fold()
                .row("layout=nsm", "14.45 µs", "1.00x", "100.0%", "416 KiB")
                .row("layout=pax", "18.34 µs", "0.79x", "99.0%", "392 KiB");
        assertThat(t.fits(40)).isFalse();
        assertThat(print(t, 40)).isEqualTo("""
                config      cost/query  speedup
                layout=nsm    14.45 µs    1.00x
                layout=pax    18.34 µs    0.79x

                config      buffer hit  working set
                layout=nsm      100.0%      416 KiB
                layout=pax       99.0%      392 KiB
                """);
    }
}
