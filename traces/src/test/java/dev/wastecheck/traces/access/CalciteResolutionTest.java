package dev.wastecheck.traces.access;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.RealData;
import dev.wastecheck.model.access.AccessEvent;
import dev.wastecheck.model.access.Operation;
import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Statement shapes real applications issue, resolved against MediaWiki's schema: the tables they
 * touch, as MediaWiki's generated schema script declares them ({@link #MEDIAWIKI}). The
 * real-data profile resolves them against the whole script
 * (../shared/data/mediawiki-schema/tables-generated.sql, 61 tables) too.
 */
class CalciteResolutionTest {
    /**
     * page, revision, actor, text and watchlist as MediaWiki's sql/mysql/tables-generated.sql
     * declares them (its own form: table-prefix comments, keys inside the table), and user with the
     * columns these statements use.
     */
    static final String MEDIAWIKI = """
            CREATE TABLE /*_*/page (
              page_id INT UNSIGNED AUTO_INCREMENT NOT NULL,
              page_namespace INT NOT NULL,
              page_title VARBINARY(255) NOT NULL,
              page_is_redirect TINYINT UNSIGNED DEFAULT 0 NOT NULL,
              page_is_new TINYINT UNSIGNED DEFAULT 0 NOT NULL,
              page_random DOUBLE PRECISION UNSIGNED NOT NULL,
              page_touched BINARY(14) NOT NULL,
              page_links_updated BINARY(14) DEFAULT NULL,
              page_latest INT UNSIGNED NOT NULL,
              page_len INT UNSIGNED NOT NULL,
              page_content_model VARBINARY(32) DEFAULT NULL,
              page_lang VARBINARY(35) DEFAULT NULL,
              UNIQUE INDEX page_name_title (page_namespace, page_title),
              INDEX page_random (page_random),
              INDEX page_len (page_len),
              INDEX page_redirect_namespace_len (
                page_is_redirect, page_namespace,
                page_len
              ),
              PRIMARY KEY(page_id)
            ) /*$wgDBTableOptions*/;

            CREATE TABLE /*_*/revision (
              rev_id BIGINT UNSIGNED AUTO_INCREMENT NOT NULL,
              rev_page INT UNSIGNED NOT NULL,
              rev_comment_id BIGINT UNSIGNED NOT NULL,
              rev_actor BIGINT UNSIGNED NOT NULL,
              rev_timestamp BINARY(14) NOT NULL,
              rev_minor_edit TINYINT UNSIGNED DEFAULT 0 NOT NULL,
              rev_deleted TINYINT UNSIGNED DEFAULT 0 NOT NULL,
              rev_len INT UNSIGNED DEFAULT NULL,
              rev_parent_id BIGINT UNSIGNED DEFAULT NULL,
              rev_sha1 VARBINARY(32) DEFAULT '' NOT NULL,
              INDEX rev_timestamp (rev_timestamp),
              INDEX rev_page_timestamp (rev_page, rev_timestamp),
              INDEX rev_actor_timestamp (rev_actor, rev_timestamp, rev_id),
              INDEX rev_page_actor_timestamp (
                rev_page, rev_actor, rev_timestamp
              ),
              PRIMARY KEY(rev_id)
            ) /*$wgDBTableOptions*/;

            CREATE TABLE /*_*/actor (
              actor_id BIGINT UNSIGNED AUTO_INCREMENT NOT NULL,
              actor_user INT UNSIGNED DEFAULT NULL,
              actor_name VARBINARY(255) NOT NULL,
              UNIQUE INDEX actor_user (actor_user),
              UNIQUE INDEX actor_name (actor_name),
              PRIMARY KEY(actor_id)
            ) /*$wgDBTableOptions*/;

            CREATE TABLE /*_*/text (
              old_id INT UNSIGNED AUTO_INCREMENT NOT NULL,
              old_text MEDIUMBLOB NOT NULL,
              old_flags TINYBLOB NOT NULL,
              PRIMARY KEY(old_id)
            ) /*$wgDBTableOptions*/;

            CREATE TABLE /*_*/watchlist (
              wl_id INT UNSIGNED AUTO_INCREMENT NOT NULL,
              wl_user INT UNSIGNED NOT NULL,
              wl_namespace INT DEFAULT 0 NOT NULL,
              wl_title VARBINARY(255) DEFAULT '' NOT NULL,
              wl_notificationtimestamp BINARY(14) DEFAULT NULL,
              UNIQUE INDEX wl_user (wl_user, wl_namespace, wl_title),
              INDEX wl_namespace_title (wl_namespace, wl_title),
              INDEX wl_user_notificationtimestamp (
                wl_user, wl_notificationtimestamp
              ),
              PRIMARY KEY(wl_id)
            ) /*$wgDBTableOptions*/;

            CREATE TABLE /*_*/user (
              user_id INT UNSIGNED AUTO_INCREMENT NOT NULL,
              user_name VARBINARY(255) DEFAULT '' NOT NULL,
              user_real_name VARBINARY(255) DEFAULT '' NOT NULL,
              user_email TINYTEXT NOT NULL,
              user_touched BINARY(14) NOT NULL,
              UNIQUE INDEX user_name (user_name),
              INDEX user_email (user_email(50)),
              PRIMARY KEY(user_id)
            ) /*$wgDBTableOptions*/;
            """;

    static AccessExtractor mw;

    @BeforeAll
    static void schema() {
        DatabaseSchema schema = DdlCatalog.parse(MEDIAWIKI).schema();
        assertThat(schema.tables()).hasSize(6);
        mw = new AccessExtractor(schema);
    }

    /** The statements resolve the same against the whole of MediaWiki's schema script. */
    @Test
    @Tag("real-data")
    void theWholeMediaWikiSchemaResolvesTheSameStatements() throws IOException {
        DatabaseSchema whole = DdlCatalog.read(RealData.file("mediawiki-schema/tables-generated.sql"))
                .schema();
        assertThat(whole.tables()).hasSize(61);
        AccessExtractor x = new AccessExtractor(whole);
        for (String sql : new String[] {
            "SELECT * FROM page WHERE page_namespace = 0 AND page_title = 'Main_Page' LIMIT 1",
            "SELECT p.page_title, r.rev_timestamp, a.actor_name FROM page AS p JOIN revision r ON r.rev_page = p.page_id"
                    + " JOIN actor a ON a.actor_id = r.rev_actor WHERE p.page_namespace = 0 AND p.page_title = 'Athens'",
            "DELETE FROM watchlist WHERE wl_user = 5 AND wl_namespace = 0 AND wl_title = 'X'",
            "SELECT user_name FROM user WHERE user_id = 3"
        }) {
            assertThat(x.extract(sql, Dialect.MYSQL)).as(sql).isEqualTo(mw.extract(sql, Dialect.MYSQL));
        }
        assertThat(x.report().unresolved()).isZero();
    }

    static AccessEvent only(List<AccessEvent> events, String table) {
        List<AccessEvent> t =
                events.stream().filter(e -> e.table().equals(table)).toList();
        assertThat(t)
                .as(
                        "events on %s in %s; unresolved: %s",
                        table, events, mw.report().unresolvedReasons())
                .hasSize(1);
        return t.get(0);
    }

    @Test
    void benchBasePageByNamespaceAndTitle() {
        AccessEvent e = only(
                mw.extract(
                        "SELECT * FROM page WHERE page_namespace = 0 AND page_title = 'Main_Page' LIMIT 1",
                        Dialect.MYSQL),
                "page");
        assertThat(e.operation()).isEqualTo(Operation.POINT_LOOKUP);
        assertThat(e.index()).isEqualTo("page_name_title");
        assertThat(e.key()).containsExactly(Map.entry("page_namespace", "0"), Map.entry("page_title", "Main_Page"));
        assertThat(e.projected()).hasSize(12).contains("page_latest", "page_lang");
        assertThat(e.predicate()).containsExactlyInAnyOrder("page_namespace", "page_title");
    }

    @Test
    void benchBasePageJoinRevisionOnLatest() {
        List<AccessEvent> ev = mw.extract(
                "SELECT * FROM page, revision WHERE page_id = rev_page AND rev_page = 17 AND page_id = 17"
                        + " AND rev_id = page_latest LIMIT 1",
                Dialect.MYSQL);
        AccessEvent page = only(ev, "page");
        AccessEvent rev = only(ev, "revision");
        assertThat(page.operation()).isEqualTo(Operation.POINT_LOOKUP);
        assertThat(page.key()).containsExactly(Map.entry("page_id", "17"));
        assertThat(page.joined()).containsExactlyInAnyOrder("page_id", "page_latest");
        assertThat(rev.operation()).isEqualTo(Operation.POINT_LOOKUP);
        assertThat(rev.index()).isEqualTo("PRIMARY");
        assertThat(rev.joined()).containsExactlyInAnyOrder("rev_id", "rev_page");
        assertThat(rev.keyComplete())
                .as("rev_id comes from page_latest, not a literal")
                .isFalse();
    }

    @Test
    void joinsWithAliasesResolveToTheirTables() {
        List<AccessEvent> ev = mw.extract(
                "SELECT p.page_title, r.rev_timestamp, a.actor_name FROM page AS p"
                        + " JOIN revision r ON r.rev_page = p.page_id JOIN actor a ON a.actor_id = r.rev_actor"
                        + " WHERE p.page_namespace = 0 AND p.page_title = 'Athens' ORDER BY r.rev_timestamp DESC LIMIT 50",
                Dialect.MYSQL);
        assertThat(only(ev, "page").projected()).containsExactly("page_title");
        assertThat(only(ev, "page").operation()).isEqualTo(Operation.POINT_LOOKUP);
        AccessEvent rev = only(ev, "revision");
        assertThat(rev.operation()).isEqualTo(Operation.RANGE);
        assertThat(rev.index()).startsWith("rev_page");
        assertThat(rev.projected()).containsExactly("rev_timestamp");
        assertThat(rev.joined()).containsExactlyInAnyOrder("rev_page", "rev_actor");
        assertThat(only(ev, "actor").projected()).containsExactly("actor_name");
        assertThat(only(ev, "actor").joined()).containsExactly("actor_id");
    }

    @Test
    void textByOldIdAndInListsGiveOneEventPerKey() {
        List<AccessEvent> ev =
                mw.extract("SELECT old_text, old_flags FROM text WHERE old_id IN (101, 102, 103)", Dialect.MYSQL);
        assertThat(ev)
                .extracting(AccessEvent::key)
                .containsExactly(Map.of("old_id", "101"), Map.of("old_id", "102"), Map.of("old_id", "103"));
        assertThat(ev).allSatisfy(e -> {
            assertThat(e.operation()).isEqualTo(Operation.POINT_LOOKUP);
            assertThat(e.projected()).containsExactlyInAnyOrder("old_text", "old_flags");
        });
        List<AccessEvent> titles = mw.extract(
                "SELECT page_id FROM page WHERE page_namespace = 0 AND page_title IN ('A','B')", Dialect.MYSQL);
        assertThat(titles)
                .extracting(AccessEvent::key)
                .containsExactly(
                        Map.of("page_namespace", "0", "page_title", "A"),
                        Map.of("page_namespace", "0", "page_title", "B"));
    }

    @Test
    void linkBatchDisjunctionsGiveOneEventPerTitle() {
        List<AccessEvent> ev = mw.extract(
                "SELECT /* LinkBatch::doQuery */ page_id,page_namespace,page_title,page_len,page_is_redirect,page_latest"
                        + " FROM page WHERE (page_namespace = 0 AND page_title IN ('Athens','Sparta')) OR (page_namespace = 1 AND page_title = 'Athens')",
                Dialect.MYSQL);
        assertThat(ev).extracting(AccessEvent::operation).containsOnly(Operation.POINT_LOOKUP);
        assertThat(ev)
                .extracting(AccessEvent::key)
                .containsExactly(
                        Map.of("page_namespace", "0", "page_title", "Athens"),
                        Map.of("page_namespace", "0", "page_title", "Sparta"),
                        Map.of("page_namespace", "1", "page_title", "Athens"));
    }

    @Test
    void mysqlFunctionsReservedAliasesAndNegativeKeys() {
        AccessEvent c = only(
                mw.extract(
                        "SELECT COUNT(*) AS count, IF(MAX(rev_len) > 10, 'big', 'small') AS size"
                                + " FROM revision WHERE rev_page = 3",
                        Dialect.MYSQL),
                "revision");
        assertThat(c.key()).containsExactly(Map.entry("rev_page", "3"));
        AccessEvent n = only(mw.extract("SELECT page_title FROM page WHERE page_id = -5", Dialect.MYSQL), "page");
        assertThat(n.key()).containsExactly(Map.entry("page_id", "-5"));
        AccessEvent g = only(
                mw.extract("SELECT GREATEST(page_len, 10) FROM page WHERE page_id = 1 - 1", Dialect.MYSQL), "page");
        assertThat(g.projected()).containsExactly("page_len");
    }

    @Test
    void updatePageLatestWritesTheColumnsItSets() {
        AccessEvent e = only(
                mw.extract(
                        "UPDATE page SET page_latest = 1234, page_touched = '20160601000000', page_is_new = 0,"
                                + " page_is_redirect = 0, page_len = 5120 WHERE page_id = 17",
                        Dialect.MYSQL),
                "page");
        assertThat(e.operation()).isEqualTo(Operation.UPDATE);
        assertThat(e.key()).containsExactly(Map.entry("page_id", "17"));
        assertThat(e.updated())
                .containsExactlyInAnyOrder(
                        "page_latest", "page_touched", "page_is_new", "page_is_redirect", "page_len");
    }

    @Test
    void insertsAndDeletesCarryTheirKeys() {
        List<AccessEvent> ins = mw.extract(
                "INSERT INTO revision (rev_id,rev_page,rev_comment_id,rev_actor,rev_timestamp,rev_minor_edit,"
                        + "rev_deleted,rev_len,rev_parent_id,rev_sha1) VALUES (9001,17,1,2,'20160601000000',0,0,512,9000,'abc'),"
                        + "(9002,18,1,2,'20160601000001',0,0,10,0,'def')",
                Dialect.MYSQL);
        assertThat(ins).extracting(AccessEvent::operation).containsOnly(Operation.INSERT);
        assertThat(ins)
                .extracting(AccessEvent::key)
                .containsExactly(Map.of("rev_id", "9001"), Map.of("rev_id", "9002"));
        AccessEvent del = only(
                mw.extract(
                        "DELETE FROM watchlist WHERE wl_user = 5 AND wl_namespace = 0 AND wl_title = 'X'",
                        Dialect.MYSQL),
                "watchlist");
        assertThat(del.operation()).isEqualTo(Operation.DELETE);
        assertThat(del.index()).isEqualTo("wl_user");
        assertThat(del.key())
                .containsExactly(Map.entry("wl_user", "5"), Map.entry("wl_namespace", "0"), Map.entry("wl_title", "X"));
    }

    @Test
    void limitInMysqlAndPostgresqlForms() {
        String[] forms = {
            "SELECT rev_id FROM `revision` WHERE `rev_page` = 17 ORDER BY rev_timestamp DESC LIMIT 10",
            "SELECT rev_id FROM `revision` WHERE `rev_page` = 17 ORDER BY rev_timestamp DESC LIMIT 20, 10",
            "SELECT rev_id FROM \"revision\" WHERE \"rev_page\" = 17 ORDER BY rev_timestamp DESC LIMIT 10 OFFSET 20",
            "SELECT rev_id FROM revision WHERE rev_page = 17 ORDER BY rev_timestamp DESC OFFSET 20 ROWS FETCH NEXT 10 ROWS ONLY",
        };
        for (String sql : forms) {
            Dialect d = sql.contains("`") ? Dialect.MYSQL : Dialect.POSTGRESQL;
            AccessEvent e = only(mw.extract(sql, d), "revision");
            assertThat(e.operation()).as(sql).isEqualTo(Operation.RANGE);
            assertThat(e.key()).as(sql).containsExactly(Map.entry("rev_page", "17"));
            assertThat(e.projected()).as(sql).containsExactly("rev_id");
        }
    }

    @Test
    void mysqlismsAreSmoothedAway() {
        AccessEvent e = only(
                mw.extract(
                        "SELECT /* WikiPage::loadPageData */ SQL_NO_CACHE page_id FROM `page` FORCE INDEX (page_name_title)"
                                + " WHERE page_namespace = 0 AND page_title != 'X\\'s' LOCK IN SHARE MODE",
                        Dialect.MYSQL),
                "page");
        assertThat(e.operation()).isEqualTo(Operation.RANGE);
        assertThat(e.key()).containsExactly(Map.entry("page_namespace", "0"));
        AccessEvent ins = only(
                mw.extract(
                        "INSERT IGNORE INTO `watchlist` (wl_user,wl_namespace,wl_title) VALUES (1,0,'A')"
                                + " ON DUPLICATE KEY UPDATE wl_notificationtimestamp = NULL",
                        Dialect.MYSQL),
                "watchlist");
        assertThat(ins.operation()).isEqualTo(Operation.INSERT);
        AccessEvent u = only(mw.extract("SELECT user_name FROM user WHERE user_id = 3", Dialect.MYSQL), "user");
        assertThat(u.key()).containsExactly(Map.entry("user_id", "3"));
    }

    @Test
    void functionsOnColumnsAreRecordedForGranularity() {
        AccessEvent y = only(
                mw.extract(
                        "SELECT YEAR(rev_timestamp), COUNT(*) FROM revision GROUP BY YEAR(rev_timestamp)",
                        Dialect.MYSQL),
                "revision");
        assertThat(y.operation()).isEqualTo(Operation.SCAN);
        assertThat(y.functions()).containsEntry("rev_timestamp", Set.of("YEAR"));
        AccessEvent l = only(
                mw.extract("SELECT rev_id FROM revision WHERE LEFT(rev_timestamp, 8) = '20160601'", Dialect.MYSQL),
                "revision");
        assertThat(l.functions()).containsKey("rev_timestamp");
        assertThat(l.functions().get("rev_timestamp")).contains("LEFT");
        AccessEvent s = only(
                mw.extract("SELECT SUBSTR(page_touched, 1, 4) FROM page WHERE page_id = 1", Dialect.MYSQL), "page");
        assertThat(s.functions().get("page_touched")).contains("SUBSTRING");
        AccessEvent d = only(
                mw.extract("SELECT COUNT(*) FROM revision WHERE DATE(rev_timestamp) = '2016-06-01'", Dialect.MYSQL),
                "revision");
        assertThat(d.functions().get("rev_timestamp")).contains("DATE");
    }

    @Test
    void subqueriesResolveTheirTablesToo() {
        List<AccessEvent> ev = mw.extract(
                "SELECT page_title FROM page WHERE page_id IN (SELECT rev_page FROM revision WHERE rev_actor = 5)",
                Dialect.MYSQL);
        assertThat(only(ev, "revision").key()).containsExactly(Map.entry("rev_actor", "5"));
        assertThat(only(ev, "page").projected()).containsExactly("page_title");
    }

    @Test
    void whatCannotBeResolvedIsReportedNotGuessed() {
        AccessExtractor x = new AccessExtractor(DdlCatalog.parse("CREATE TABLE t (id int primary key, v varchar(10));")
                .schema());
        assertThat(x.extract("SELECT v FROM nosuch WHERE id = 1", null)).isEmpty();
        assertThat(x.extract("SELECT nosuchcol FROM t WHERE id = 2", null)).isEmpty();
        assertThat(x.extract("SELECT nosuchcol FROM t WHERE id = 3", null)).isEmpty();
        assertThat(x.extract("BEGIN", null)).isEmpty();
        assertThat(x.extract("SELECT v FROM t WHERE id = 4", null)).hasSize(1);
        ResolutionReport r = x.report();
        assertThat(r.statements()).isEqualTo(5);
        assertThat(r.resolved()).isEqualTo(1);
        assertThat(r.ignored()).containsEntry("BEGIN", 1L);
        assertThat(r.unresolved()).isEqualTo(3);
        assertThat(r.unresolvedReasons()).hasSize(2);
        assertThat(r.unresolvedReasons().get(0).reason()).contains("nosuchcol");
        assertThat(r.unresolvedReasons().get(0).count()).isEqualTo(2);
        assertThat(r.unresolvedReasons().get(0).examples())
                .extracting(ResolutionReport.Example::statement)
                .containsExactly("SELECT nosuchcol FROM t WHERE id = 2", "SELECT nosuchcol FROM t WHERE id = 3");
        assertThat(r.unresolvedReasons().get(1).reason()).contains("nosuch");
    }

    @Test
    void statementsDifferingInLiteralsShareOneShape() {
        AccessExtractor x = new AccessExtractor(DdlCatalog.parse("CREATE TABLE t (id int primary key, v varchar(10));")
                .schema());
        for (int i = 0; i < 1000; i++) {
            assertThat(x.extract("SELECT v FROM t WHERE id = " + i, Dialect.MYSQL)
                            .get(0)
                            .key())
                    .containsEntry("id", Integer.toString(i));
        }
        assertThat(x.report().shapes()).isEqualTo(1);
        assertThat(x.report().shapeCacheHits()).isEqualTo(999);
    }
}
