package dev.wastecheck.model.ddl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.RealData;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.IndexDef;
import dev.wastecheck.model.schema.TableDef;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Table definitions read from real DDL of three kinds: MediaWiki's schema script, a MySQL 5.5 mysqldump, a plain pg_dump. */
@Tag("real-data")
class DdlCatalogRealScriptsTest {
    @Test
    void mediaWikiSchemaScript() throws IOException {
        DatabaseSchema s = DdlCatalog.read(RealData.file("mediawiki-schema/tables-generated.sql"))
                .schema();
        assertThat(s.tables()).hasSize(61);
        TableDef page = s.table("page").orElseThrow();
        assertThat(page.primaryKey()).containsExactly("page_id");
        assertThat(page.index("page_name_title"))
                .contains(new IndexDef("page_name_title", List.of("page_namespace", "page_title"), true));
        assertThat(page.column("page_random").orElseThrow().type().declared()).isEqualTo("DOUBLE PRECISION unsigned");
        assertThat(page.column("page_touched").orElseThrow().type().declared()).isEqualTo("BINARY(14)");
        assertThat(s.table("slots").orElseThrow().primaryKey()).containsExactly("slot_revision_id", "slot_role_id");
        assertThat(s.table("user")
                        .orElseThrow()
                        .index("user_email")
                        .orElseThrow()
                        .columns())
                .containsExactly("user_email");
    }

    @Test
    void mysql55Mysqldump() throws IOException {
        DatabaseSchema s = DdlCatalog.read(RealData.file("mediawiki-smw-2017-dump/my_wiki_page.sql"))
                .schema();
        TableDef page = s.table("page").orElseThrow();
        assertThat(page.columnNames()).hasSize(13).startsWith("page_id", "page_namespace", "page_title");
        assertThat(page.column("page_id").orElseThrow().type().declared()).isEqualTo("int(10) unsigned");
        assertThat(page.column("page_touched").orElseThrow().nullable()).isFalse();
        assertThat(page.column("page_content_model").orElseThrow().nullable()).isTrue();
        assertThat(page.uniqueKeys()).extracting(IndexDef::name).containsExactly("PRIMARY", "name_title");
    }

    @Test
    void plainPgDump() throws IOException {
        DatabaseSchema s = DdlCatalog.read(RealData.file("pagila-pgdump/pagila-schema.sql"))
                .schema();
        TableDef actor = s.table("actor").orElseThrow();
        assertThat(actor.primaryKey()).containsExactly("actor_id");
        assertThat(actor.column("actor_id").orElseThrow().type().declared()).isEqualTo("integer");
        assertThat(actor.index("idx_actor_last_name").orElseThrow().columns()).containsExactly("last_name");
        assertThat(s.table("customer")
                        .orElseThrow()
                        .column("activebool")
                        .orElseThrow()
                        .type()
                        .declared())
                .isEqualTo("boolean");
    }
}
