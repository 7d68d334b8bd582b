package dev.wastecheck.model.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class NamesTest {
    @Test
    void quotesOfEveryDialectComeOff() {
        assertThat(Names.unquote("`page`")).isEqualTo("page");
        assertThat(Names.unquote(" \"Order Lines\" ")).isEqualTo("Order Lines");
        assertThat(Names.unquote("[Invoice]")).isEqualTo("Invoice");
        assertThat(Names.unquote("plain")).isEqualTo("plain");
        // a doubled quote inside a quoted name is one quote
        assertThat(Names.unquote("\"say \"\"hi\"\"\"")).isEqualTo("say \"hi\"");
        assertThat(Names.unquote("`a``b`")).isEqualTo("a`b");
    }

    @Test
    void aQualifiedNameLosesItsSchemaButNotADotInsideQuotes() {
        assertThat(Names.simpleName("`my_wiki`.`page`")).isEqualTo("page");
        assertThat(Names.simpleName("public.\"film.v2\"")).isEqualTo("film.v2");
        assertThat(Names.simpleName("[dbo].[Invoice]")).isEqualTo("Invoice");
        assertThat(Names.simpleName("actor")).isEqualTo("actor");
    }

    @Test
    void aScriptsDialectIsToldFromItsHead() {
        assertThat(Dialect.ofScript("-- mysqldump 10.13\ncreate table `t` (id int unsigned) engine=innodb;"))
                .isEqualTo(Dialect.MYSQL);
        assertThat(Dialect.ofScript("-- postgresql database dump\ncopy public.t (id) from stdin;"))
                .isEqualTo(Dialect.POSTGRESQL);
        assertThat(Dialect.ofScript("pragma foreign_keys=off;\nbegin transaction;\ncreate table [t] (id integer);"))
                .isEqualTo(Dialect.SQLITE);
        assertThat(Dialect.ofScript("create table t (id int);")).isEqualTo(Dialect.MYSQL);
    }
}
