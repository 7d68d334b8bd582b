package dev.wastecheck.e2e;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A small shop, as a mysqldump and as a pg_dump-style script with the same rows: customers and
 * their orders, joined by a foreign key, with columns tune narrows in each way a live database
 * can outgrow: BIGINT keys holding a few thousand ids, a status with three values (an ENUM), a
 * weight in whole kilograms kept in a DOUBLE, and a ratio written as text with two decimals.
 */
final class GuardFixture {
    static final int CUSTOMERS = 1200;
    static final int ORDERS = 3000;
    static final String[] STATUS = {"open", "closed", "pending"};

    private GuardFixture() {}

    private static String ratio(int i) {
        return String.format(Locale.ROOT, "%d.%08d", i % 7, (i * 7919L) % 100_000_000L);
    }

    private static String placed(int i) {
        return String.format(Locale.ROOT, "2020-%02d-%02d %02d:%02d:00", 1 + i % 12, 1 + i % 28, i % 24, i % 60);
    }

    static Path mysql(Path dir) throws IOException {
        StringBuilder sql = new StringBuilder("""
                CREATE TABLE `customer` (
                  `customer_id` bigint NOT NULL AUTO_INCREMENT,
                  `name` varchar(40) NOT NULL,
                  PRIMARY KEY (`customer_id`)
                ) ENGINE=InnoDB AUTO_INCREMENT=1201 DEFAULT CHARSET=utf8mb4;
                CREATE TABLE `orders` (
                  `order_id` bigint NOT NULL AUTO_INCREMENT,
                  `customer_id` bigint NOT NULL,
                  `status` varchar(10) NOT NULL,
                  `weight` double NOT NULL,
                  `ratio` varchar(12) NOT NULL,
                  `placed` datetime NOT NULL,
                  PRIMARY KEY (`order_id`),
                  KEY `customer_id` (`customer_id`),
                  CONSTRAINT `fk_orders_customer` FOREIGN KEY (`customer_id`) REFERENCES `customer` (`customer_id`) ON DELETE CASCADE
                ) ENGINE=InnoDB AUTO_INCREMENT=3001 DEFAULT CHARSET=utf8mb4;
                """);
        rows(sql, '`');
        Path p = dir.resolve("shop-mysql.sql");
        Files.writeString(p, sql, StandardCharsets.UTF_8);
        return p;
    }

    static Path postgres(Path dir) throws IOException {
        StringBuilder sql = new StringBuilder("""
                CREATE TABLE customer (
                    customer_id bigint NOT NULL PRIMARY KEY,
                    name character varying(40) NOT NULL
                );
                CREATE TABLE orders (
                    order_id bigint NOT NULL PRIMARY KEY,
                    customer_id bigint NOT NULL REFERENCES customer (customer_id) ON DELETE CASCADE,
                    status character varying(10) NOT NULL,
                    weight double precision NOT NULL,
                    ratio character varying(12) NOT NULL,
                    placed timestamp without time zone NOT NULL
                );
                """);
        rows(sql, '"');
        sql.append(
                "CREATE VIEW heavy_orders AS SELECT order_id, customer_id, placed FROM orders WHERE customer_id > 100;\n");
        Path p = dir.resolve("shop-pg.sql");
        Files.writeString(p, sql, StandardCharsets.UTF_8);
        return p;
    }

    private static void rows(StringBuilder sql, char q) {
        sql.append("INSERT INTO ").append(q).append("customer").append(q).append(" VALUES ");
        for (int i = 1; i <= CUSTOMERS; i++) {
            sql.append(i == 1 ? "" : ",")
                    .append('(')
                    .append(i)
                    .append(",'Customer ")
                    .append(i)
                    .append("')");
        }
        sql.append(";\n");
        for (int i = 1; i <= ORDERS; i++) {
            if (i % 500 == 1) {
                sql.append("INSERT INTO ").append(q).append("orders").append(q).append(" VALUES ");
            }
            sql.append(i % 500 == 1 ? "" : ",")
                    .append('(')
                    .append(i)
                    .append(',')
                    .append(1 + i % CUSTOMERS)
                    .append(",'")
                    .append(STATUS[i % 3])
                    .append("',")
                    .append(1 + i % 50)
                    .append(",'")
                    .append(ratio(i))
                    .append("','")
                    .append(placed(i))
                    .append("')");
            if (i % 500 == 0) {
                sql.append(";\n");
            }
        }
    }
}
