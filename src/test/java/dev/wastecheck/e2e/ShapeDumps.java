package dev.wastecheck.e2e;

import java.io.BufferedWriter;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * Dumps of shapes other tools write, for {@code ./bench analyze} (docs/benchmarks.md, issue 32):
 * each as a mysqldump (extended INSERTs of about 1 MB, mysqldump's escaping and spelling) and,
 * with the same rows, as a CSV for DuckDB (NULL an empty field, RFC 4180 quoting).
 *
 * <ul>
 *   <li>{@code pandas}: one table as {@code DataFrame.to_sql} declares it (BIGINT, DOUBLE, TEXT):
 *       an index, whole-number doubles with NULLs (pandas' integers with NaN), prices, rates,
 *       counts, short codes, an ISO-8601 timestamp as text; 19 columns, narrow rows.
 *   <li>{@code orm}: a wide table as an ORM declares it: 44 columns, timestamps, flags, and
 *       mostly-NULL optional fields.
 *   <li>{@code text}: long UTF-8 text (titles, bodies of 200-3,000 characters with accents, CJK
 *       and emoji, quotes and commas).
 *   <li>{@code mediawiki}: a revision table with MediaWiki's BINARY(14) timestamps and base-36
 *       SHA-1 text.
 * </ul>
 */
final class ShapeDumps {
    static final List<String> SHAPES = List.of("pandas", "orm", "text", "mediawiki");

    private ShapeDumps() {}

    private interface Shape {
        String ddl();

        String table();

        List<String> columns();

        /** Row {@code i}'s values as SQL literals (NULL, numbers, or strings unescaped: quoted by the writer). */
        Object[] row(long i, SplittableRandom r);
    }

    /** Writes both files until the mysqldump holds about {@code bytes}; returns the rows. */
    static long write(String shape, long bytes, Path sql, Path csv) throws IOException {
        Shape s = switch (shape) {
            case "pandas" -> PANDAS;
            case "orm" -> ORM;
            case "text" -> TEXT;
            case "mediawiki" -> MEDIAWIKI;
            default -> throw new IllegalArgumentException("no shape " + shape + "; shapes: " + SHAPES);
        };
        SplittableRandom r = new SplittableRandom(42);
        long rows = 0;
        long written = 0;
        try (Writer out = new BufferedWriter(Files.newBufferedWriter(sql, StandardCharsets.UTF_8), 1 << 20);
                Writer c = new BufferedWriter(Files.newBufferedWriter(csv, StandardCharsets.UTF_8), 1 << 20)) {
            String head =
                    "-- MySQL dump 10.13  Distrib 8.0.36, for Linux (x86_64)\n--\n-- Host: localhost    Database: bench\n"
                            + "-- ------------------------------------------------------\n/*!40101 SET NAMES utf8mb4 */;\n\n"
                            + "DROP TABLE IF EXISTS `" + s.table() + "`;\n" + s.ddl() + "\n\nLOCK TABLES `" + s.table()
                            + "` WRITE;\n";
            out.write(head);
            written += head.length();
            c.write(String.join(",", s.columns()));
            c.write('\n');
            StringBuilder stmt = new StringBuilder(1 << 21);
            StringBuilder line = new StringBuilder(1 << 12);
            while (written < bytes) {
                stmt.setLength(0);
                stmt.append("INSERT INTO `").append(s.table()).append("` VALUES ");
                boolean first = true;
                while (stmt.length() < 1_000_000 && written + stmt.length() < bytes) {
                    Object[] v = s.row(rows, r);
                    stmt.append(first ? "(" : ",(");
                    first = false;
                    line.setLength(0);
                    for (int k = 0; k < v.length; k++) {
                        if (k > 0) {
                            stmt.append(',');
                            line.append(',');
                        }
                        sqlValue(stmt, v[k]);
                        csvValue(line, v[k]);
                    }
                    stmt.append(')');
                    c.append(line).append('\n');
                    rows++;
                }
                stmt.append(";\n");
                out.append(stmt);
                written += stmt.length();
            }
            out.write("UNLOCK TABLES;\n");
        }
        return rows;
    }

    private static void sqlValue(StringBuilder b, Object v) {
        if (v == null) {
            b.append("NULL");
        } else if (v instanceof String s) {
            b.append('\'');
            for (int i = 0; i < s.length(); i++) {
                char ch = s.charAt(i);
                switch (ch) {
                    case '\'' -> b.append("\\'");
                    case '\\' -> b.append("\\\\");
                    case '\n' -> b.append("\\n");
                    default -> b.append(ch);
                }
            }
            b.append('\'');
        } else {
            b.append(v);
        }
    }

    private static void csvValue(StringBuilder b, Object v) {
        if (v == null) {
            return;
        }
        String s = v.toString();
        if (v instanceof String && (s.indexOf(',') >= 0 || s.indexOf('"') >= 0 || s.indexOf('\n') >= 0)) {
            b.append('"').append(s.replace("\"", "\"\"")).append('"');
        } else {
            b.append(s);
        }
    }

    /** A double as mysqldump prints it: the shortest text that reads back, no trailing ".0". */
    private static Object dbl(double d) {
        String s = Double.toString(d);
        if (s.endsWith(".0")) {
            s = s.substring(0, s.length() - 2);
        }
        return new Num(s);
    }

    private record Num(String text) {
        @Override
        public String toString() {
            return text;
        }
    }

    private static String iso(long seconds) {
        return java.time.Instant.ofEpochSecond(seconds).toString(); // 2013-01-01T10:00:00Z
    }

    private static String datetime(long seconds) {
        return iso(seconds).replace('T', ' ').replace("Z", "");
    }

    private static final String[] CODES = {"AA", "AB", "BC", "CD", "DX", "EU", "US", "JP", "CN", "GB", "FR", "DE"};
    private static final String[] STATUS = {"new", "open", "done", "void"};

    static final Shape PANDAS = new Shape() {
        final List<String> cols = List.of(
                "index",
                "user_id",
                "qty",
                "price",
                "rate",
                "score",
                "weight",
                "discount",
                "visits",
                "clicks",
                "orders",
                "region",
                "country",
                "status",
                "channel",
                "segment",
                "created_at",
                "name",
                "flag");

        @Override
        public String table() {
            return "df";
        }

        @Override
        public List<String> columns() {
            return cols;
        }

        @Override
        public String ddl() {
            StringBuilder b = new StringBuilder("CREATE TABLE `df` (\n");
            String[] types = {
                "bigint", "bigint", "double", "double", "double", "double", "double", "double", "bigint", "bigint",
                "bigint", "text", "text", "text", "text", "text", "text", "text", "bigint"
            };
            for (int i = 0; i < cols.size(); i++) {
                b.append("  `")
                        .append(cols.get(i))
                        .append("` ")
                        .append(types[i])
                        .append(" DEFAULT NULL,\n");
            }
            return b.append("  KEY `ix_df_index` (`index`)\n) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;")
                    .toString();
        }

        @Override
        public Object[] row(long i, SplittableRandom r) {
            return new Object[] {
                i,
                1 + r.nextInt(200_000),
                r.nextInt(10) < 2 ? null : dbl(1 + r.nextInt(2400)), // pandas' integers with NaN
                dbl(Math.round(r.nextDouble() * 100_000) / 100.0),
                r.nextInt(10) < 3 ? null : dbl(r.nextDouble()),
                dbl(r.nextGaussian() * 10),
                r.nextInt(10) < 1 ? null : dbl(Math.round(r.nextDouble() * 5000) / 10.0),
                r.nextInt(10) < 6 ? null : dbl(r.nextInt(4) * 0.05),
                r.nextInt(1000),
                r.nextInt(50),
                r.nextInt(8),
                CODES[r.nextInt(5)],
                CODES[r.nextInt(CODES.length)],
                STATUS[r.nextInt(STATUS.length)],
                r.nextInt(10) < 2 ? null : "ch" + r.nextInt(6),
                "s" + r.nextInt(3),
                iso(1_356_998_400L + i * 37 + r.nextInt(30)),
                "user" + r.nextInt(50_000),
                r.nextInt(2)
            };
        }
    };

    static final Shape ORM = new Shape() {
        static final int STRINGS = 20;
        static final int INTS = 10;

        @Override
        public String table() {
            return "accounts";
        }

        @Override
        public List<String> columns() {
            List<String> c = new java.util.ArrayList<>(List.of("id", "created_at", "updated_at", "deleted_at"));
            for (int i = 0; i < STRINGS; i++) {
                c.add("field_" + i);
            }
            for (int i = 0; i < INTS; i++) {
                c.add("count_" + i);
            }
            for (int i = 0; i < 5; i++) {
                c.add("is_" + i);
            }
            for (int i = 0; i < 4; i++) {
                c.add("amount_" + i);
            }
            c.add("version");
            return c;
        }

        @Override
        public String ddl() {
            StringBuilder b = new StringBuilder("CREATE TABLE `accounts` (\n  `id` bigint NOT NULL AUTO_INCREMENT,\n"
                    + "  `created_at` datetime(6) NOT NULL,\n  `updated_at` datetime(6) NOT NULL,\n"
                    + "  `deleted_at` datetime(6) DEFAULT NULL,\n");
            for (int i = 0; i < STRINGS; i++) {
                b.append("  `field_").append(i).append("` varchar(255) DEFAULT NULL,\n");
            }
            for (int i = 0; i < INTS; i++) {
                b.append("  `count_").append(i).append("` int DEFAULT NULL,\n");
            }
            for (int i = 0; i < 5; i++) {
                b.append("  `is_").append(i).append("` tinyint(1) NOT NULL DEFAULT '0',\n");
            }
            for (int i = 0; i < 4; i++) {
                b.append("  `amount_").append(i).append("` decimal(10,2) DEFAULT NULL,\n");
            }
            return b.append("  `version` int NOT NULL DEFAULT '0',\n  PRIMARY KEY (`id`)\n")
                    .append(") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;")
                    .toString();
        }

        @Override
        public Object[] row(long i, SplittableRandom r) {
            Object[] v = new Object[4 + STRINGS + INTS + 5 + 4 + 1];
            long t = 1_600_000_000L + i * 11;
            v[0] = i + 1;
            v[1] = datetime(t) + ".000000";
            v[2] = datetime(t + r.nextInt(100_000)) + "." + String.format(Locale.ROOT, "%06d", r.nextInt(1_000_000));
            v[3] = r.nextInt(50) == 0 ? datetime(t + 200_000) + ".000000" : null;
            int k = 4;
            for (int s = 0; s < STRINGS; s++) {
                v[k++] = r.nextInt(10) < 8 ? null : "value " + s + "-" + r.nextInt(1000);
            }
            for (int s = 0; s < INTS; s++) {
                v[k++] = r.nextInt(10) < 7 ? null : r.nextInt(500);
            }
            for (int s = 0; s < 5; s++) {
                v[k++] = r.nextInt(10) < 8 ? 0 : 1;
            }
            for (int s = 0; s < 4; s++) {
                v[k++] = r.nextInt(10) < 8
                        ? null
                        : new Num(r.nextInt(100_000) + "." + String.format("%02d", r.nextInt(100)));
            }
            v[k] = r.nextInt(3);
            return v;
        }
    };

    private static final String[] WORDS = {
        "données",
        "naïve",
        "Straße",
        "über",
        "东京",
        "データ",
        "😀",
        "quick",
        "brown",
        "fox",
        "jumps",
        "over",
        "the",
        "lazy",
        "dog",
        "\"quoted\"",
        "comma,",
        "it's",
        "résumé",
        "café",
        "Москва",
        "λόγος",
        "emoji🎉",
        "table",
        "row"
    };

    static final Shape TEXT = new Shape() {
        @Override
        public String table() {
            return "posts";
        }

        @Override
        public List<String> columns() {
            return List.of("id", "title", "body", "lang");
        }

        @Override
        public String ddl() {
            return "CREATE TABLE `posts` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `title` varchar(255) NOT NULL,\n"
                    + "  `body` mediumtext NOT NULL,\n  `lang` char(2) NOT NULL,\n  PRIMARY KEY (`id`)\n"
                    + ") ENGINE=InnoDB DEFAULT CHARSET=utf8mb4;";
        }

        private String words(SplittableRandom r, int chars) {
            StringBuilder b = new StringBuilder(chars + 16);
            while (b.length() < chars) {
                if (b.length() > 0) {
                    b.append(' ');
                }
                b.append(WORDS[r.nextInt(WORDS.length)]);
            }
            return b.toString();
        }

        @Override
        public Object[] row(long i, SplittableRandom r) {
            return new Object[] {
                i + 1,
                words(r, 20 + r.nextInt(60)),
                words(r, 200 + r.nextInt(2800)),
                new String[] {"en", "fr", "de", "ja"}[r.nextInt(4)]
            };
        }
    };

    static final Shape MEDIAWIKI = new Shape() {
        @Override
        public String table() {
            return "revision";
        }

        @Override
        public List<String> columns() {
            return List.of(
                    "rev_id",
                    "rev_page",
                    "rev_comment_id",
                    "rev_actor",
                    "rev_timestamp",
                    "rev_minor_edit",
                    "rev_deleted",
                    "rev_len",
                    "rev_parent_id",
                    "rev_sha1");
        }

        @Override
        public String ddl() {
            return "CREATE TABLE `revision` (\n  `rev_id` int unsigned NOT NULL AUTO_INCREMENT,\n"
                    + "  `rev_page` int unsigned NOT NULL,\n  `rev_comment_id` bigint unsigned NOT NULL DEFAULT '0',\n"
                    + "  `rev_actor` bigint unsigned NOT NULL DEFAULT '0',\n  `rev_timestamp` binary(14) NOT NULL,\n"
                    + "  `rev_minor_edit` tinyint unsigned NOT NULL DEFAULT '0',\n"
                    + "  `rev_deleted` tinyint unsigned NOT NULL DEFAULT '0',\n  `rev_len` int unsigned DEFAULT NULL,\n"
                    + "  `rev_parent_id` int unsigned DEFAULT NULL,\n  `rev_sha1` varbinary(32) NOT NULL,\n"
                    + "  PRIMARY KEY (`rev_id`),\n  KEY `rev_timestamp` (`rev_timestamp`)\n"
                    + ") ENGINE=InnoDB DEFAULT CHARSET=binary;";
        }

        @Override
        public Object[] row(long i, SplittableRandom r) {
            String ts = datetime(1_100_000_000L + i * 13 + r.nextInt(13)).replaceAll("[^0-9]", "");
            StringBuilder sha = new StringBuilder(31);
            for (int k = 0; k < 31; k++) {
                sha.append(Character.forDigit(r.nextInt(36), 36));
            }
            return new Object[] {
                i + 1,
                1 + r.nextInt(100_000),
                1 + r.nextInt(1_000_000),
                1 + r.nextInt(50_000),
                ts,
                r.nextInt(4) == 0 ? 1 : 0,
                0,
                r.nextInt(100) == 0 ? null : r.nextInt(200_000),
                i == 0 ? 0 : Math.max(0, i - r.nextInt(1000)),
                sha.toString()
            };
        }
    };
}
