package dev.wastecheck.cli.render;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import org.junit.jupiter.api.Test;

class SqlCommentsTest {
    private static String print(String sql, int width) {
        StringWriter s = new StringWriter();
        PrintWriter w = new PrintWriter(s);
        SqlComments.print(sql, w, width);
        w.flush();
        return s.toString();
    }

    @Test
    void everyCommentIsReflowedAsTheAnalyzerMeantItsParagraphsAndTheStatementsStayAsTheyAre() {
        String sql = """
                -- wastecheck tune: a migration for MySQL (InnoDB), from /tmp/junit-16832204020333596848/shop.sql
                -- The string_holds_* changes turn text into numbers, dates or times: queries that apply string functions or LIKE
                -- to those columns must change with them.
                --   an indented line, too long for sixty columns, keeps its indentation
                SET FOREIGN_KEY_CHECKS = 0;
                -- Left out:
                --   revision.rev_sha1: the value 'x' would read back as 0, so the declared type stays
                """;
        assertThat(print(sql, 60)).isEqualTo("""
                -- wastecheck tune: a migration for MySQL (InnoDB), from
                -- /tmp/junit-16832204020333596848/shop.sql
                -- The string_holds_* changes turn text into numbers, dates
                -- or times: queries that apply string functions or LIKE to
                -- those columns must change with them.
                --   an indented line, too long for sixty columns, keeps its
                --   indentation
                SET FOREIGN_KEY_CHECKS = 0;
                -- Left out:
                --   revision.rev_sha1: the value 'x' would read back as 0,
                --   so the declared type stays
                """);
        // a statement is what the server runs: never broken, however long
        String wide = "SET SESSION sql_mode = 'STRICT_ALL_TABLES,ERROR_FOR_DIVISION_BY_ZERO,NO_ENGINE_SUBSTITUTION';\n";
        assertThat(print(wide, 60)).isEqualTo(wide);
        // a comment-looking line inside a literal that spans lines is part of the literal
        String spanning =
                "COMMENT ON TABLE t IS 'first line\n-- not a comment but a line of the literal, long enough to be wrapped if it were one';\n";
        assertThat(print(spanning, 60)).isEqualTo(spanning);
    }

    @Test
    void aTrailingCommentTooWideMovesAboveItsStatementWhichStaysAsItIs() {
        String sql =
                "ALTER TABLE `actor`\n  MODIFY COLUMN `actor_id` TINYINT UNSIGNED NOT NULL AUTO_INCREMENT, -- bigint unsigned, narrow_integer\n";
        assertThat(print(sql, 80)).isEqualTo("""
                ALTER TABLE `actor`
                  -- bigint unsigned, narrow_integer
                  MODIFY COLUMN `actor_id` TINYINT UNSIGNED NOT NULL AUTO_INCREMENT,
                """);
        assertThat(print(sql, 120)).isEqualTo(sql);
    }

    @Test
    void aDoubleDashInsideALiteralOrQuotedNameIsNeverTakenForAComment() {
        String literal =
                "  MODIFY COLUMN `flag` ENUM('a -- b','c') NOT NULL DEFAULT 'a -- b', -- varchar(20), low_cardinality\n";
        String name =
                "  MODIFY COLUMN `odd -- name` TINYINT NOT NULL -- int, narrow_integer and some more words to be long\n";
        String open =
                "  MODIFY COLUMN `x` ENUM('it''s -- here -- int, narrow_integer and more words to be long enough\n";
        assertThat(print(literal, 60))
                .startsWith("  -- varchar(20), low_cardinality\n  MODIFY COLUMN `flag` ENUM('a -- b','c')");
        assertThat(print(name, 60)).startsWith("  -- int, narrow_integer").contains("`odd -- name` TINYINT NOT NULL\n");
        assertThat(print(open, 60)).isEqualTo(open);
    }
}
