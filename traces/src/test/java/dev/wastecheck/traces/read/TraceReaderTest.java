package dev.wastecheck.traces.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.traces.access.AccessExtractor;
import dev.wastecheck.traces.generate.WikiGenerator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReaderTest {
    @TempDir
    Path dir;

    Path write(String name, String content) throws IOException {
        Path f = dir.resolve(name);
        Files.writeString(f, content, StandardCharsets.UTF_8);
        return f;
    }

    static List<TraceRecord> readAll(TraceReader r) {
        List<TraceRecord> out = new ArrayList<>();
        r.forEachRemaining(out::add);
        return out;
    }

    @Test
    void wikiBenchUrlTracesBecomePageViewsAndEdits() throws IOException {
        Path f = write("wikibench.txt", """
                929840 1190146243.303 http://en.wikipedia.org/wiki/Main_Page -
                929841 1190146243.310 http://upload.wikimedia.org/wikipedia/commons/a/a1/X.jpg -
                929842 1190146243.320 http://en.wikipedia.org/wiki/Talk:New_York_City -
                929843 1190146243.330 http://en.wikipedia.org/w/index.php?title=%CE%91%CE%B8%CE%AE%CE%BD%CE%B1&action=submit save
                929844 1190146243.340 http://en.wikipedia.org/wiki/Special:Random -
                929845 1190146243.350 http://en.wikipedia.org/wiki/foo_bar#History -
                """);
        try (TraceReader r = TraceReader.open(f)) {
            assertThat(r.format()).isEqualTo(TraceFormat.WIKIBENCH);
            List<TraceRecord> recs = readAll(r);
            assertThat(recs)
                    .containsExactly(
                            new PageRequest(0, "Main_Page", PageRequest.Action.VIEW, 1, 1, 1190146243303L),
                            new PageRequest(1, "New_York_City", PageRequest.Action.VIEW, 1, 3, 1190146243320L),
                            new PageRequest(0, "Αθήνα", PageRequest.Action.EDIT, 1, 4, 1190146243330L),
                            new PageRequest(0, "Foo_bar", PageRequest.Action.VIEW, 1, 6, 1190146243350L));
            assertThat(r.skipped())
                    .containsEntry("not a page: media, skins or API", 1L)
                    .containsEntry("not a page: special or media namespace", 1L);
            assertThat(r.badLines().count()).isZero();
        }
    }

    @Test
    void urlTracesMapToTheStatementsMediaWikiIssues() throws IOException {
        AccessExtractor x = new AccessExtractor(WikiGenerator.schema());
        List<AccessEvent> view = x.extract(new PageRequest(0, "Main_Page", PageRequest.Action.VIEW, 1, 1, -1));
        assertThat(view).extracting(AccessEvent::table).containsExactly("page", "revision", "slots", "content", "text");
        assertThat(view.get(0).key()).isEqualTo(Map.of("page_namespace", "0", "page_title", "Main_Page"));
        assertThat(view.get(1).operation()).isEqualTo(Operation.POINT_LOOKUP);
        assertThat(view.get(1).keyComplete()).isFalse();
        List<AccessEvent> edit = x.extract(new PageRequest(0, "O'Brien", PageRequest.Action.EDIT, 1, 2, -1));
        assertThat(edit)
                .extracting(AccessEvent::operation)
                .containsExactly(
                        Operation.POINT_LOOKUP,
                        Operation.INSERT,
                        Operation.INSERT,
                        Operation.INSERT,
                        Operation.INSERT,
                        Operation.UPDATE);
        assertThat(edit.get(5).updated()).contains("page_latest");
        assertThat(x.report().unresolved()).isZero();
    }

    @Test
    void pageviewCountsStandForTheirCount() throws IOException {
        Path f = write("pageviews", """
                el Κύριο_Σελίδα 1203 0
                el %CE%91%CE%B8%CE%AE%CE%BD%CE%B1 17 0
                el Ειδικό:Search 5 0
                en Main_Page 242332 4737756101
                """);
        try (TraceReader r = TraceReader.open(f)) {
            assertThat(r.format()).isEqualTo(TraceFormat.PAGEVIEW_COUNTS);
            List<TraceRecord> recs = readAll(r);
            assertThat(recs).hasSize(4);
            assertThat(recs.get(1)).isEqualTo(new PageRequest(0, "Αθήνα", PageRequest.Action.VIEW, 17, 2, -1));
            assertThat(((PageRequest) recs.get(3)).count()).isEqualTo(242332);
        }
    }

    @Test
    void gzippedTracesAreReadTransparently() throws IOException {
        Path f = dir.resolve("pageviews.gz");
        try (var out = new java.util.zip.GZIPOutputStream(Files.newOutputStream(f))) {
            out.write("el Κύριο_Σελίδα 1203 0\nel Αθήνα 17 0\n".getBytes(StandardCharsets.UTF_8));
        }
        try (TraceReader r = TraceReader.open(f)) {
            assertThat(r.format()).isEqualTo(TraceFormat.PAGEVIEW_COUNTS);
            assertThat(readAll(r)).hasSize(2);
        }
    }

    @Test
    void mysqlGeneralLogOfBothEras() throws IOException {
        Path v8 = write("general8.log", """
                /usr/sbin/mysqld, Version: 8.0.36 (MySQL Community Server - GPL). started with:
                Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock
                Time                 Id Command    Argument
                2024-03-01T10:00:00.123456Z\t    8 Connect\twiki@localhost on wikidb using TCP/IP
                2024-03-01T10:00:00.124001Z\t    8 Query\tSET NAMES utf8mb4
                2024-03-01T10:00:00.125001Z\t    8 Query\tSELECT page_id,page_latest FROM `page`
                WHERE page_namespace = 0 AND page_title = 'Main_Page' LIMIT 1
                2024-03-01T10:00:00.126001Z\t    8 Quit\t
                """);
        try (TraceReader r = TraceReader.open(v8)) {
            assertThat(r.format()).isEqualTo(TraceFormat.MYSQL_GENERAL_LOG);
            List<TraceRecord> recs = readAll(r);
            assertThat(recs).hasSize(2);
            SqlStatement s = (SqlStatement) recs.get(1);
            assertThat(s.sql())
                    .isEqualTo(
                            "SELECT page_id,page_latest FROM `page`\nWHERE page_namespace = 0 AND page_title = 'Main_Page' LIMIT 1");
            assertThat(s.line()).isEqualTo(6);
            assertThat(s.dialect()).isEqualTo(Dialect.MYSQL);
            assertThat(s.timeMillis())
                    .isEqualTo(
                            java.time.Instant.parse("2024-03-01T10:00:00.125Z").toEpochMilli());
        }
        Path v5 = write("general5.log", """
                /usr/sbin/mysqld, Version: 5.5.53-0ubuntu0.14.04.1 ((Ubuntu)). started with:
                Tcp port: 3306  Unix socket: /var/run/mysqld/mysqld.sock
                Time                 Id Command    Argument
                170415 12:00:01\t   43 Connect\troot@localhost on my_wiki
                \t\t   43 Query\tSELECT /* Title::getArticleID */ page_id FROM `page` WHERE page_namespace = '0' AND page_title = 'Main_Page' LIMIT 1
                170415 12:00:02\t   43 Query\tBEGIN
                \t\t   43 Query\tCOMMIT
                """);
        try (TraceReader r = TraceReader.open(v5)) {
            assertThat(r.format()).isEqualTo(TraceFormat.MYSQL_GENERAL_LOG);
            List<TraceRecord> recs = readAll(r);
            assertThat(recs).hasSize(3);
            assertThat(((SqlStatement) recs.get(0)).sql()).startsWith("SELECT /* Title::getArticleID */");
            assertThat(recs.get(0).timeMillis())
                    .isEqualTo(java.time.Instant.parse("2017-04-15T12:00:01Z").toEpochMilli());
            AccessExtractor x = new AccessExtractor(WikiGenerator.schema());
            List<AccessEvent> events = new ArrayList<>();
            recs.forEach(rec -> x.extract(rec, events::add));
            assertThat(events).hasSize(1);
            assertThat(events.get(0).key()).isEqualTo(Map.of("page_namespace", "0", "page_title", "Main_Page"));
            assertThat(x.report().ignored()).containsEntry("BEGIN", 1L).containsEntry("COMMIT", 1L);
        }
    }

    @Test
    void plainStatementFilesSplitAtSemicolonsOutsideQuotes() throws IOException {
        Path f = write("statements.sql", """
                -- a comment
                SELECT 1; SELECT 'a;b';
                UPDATE page
                   SET page_touched = '20160101000000'
                 WHERE page_id = 1;
                """);
        try (TraceReader r = TraceReader.open(f)) {
            assertThat(r.format()).isEqualTo(TraceFormat.SQL_STATEMENTS);
            assertThat(readAll(r))
                    .extracting(t -> ((SqlStatement) t).sql())
                    .containsExactly(
                            "SELECT 1",
                            "SELECT 'a;b'",
                            "UPDATE page\n   SET page_touched = '20160101000000'\n WHERE page_id = 1");
        }
    }

    @Test
    void badLinesAreCountedAndPastTheThresholdTheRunFailsWithFileAndLine() throws IOException {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 300; i++) {
            sb.append(i)
                    .append(" 1190146243.")
                    .append(100 + i)
                    .append(" http://en.wikipedia.org/wiki/P")
                    .append(i)
                    .append(" -\n");
        }
        sb.append("garbage here\n");
        Path oneBad = write("one-bad.txt", sb.toString());
        try (TraceReader r = TraceReader.open(oneBad)) {
            assertThat(readAll(r)).hasSize(300);
            assertThat(r.badLines().count()).isEqualTo(1);
            assertThat(r.badLines().examples().get(0).line()).isEqualTo(301);
        }
        for (int i = 0; i < 5; i++) {
            sb.append("more garbage\n");
        }
        Path manyBad = write("many-bad.txt", sb.toString());
        assertThatThrownBy(() -> {
                    try (TraceReader r = TraceReader.open(manyBad)) {
                        readAll(r);
                    }
                })
                .isInstanceOf(TraceFormatException.class)
                .hasMessageContaining("many-bad.txt:301: expected 'counter timestamp url flag' with flag '-' or 'save'")
                .hasMessageContaining("6 of 306 lines bad");
        try (TraceReader r =
                TraceReader.open(manyBad, TraceReadOptions.defaults().withMaxBadFraction(0.05))) {
            assertThat(readAll(r)).hasSize(300);
            assertThat(r.badLines().count()).isEqualTo(6);
        }
    }

    /** A fuzzer's finding: "/* *&#47; x;" closed its comment inside the opening and threw out of the reader. */
    @Test
    void aGeneratorTraceLineWhoseCommentHoldsNoTimeIsABadLine() throws IOException {
        StringBuilder sb = new StringBuilder("-- wastecheck trace v1: one SQL statement per line\n");
        for (int i = 1; i <= 200; i++) {
            sb.append("/* 2016-06-01T00:00:00.0")
                    .append(10 + i % 80)
                    .append("Z */ SELECT 1 FROM page WHERE page_id = ")
                    .append(i)
                    .append(";\n");
        }
        sb.append("/* */ SELECT 1;\n");
        Path f = write("no-time.log", sb.toString());
        try (TraceReader r = TraceReader.open(f)) {
            assertThat(readAll(r)).hasSize(200);
            assertThat(r.badLines().count()).isEqualTo(1);
            assertThat(r.badLines().examples().get(0).line()).isEqualTo(202);
        }
    }

    @Test
    void generatorTracesAreAlsoPlainStatementFiles(@TempDir Path g) throws IOException {
        new WikiGenerator(WikiGenerator.Config.defaults(20, 1)
                        .withTextMedianBytes(50)
                        .withRequests(50))
                .generate(g);
        Path trace = g.resolve("trace.log");
        long statements;
        try (TraceReader r = TraceReader.open(trace)) {
            assertThat(r.format()).isEqualTo(TraceFormat.WASTECHECK);
            statements = readAll(r).size();
        }
        List<String> lines = Files.readAllLines(trace);
        Path plain = write("plain.sql", String.join("\n", lines.subList(2, lines.size())) + "\n");
        try (TraceReader r = TraceReader.open(plain)) {
            assertThat(r.format()).isEqualTo(TraceFormat.SQL_STATEMENTS);
            List<TraceRecord> recs = readAll(r);
            assertThat(recs).hasSize((int) statements);
            assertThat(recs.get(0).timeMillis())
                    .isEqualTo(java.time.Instant.parse("2016-06-01T00:00:00Z").toEpochMilli()
                            + (recs.get(0).timeMillis() % 100_000));
        }
    }
}
