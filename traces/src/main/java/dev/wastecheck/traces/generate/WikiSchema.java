package dev.wastecheck.traces.generate;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.Dialect;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The tables the generator writes, as MediaWiki declares them (sql/mysql/tables-generated.sql,
 * wikimedia/mediawiki@0374807), in the form mysqldump of MySQL 8 prints them: backticks, {@code
 * binary(14)} timestamps, {@code int unsigned}, {@code varbinary(255)} titles. The unique index on
 * {@code page(page_namespace, page_title)} keeps its historical name {@code name_title} (MediaWiki
 * up to 1.35; later schemas call it {@code page_name_title}).
 *
 * <p>Since MediaWiki 1.31 a revision reaches its text through {@code slots} and {@code content}
 * ({@code content_address = 'tt:<old_id>'}); the generator writes both, so a page view issues the
 * same chain of lookups a real wiki does.
 */
public final class WikiSchema {
    private WikiSchema() {}

    /** CREATE TABLE statements in dump order (mysqldump sorts tables by name). */
    public static final Map<String, String> CREATE_TABLES = new LinkedHashMap<>();

    static {
        CREATE_TABLES.put("actor", """
                CREATE TABLE `actor` (
                  `actor_id` bigint unsigned NOT NULL AUTO_INCREMENT,
                  `actor_user` int unsigned DEFAULT NULL,
                  `actor_name` varbinary(255) NOT NULL,
                  PRIMARY KEY (`actor_id`),
                  UNIQUE KEY `actor_user` (`actor_user`),
                  UNIQUE KEY `actor_name` (`actor_name`)
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
        CREATE_TABLES.put("comment", """
                CREATE TABLE `comment` (
                  `comment_id` bigint unsigned NOT NULL AUTO_INCREMENT,
                  `comment_hash` int NOT NULL,
                  `comment_text` blob NOT NULL,
                  `comment_data` blob,
                  PRIMARY KEY (`comment_id`),
                  KEY `comment_hash` (`comment_hash`)
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
        CREATE_TABLES.put("content", """
                CREATE TABLE `content` (
                  `content_id` bigint unsigned NOT NULL AUTO_INCREMENT,
                  `content_size` int unsigned NOT NULL,
                  `content_sha1` varbinary(32) NOT NULL,
                  `content_model` smallint unsigned NOT NULL,
                  `content_address` varbinary(255) NOT NULL,
                  PRIMARY KEY (`content_id`)
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
        CREATE_TABLES.put("page", """
                CREATE TABLE `page` (
                  `page_id` int unsigned NOT NULL AUTO_INCREMENT,
                  `page_namespace` int NOT NULL,
                  `page_title` varbinary(255) NOT NULL,
                  `page_is_redirect` tinyint unsigned NOT NULL DEFAULT '0',
                  `page_is_new` tinyint unsigned NOT NULL DEFAULT '0',
                  `page_random` double unsigned NOT NULL,
                  `page_touched` binary(14) NOT NULL,
                  `page_links_updated` binary(14) DEFAULT NULL,
                  `page_latest` int unsigned NOT NULL,
                  `page_len` int unsigned NOT NULL,
                  `page_content_model` varbinary(32) DEFAULT NULL,
                  `page_lang` varbinary(35) DEFAULT NULL,
                  PRIMARY KEY (`page_id`),
                  UNIQUE KEY `name_title` (`page_namespace`,`page_title`),
                  KEY `page_random` (`page_random`),
                  KEY `page_len` (`page_len`),
                  KEY `page_redirect_namespace_len` (`page_is_redirect`,`page_namespace`,`page_len`)
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
        CREATE_TABLES.put("revision", """
                CREATE TABLE `revision` (
                  `rev_id` bigint unsigned NOT NULL AUTO_INCREMENT,
                  `rev_page` int unsigned NOT NULL,
                  `rev_comment_id` bigint unsigned NOT NULL,
                  `rev_actor` bigint unsigned NOT NULL,
                  `rev_timestamp` binary(14) NOT NULL,
                  `rev_minor_edit` tinyint unsigned NOT NULL DEFAULT '0',
                  `rev_deleted` tinyint unsigned NOT NULL DEFAULT '0',
                  `rev_len` int unsigned DEFAULT NULL,
                  `rev_parent_id` bigint unsigned DEFAULT NULL,
                  `rev_sha1` varbinary(32) NOT NULL DEFAULT '',
                  PRIMARY KEY (`rev_id`),
                  KEY `rev_timestamp` (`rev_timestamp`),
                  KEY `rev_page_timestamp` (`rev_page`,`rev_timestamp`),
                  KEY `rev_actor_timestamp` (`rev_actor`,`rev_timestamp`,`rev_id`),
                  KEY `rev_page_actor_timestamp` (`rev_page`,`rev_actor`,`rev_timestamp`)
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
        CREATE_TABLES.put("slots", """
                CREATE TABLE `slots` (
                  `slot_revision_id` bigint unsigned NOT NULL,
                  `slot_role_id` smallint unsigned NOT NULL,
                  `slot_content_id` bigint unsigned NOT NULL,
                  `slot_origin` bigint unsigned NOT NULL,
                  PRIMARY KEY (`slot_revision_id`,`slot_role_id`),
                  KEY `slot_revision_origin_role` (`slot_revision_id`,`slot_origin`,`slot_role_id`)
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
        CREATE_TABLES.put("text", """
                CREATE TABLE `text` (
                  `old_id` int unsigned NOT NULL AUTO_INCREMENT,
                  `old_text` mediumblob NOT NULL,
                  `old_flags` tinyblob NOT NULL,
                  PRIMARY KEY (`old_id`)
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
        CREATE_TABLES.put("user", """
                CREATE TABLE `user` (
                  `user_id` int unsigned NOT NULL AUTO_INCREMENT,
                  `user_name` varbinary(255) NOT NULL DEFAULT '',
                  `user_real_name` varbinary(255) NOT NULL DEFAULT '',
                  `user_password` tinyblob NOT NULL,
                  `user_newpassword` tinyblob NOT NULL,
                  `user_newpass_time` binary(14) DEFAULT NULL,
                  `user_email` tinytext NOT NULL,
                  `user_touched` binary(14) NOT NULL,
                  `user_token` binary(32) NOT NULL DEFAULT '',
                  `user_email_authenticated` binary(14) DEFAULT NULL,
                  `user_email_token` binary(32) DEFAULT NULL,
                  `user_email_token_expires` binary(14) DEFAULT NULL,
                  `user_registration` binary(14) DEFAULT NULL,
                  `user_editcount` int unsigned DEFAULT NULL,
                  `user_password_expires` varbinary(14) DEFAULT NULL,
                  `user_is_temp` tinyint(1) NOT NULL DEFAULT '0',
                  PRIMARY KEY (`user_id`),
                  UNIQUE KEY `user_name` (`user_name`),
                  KEY `user_email_token` (`user_email_token`),
                  KEY `user_email` (`user_email`(50))
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
        CREATE_TABLES.put("watchlist", """
                CREATE TABLE `watchlist` (
                  `wl_id` int unsigned NOT NULL AUTO_INCREMENT,
                  `wl_user` int unsigned NOT NULL,
                  `wl_namespace` int NOT NULL DEFAULT '0',
                  `wl_title` varbinary(255) NOT NULL DEFAULT '',
                  `wl_notificationtimestamp` binary(14) DEFAULT NULL,
                  PRIMARY KEY (`wl_id`),
                  UNIQUE KEY `wl_user` (`wl_user`,`wl_namespace`,`wl_title`),
                  KEY `wl_namespace_title` (`wl_namespace`,`wl_title`),
                  KEY `wl_user_notificationtimestamp` (`wl_user`,`wl_notificationtimestamp`)
                ) ENGINE=InnoDB DEFAULT CHARSET=binary""");
    }

    /** The schema of the generated database, for resolving its trace. */
    public static DatabaseSchema schema() {
        DdlCatalog catalog = new DdlCatalog(Dialect.MYSQL);
        CREATE_TABLES.forEach((table, ddl) -> catalog.accept(ddl, "WikiSchema." + table, 1));
        if (!catalog.warnings().isEmpty()) {
            throw new IllegalStateException("the generator's own DDL does not read: " + catalog.warnings());
        }
        return catalog.schema();
    }
}
