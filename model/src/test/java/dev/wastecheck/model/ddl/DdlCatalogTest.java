package dev.wastecheck.model.ddl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.model.schema.TypeFamily;
import dev.wastecheck.model.schema.TypeParser;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The one DDL reader on the three kinds of script it meets, written here in their own forms:
 * MediaWiki's generated schema script, a MySQL 5.5 mysqldump with rows between its tables, and a
 * plain pg_dump that adds keys and indexes after the fact. (The real files of ../shared/data are
 * read in the real-data profile.)
 */
class DdlCatalogTest {
    /** MediaWiki's tables-generated.sql form: table prefix comments, a table named like a keyword, keys inside the table. */
    static final String MEDIAWIKI_SCRIPT = """
            -- This file is generated; see its source.
            CREATE TABLE /*_*/page (
              page_id INT UNSIGNED AUTO_INCREMENT NOT NULL,
              page_namespace INT NOT NULL,
              page_title VARBINARY(255) NOT NULL,
              page_random DOUBLE PRECISION UNSIGNED NOT NULL,
              page_touched BINARY(14) NOT NULL,
              page_len INT UNSIGNED NOT NULL,
              UNIQUE INDEX page_name_title (page_namespace, page_title),
              INDEX page_len (page_len),
              PRIMARY KEY(page_id)
            ) /*$wgDBTableOptions*/;


            CREATE TABLE /*_*/user (
              user_id INT UNSIGNED AUTO_INCREMENT NOT NULL,
              user_name VARBINARY(255) DEFAULT '' NOT NULL,
              user_email TINYTEXT NOT NULL,
              UNIQUE INDEX user_name (user_name),
              INDEX user_email (user_email(50)),
              PRIMARY KEY(user_id)
            ) /*$wgDBTableOptions*/;

            CREATE TABLE /*_*/slots (
              slot_revision_id BIGINT UNSIGNED NOT NULL,
              slot_role_id SMALLINT UNSIGNED NOT NULL,
              slot_content_id BIGINT UNSIGNED NOT NULL,
              PRIMARY KEY(slot_revision_id, slot_role_id)
            ) /*$wgDBTableOptions*/;
            """;

    @Test
    void mediaWikiSchemaScript() {
        DatabaseSchema s = DdlCatalog.parse(MEDIAWIKI_SCRIPT).schema();
        assertThat(s.tables()).extracting(TableDef::name).containsExactly("page", "user", "slots");
        TableDef page = s.table("PAGE").orElseThrow();
        assertThat(page.primaryKey()).containsExactly("page_id");
        assertThat(page.index("page_name_title"))
                .contains(new IndexDef("page_name_title", List.of("page_namespace", "page_title"), true));
        assertThat(page.column("page_random").orElseThrow().type().declared()).isEqualTo("DOUBLE PRECISION unsigned");
        assertThat(page.column("page_touched").orElseThrow().type().declared()).isEqualTo("BINARY(14)");
        assertThat(page.column("page_touched").orElseThrow().type().family()).isEqualTo(TypeFamily.BINARY);
        assertThat(page.column("page_id").orElseThrow().autoIncrement()).isTrue();
        assertThat(s.table("slots").orElseThrow().primaryKey()).containsExactly("slot_revision_id", "slot_role_id");
        // a prefix length is not part of the key's identity
        assertThat(s.table("user")
                        .orElseThrow()
                        .index("user_email")
                        .orElseThrow()
                        .columns())
                .containsExactly("user_email");
    }

    /**
     * The fuzzer's finding (DdlReaderFuzzTest, kept as its input): a type argument no engine takes,
     * such as {@code t(999...9)}, was a NumberFormatException out of the DDL reader, exit 1. The
     * type parser now refuses it, and the reader turns that into bad input naming file, line and
     * column.
     */
    @Test
    void aTypeArgumentBeyondAnyEnginesLimitIsRefusedNotACrash() {
        String huge = "9".repeat(125);
        assertThatThrownBy(() -> TypeParser.parse("varchar(" + huge + ")", Dialect.MYSQL))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("type argument 99999999999999999999... is beyond any engine's limit (2147483647)");
        assertThatThrownBy(() -> TypeParser.parse("decimal(10," + "3".repeat(11) + ")", Dialect.POSTGRESQL))
                .isInstanceOf(IllegalArgumentException.class);
        // the largest an engine takes still reads, leading zeros and all
        assertThat(TypeParser.parse("varchar(002147483647)", Dialect.MYSQL).length())
                .isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void theKeysATupleIsFoundThroughPutThePrimaryKeyFirst() {
        TableDef page =
                DdlCatalog.parse(MEDIAWIKI_SCRIPT).schema().table("page").orElseThrow();
        assertThat(page.allIndexes())
                .extracting(IndexDef::name)
                .containsExactly("PRIMARY", "page_name_title", "page_len");
        assertThat(page.uniqueKeys()).extracting(IndexDef::name).containsExactly("PRIMARY", "page_name_title");
        assertThat(page.index("primary").orElseThrow().columns()).containsExactly("page_id");
        assertThat(page.index("primary").orElseThrow().isPrimary()).isTrue();
    }

    /** A MySQL 5.5 mysqldump: backticks, display widths, conditional comments, and rows the reader passes over. */
    static final String MYSQL55_DUMP = """
            -- MySQL dump 10.13  Distrib 5.5.62, for Linux (x86_64)
            /*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;
            DROP TABLE IF EXISTS `page`;
            /*!40101 SET @saved_cs_client     = @@character_set_client */;
            CREATE TABLE `page` (
              `page_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
              `page_namespace` int(11) NOT NULL,
              `page_title` varbinary(255) NOT NULL,
              `page_touched` binary(14) NOT NULL DEFAULT '\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0\\0',
              `page_len` int(10) unsigned NOT NULL,
              `page_content_model` varbinary(32) DEFAULT NULL,
              PRIMARY KEY (`page_id`),
              UNIQUE KEY `name_title` (`page_namespace`,`page_title`),
              KEY `page_len` (`page_len`)
            ) ENGINE=InnoDB AUTO_INCREMENT=113 DEFAULT CHARSET=binary;
            LOCK TABLES `page` WRITE;
            INSERT INTO `page` VALUES (1,0,'Main_Page','20170101000000',735,'wikitext'),(2,0,'CREATE TABLE x (y int);','20170101000000',5,NULL);
            UNLOCK TABLES;
            CREATE TABLE `text` (
              `old_id` int(10) unsigned NOT NULL AUTO_INCREMENT,
              `old_text` mediumblob NOT NULL,
              PRIMARY KEY (`old_id`)
            ) ENGINE=InnoDB DEFAULT CHARSET=binary;
            """;

    @Test
    void mysql55MysqldumpWithRowsBetweenItsTables(@TempDir Path dir) throws IOException {
        Path dump = dir.resolve("dump.sql");
        Files.writeString(dump, MYSQL55_DUMP);
        DdlCatalog catalog = DdlCatalog.read(dump);
        assertThat(catalog.dialect()).isEqualTo(Dialect.MYSQL);
        assertThat(catalog.warnings()).isEmpty();
        TableDef page = catalog.schema().table("page").orElseThrow();
        assertThat(page.columnNames())
                .containsExactly(
                        "page_id", "page_namespace", "page_title", "page_touched", "page_len", "page_content_model");
        assertThat(page.column("page_id").orElseThrow().type().declared()).isEqualTo("int(10) unsigned");
        assertThat(page.column("page_id").orElseThrow().type().unsigned()).isTrue();
        assertThat(page.column("page_touched").orElseThrow().nullable()).isFalse();
        assertThat(page.column("page_content_model").orElseThrow().nullable()).isTrue();
        assertThat(page.uniqueKeys()).extracting(IndexDef::name).containsExactly("PRIMARY", "name_title");
        assertThat(page.origin()).isEqualTo(dump + ":5");
        assertThat(catalog.counters()).containsEntry("page.page_id", BigInteger.valueOf(113));
        assertThat(catalog.schema().tables()).extracting(TableDef::name).containsExactly("page", "text");
    }

    /** A plain pg_dump: schema-qualified names, an enum type, keys and indexes added after the rows. */
    static final String PG_DUMP = """
            --
            -- PostgreSQL database dump
            --
            SET search_path = public, pg_catalog;
            CREATE TYPE public.mpaa_rating AS ENUM (
                'G',
                'PG',
                'R'
            );
            CREATE TABLE public.film (
                film_id integer DEFAULT nextval('public.film_film_id_seq'::regclass) NOT NULL,
                title character varying(255) NOT NULL,
                rating public.mpaa_rating DEFAULT 'G'::public.mpaa_rating,
                last_update timestamp with time zone DEFAULT now() NOT NULL,
                special_features text[]
            );
            COPY public.film (film_id, title, rating, last_update, special_features) FROM stdin;
            1\tACADEMY DINOSAUR\tPG\t2022-09-10 16:46:03.905795+00\t{"Deleted Scenes"}
            \\.
            ALTER TABLE ONLY public.film
                ADD CONSTRAINT film_pkey PRIMARY KEY (film_id);
            CREATE INDEX idx_title ON public.film USING btree (title);
            """;

    @Test
    void plainPgDumpWithKeysAddedAfterTheRows() {
        DdlCatalog catalog = DdlCatalog.parse(PG_DUMP);
        assertThat(catalog.dialect()).isEqualTo(Dialect.POSTGRESQL);
        TableDef film = catalog.table("film");
        assertThat(film.primaryKey()).containsExactly("film_id");
        assertThat(film.column("film_id").orElseThrow().type().declared()).isEqualTo("integer");
        assertThat(film.column("film_id").orElseThrow().autoIncrement()).isTrue();
        assertThat(film.column("rating").orElseThrow().type().family()).isEqualTo(TypeFamily.ENUM);
        assertThat(film.column("rating").orElseThrow().type().enumValues()).containsExactly("G", "PG", "R");
        assertThat(film.column("special_features").orElseThrow().type().declared())
                .isEqualTo("text[]");
        assertThat(film.index("idx_title").orElseThrow().columns()).containsExactly("title");
        assertThat(catalog.schemaOf("film")).isEqualTo("public");
    }

    @Test
    void aCreateTableItCannotReadIsAWarningNotAFailure() {
        DdlCatalog catalog = DdlCatalog.parse(
                "CREATE TABLE t (id int PRIMARY KEY);\nCREATE TABLE broken (a int,, b);\n", Dialect.MYSQL);
        assertThat(catalog.tables()).containsOnlyKeys("t");
        assertThat(catalog.warnings()).singleElement().asString().startsWith("<ddl>:2: could not read CREATE TABLE");
    }

    @Test
    void aLiveCatalogsStatementsEndingInTheirSemicolonStillDefineEnumsAndDomains() {
        // what the live PostgreSQL source hands over: each statement whole, its semicolon included
        DdlCatalog c = new DdlCatalog(Dialect.POSTGRESQL);
        c.accept("CREATE TYPE orders_status_enum AS ENUM ('new', 'paid', 'shipped');", "live", 1);
        c.accept("CREATE DOMAIN year AS integer CONSTRAINT year_check CHECK (VALUE >= 1901);", "live", 2);
        c.accept(
                "CREATE TABLE orders (id integer NOT NULL, status public.orders_status_enum NOT NULL,"
                        + " y public.year);",
                "live",
                3);
        TableDef t = c.table("orders");
        assertThat(t.columns().get(1).type().family()).isEqualTo(TypeFamily.ENUM);
        assertThat(t.columns().get(1).type().enumValues()).containsExactly("new", "paid", "shipped");
        assertThat(t.columns().get(2).type().family()).isEqualTo(TypeFamily.INTEGER);
    }

    @Test
    void aPgDumpsCreateIndexKeepsItsMethodConditionIncludeAndExpressions() {
        DdlCatalog c = new DdlCatalog(Dialect.POSTGRESQL);
        c.accept("CREATE TABLE public.doc (id integer, body text, status text, at integer);", "d", 1);
        c.accept("CREATE INDEX doc_gin ON public.doc USING gin (body gin_trgm_ops);", "d", 2);
        c.accept(
                "CREATE INDEX doc_new ON public.doc USING btree (status) WHERE (status = 'new, or (old)'::text);",
                "d",
                3);
        c.accept("CREATE UNIQUE INDEX doc_at ON ONLY public.doc USING btree (at DESC) INCLUDE (body, status);", "d", 4);
        c.accept("CREATE INDEX doc_expr ON public.doc USING btree (lower(body), coalesce(status, 'x'::text));", "d", 5);
        TableDef t = c.table("doc");
        IndexDef gin = t.indexes().get(0);
        assertThat(gin.method()).isEqualTo("gin");
        assertThat(gin.columns()).containsExactly("body gin_trgm_ops");
        assertThat(gin.definition()).isEqualTo("CREATE INDEX doc_gin ON public.doc USING gin (body gin_trgm_ops)");
        IndexDef partial = t.indexes().get(1);
        assertThat(partial.method()).isEqualTo("btree");
        assertThat(partial.columns()).containsExactly("status");
        assertThat(partial.predicate()).isEqualTo("(status = 'new, or (old)'::text)");
        IndexDef covering = t.indexes().get(2);
        assertThat(covering.unique()).isTrue();
        assertThat(covering.columns()).containsExactly("at");
        assertThat(covering.include()).containsExactly("body", "status");
        assertThat(covering.predicate()).isNull();
        assertThat(t.indexes().get(3).columns()).containsExactly("lower(body)", "coalesce(status, 'x'::text)");
    }
}
