package dev.wastecheck.e2e;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * A generated order table, deterministic per seed, written as a real mysqldump (extended
 * INSERTs of about 1 MB, backslash escapes) and, row for row, as CSV. For tests of scale and
 * for the analyze benchmark, where the same rows must reach wastecheck and DuckDB.
 *
 * <p>The waste it holds, so tests know the answers: {@code order_id} INT auto-increment 1..N;
 * {@code customer_id} INT below 50,000; {@code status} VARCHAR holding 5 values; {@code amount}
 * DECIMAL(12,2) below 10,000; {@code created} binary(14) MediaWiki-style timestamps;
 * {@code quantity} BIGINT from 1 to 10; {@code country} CHAR(30) holding 2-letter codes;
 * {@code note} text with quotes and backslashes, NULL in a tenth of the rows; {@code flag} always 0.
 */
public final class SyntheticDump {
    static final String[] STATUS = {"new", "paid", "shipped", "delivered", "returned"};
    static final String[] COUNTRY = {"DE", "FR", "US", "GR", "JP", "BR", "IN", "NL"};
    static final String[] WORDS = {
        "gift",
        "wrap",
        "fragile",
        "it's",
        "\"urgent\"",
        "back\\slash",
        "tab\there",
        "leave",
        "at",
        "door",
        "call",
        "first",
        "ünïcödé",
        "line\nbreak"
    };

    private SyntheticDump() {}

    /** Rows needed for about {@code bytes} of dump. */
    public static long rowsFor(long bytes) {
        return Math.max(1, bytes / 94); // about 94 bytes a row in the mysqldump
    }

    public static void writeMysqldump(Path file, long rows, long seed) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            w(
                    out,
                    "-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)\n--\n-- Host: localhost    Database: shop\n"
                            + "/*!40101 SET @OLD_CHARACTER_SET_CLIENT=@@CHARACTER_SET_CLIENT */;\n/*!40101 SET NAMES utf8mb4 */;\n\n"
                            + "DROP TABLE IF EXISTS `orders`;\n/*!40101 SET @saved_cs_client     = @@character_set_client */;\n"
                            + "CREATE TABLE `orders` (\n  `order_id` int(11) NOT NULL AUTO_INCREMENT,\n  `customer_id` int(11) NOT NULL,\n"
                            + "  `status` varchar(20) NOT NULL,\n  `amount` decimal(12,2) NOT NULL,\n  `created` binary(14) NOT NULL,\n"
                            + "  `quantity` bigint(20) NOT NULL,\n  `country` char(30) NOT NULL,\n  `note` varchar(255) DEFAULT NULL,\n"
                            + "  `flag` int(11) NOT NULL DEFAULT '0',\n  PRIMARY KEY (`order_id`),\n  KEY `customer` (`customer_id`)\n"
                            + ") ENGINE=InnoDB AUTO_INCREMENT=" + (rows + 1) + " DEFAULT CHARSET=utf8mb4;\n\n"
                            + "LOCK TABLES `orders` WRITE;\n/*!40000 ALTER TABLE `orders` DISABLE KEYS */;\n");
            SplittableRandom rnd = new SplittableRandom(seed);
            StringBuilder sb = new StringBuilder(1 << 21);
            int inStatement = 0;
            for (long id = 1; id <= rows; id++) {
                Row r = Row.next(rnd, id);
                sb.append(inStatement == 0 ? "INSERT INTO `orders` VALUES (" : ",(");
                sb.append(r.id)
                        .append(',')
                        .append(r.customer)
                        .append(",'")
                        .append(r.status)
                        .append("',")
                        .append(r.amount)
                        .append(",'")
                        .append(r.created)
                        .append("',")
                        .append(r.quantity)
                        .append(",'")
                        .append(r.country)
                        .append("',");
                if (r.note == null) {
                    sb.append("NULL");
                } else {
                    sb.append('\'');
                    mysqlEscape(sb, r.note);
                    sb.append('\'');
                }
                sb.append(",0)");
                inStatement++;
                if (sb.length() > 1_000_000 || id == rows) {
                    sb.append(";\n");
                    w(out, sb);
                    sb.setLength(0);
                    inStatement = 0;
                }
            }
            w(out, "/*!40000 ALTER TABLE `orders` ENABLE KEYS */;\nUNLOCK TABLES;\n-- Dump completed\n");
        }
    }

    /** The same rows as a plain pg_dump writes them: the table, its rows as COPY text, its key added after them. */
    public static void writePgDump(Path file, long rows, long seed) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            w(
                    out,
                    "--\n-- PostgreSQL database dump\n--\n\nSET statement_timeout = 0;\nSET standard_conforming_strings = on;\n"
                            + "SELECT pg_catalog.set_config('search_path', '', false);\n\n"
                            + "CREATE TABLE public.orders (\n    order_id integer NOT NULL,\n    customer_id integer NOT NULL,\n"
                            + "    status character varying(20) NOT NULL,\n    amount numeric(12,2) NOT NULL,\n"
                            + "    created character varying(14) NOT NULL,\n    quantity bigint NOT NULL,\n"
                            + "    country character varying(30) NOT NULL,\n    note character varying(255),\n"
                            + "    flag integer DEFAULT 0 NOT NULL\n);\n\n"
                            + "COPY public.orders (order_id, customer_id, status, amount, created, quantity, country, note, flag) FROM stdin;\n");
            SplittableRandom rnd = new SplittableRandom(seed);
            StringBuilder sb = new StringBuilder(1 << 21);
            for (long id = 1; id <= rows; id++) {
                Row r = Row.next(rnd, id);
                sb.append(r.id)
                        .append('\t')
                        .append(r.customer)
                        .append('\t')
                        .append(r.status)
                        .append('\t')
                        .append(r.amount)
                        .append('\t')
                        .append(r.created)
                        .append('\t')
                        .append(r.quantity)
                        .append('\t')
                        .append(r.country)
                        .append('\t');
                if (r.note == null) {
                    sb.append("\\N");
                } else {
                    sb.append(r.note.replace("\\", "\\\\").replace("\t", "\\t").replace("\n", "\\n"));
                }
                sb.append("\t0\n");
                if (sb.length() > 1_000_000) {
                    w(out, sb);
                    sb.setLength(0);
                }
            }
            w(out, sb.append("\\.\n\n"));
            w(
                    out,
                    "ALTER TABLE ONLY public.orders\n    ADD CONSTRAINT orders_pkey PRIMARY KEY (order_id);\n\n"
                            + "--\n-- PostgreSQL database dump complete\n--\n");
        }
    }

    /** The same rows as SQLite's {@code .dump} writes them: bracket-free DDL, one INSERT per row, in a transaction. */
    public static void writeSqliteScript(Path file, long rows, long seed) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            w(out, "PRAGMA foreign_keys=OFF;\nBEGIN TRANSACTION;\n" + SQLITE_TABLE + ";\n");
            SplittableRandom rnd = new SplittableRandom(seed);
            StringBuilder sb = new StringBuilder(1 << 21);
            for (long id = 1; id <= rows; id++) {
                Row r = Row.next(rnd, id);
                sb.append("INSERT INTO orders VALUES(")
                        .append(r.id)
                        .append(',')
                        .append(r.customer)
                        .append(",'")
                        .append(r.status)
                        .append("',")
                        .append(r.amount)
                        .append(",'")
                        .append(r.created)
                        .append("',")
                        .append(r.quantity)
                        .append(",'")
                        .append(r.country)
                        .append("',")
                        .append(r.note == null ? "NULL" : "'" + r.note.replace("'", "''") + "'")
                        .append(",0);\n");
                if (sb.length() > 1_000_000) {
                    w(out, sb);
                    sb.setLength(0);
                }
            }
            w(out, sb.append("COMMIT;\n"));
        }
    }

    /** The same rows in a SQLite database file, written by SQLite itself (sqlite-jdbc). */
    public static void writeSqliteFile(Path file, long rows, long seed) throws java.sql.SQLException {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + file)) {
            try (java.sql.Statement st = c.createStatement()) {
                st.execute(SQLITE_TABLE);
            }
            c.setAutoCommit(false);
            try (java.sql.PreparedStatement ps =
                    c.prepareStatement("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0)")) {
                SplittableRandom rnd = new SplittableRandom(seed);
                for (long id = 1; id <= rows; id++) {
                    Row r = Row.next(rnd, id);
                    ps.setLong(1, r.id);
                    ps.setInt(2, r.customer);
                    ps.setString(3, r.status);
                    ps.setBigDecimal(4, new java.math.BigDecimal(r.amount));
                    ps.setString(5, r.created);
                    ps.setInt(6, r.quantity);
                    ps.setString(7, r.country);
                    ps.setString(8, r.note);
                    ps.addBatch();
                }
                ps.executeBatch();
            }
            c.commit();
        }
    }

    private static final String SQLITE_TABLE = "CREATE TABLE orders (order_id INTEGER PRIMARY KEY AUTOINCREMENT, "
            + "customer_id INTEGER NOT NULL, status TEXT NOT NULL, amount NUMERIC(12,2) NOT NULL, created TEXT NOT NULL, "
            + "quantity INTEGER NOT NULL, country TEXT NOT NULL, note TEXT, flag INTEGER NOT NULL DEFAULT 0)";

    public static void writeCsv(Path file, long rows, long seed) throws IOException {
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file), 1 << 20)) {
            w(out, "order_id,customer_id,status,amount,created,quantity,country,note,flag\n");
            SplittableRandom rnd = new SplittableRandom(seed);
            StringBuilder sb = new StringBuilder(1 << 21);
            for (long id = 1; id <= rows; id++) {
                Row r = Row.next(rnd, id);
                sb.append(r.id)
                        .append(',')
                        .append(r.customer)
                        .append(',')
                        .append(r.status)
                        .append(',')
                        .append(r.amount)
                        .append(',')
                        .append(r.created)
                        .append(',')
                        .append(r.quantity)
                        .append(',')
                        .append(r.country)
                        .append(',');
                if (r.note != null) {
                    sb.append('"').append(r.note.replace("\"", "\"\"")).append('"');
                }
                sb.append(",0\n");
                if (sb.length() > 1_000_000) {
                    w(out, sb);
                    sb.setLength(0);
                }
            }
            w(out, sb);
        }
    }

    private record Row(
            long id,
            int customer,
            String status,
            String amount,
            String created,
            int quantity,
            String country,
            String note) {
        static Row next(SplittableRandom rnd, long id) {
            int customer = 1 + rnd.nextInt(49_999);
            String status = STATUS[rnd.nextInt(STATUS.length)];
            long cents = rnd.nextLong(999_999);
            String amount = (cents / 100) + "." + (cents % 100 < 10 ? "0" : "") + (cents % 100);
            long t = 1_420_070_400L + rnd.nextLong(300_000_000L);
            java.time.LocalDateTime dt = java.time.LocalDateTime.ofEpochSecond(t, 0, java.time.ZoneOffset.UTC);
            char[] c = new char[14];
            digits(c, 0, dt.getYear(), 4);
            digits(c, 4, dt.getMonthValue(), 2);
            digits(c, 6, dt.getDayOfMonth(), 2);
            digits(c, 8, dt.getHour(), 2);
            digits(c, 10, dt.getMinute(), 2);
            digits(c, 12, dt.getSecond(), 2);
            String created = new String(c);
            int quantity = 1 + rnd.nextInt(10);
            String country = COUNTRY[rnd.nextInt(COUNTRY.length)];
            String note = null;
            if (rnd.nextInt(10) != 0) {
                StringBuilder n = new StringBuilder();
                int words = 1 + rnd.nextInt(6);
                for (int i = 0; i < words; i++) {
                    if (i > 0) {
                        n.append(' ');
                    }
                    n.append(WORDS[rnd.nextInt(WORDS.length)]);
                }
                note = n.toString();
            }
            return new Row(id, customer, status, amount, created, quantity, country, note);
        }
    }

    private static void digits(char[] c, int at, int value, int width) {
        for (int i = width - 1; i >= 0; i--) {
            c[at + i] = (char) ('0' + value % 10);
            value /= 10;
        }
    }

    private static void mysqlEscape(StringBuilder sb, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '\\' -> sb.append("\\\\");
                case '\'' -> sb.append("\\'");
                case '"' -> sb.append("\\\"");
                case '\n' -> sb.append("\\n");
                case '\t' -> sb.append("\\t");
                case '\0' -> sb.append("\\0");
                default -> sb.append(c);
            }
        }
    }

    private static void w(OutputStream out, CharSequence s) throws IOException {
        out.write(s.toString().getBytes(StandardCharsets.UTF_8));
    }

    /** {@code SyntheticDump DIR MEGABYTES [SEED]}: writes DIR/orders.sql and DIR/orders.csv. */
    public static void main(String[] args) throws IOException {
        Path dir = Path.of(args[0]);
        long rows = rowsFor(Long.parseLong(args[1]) << 20);
        long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
        Files.createDirectories(dir);
        writeMysqldump(dir.resolve("orders.sql"), rows, seed);
        writeCsv(dir.resolve("orders.csv"), rows, seed);
        System.out.println(rows);
    }
}
