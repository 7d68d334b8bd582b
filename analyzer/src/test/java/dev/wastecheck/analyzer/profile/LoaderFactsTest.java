package dev.wastecheck.analyzer.profile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.model.sql.SqlScriptReader;
import dev.wastecheck.sources.load.ColumnFacts;
import dev.wastecheck.sources.load.DumpLoader;
import dev.wastecheck.sources.load.LoadStats;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingDatabase;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The lengths and bounds the loader counts while filling Arrow ({@link ColumnFacts}) stand in for
 * the profile's SQL: on hostile values (multi-byte text cut at 60 characters, bytes that are not
 * UTF-8, null markers as text and as bytes, trailing spaces, long values, defaults of omitted
 * columns, a table's rows over several INSERT runs), every field of every column's profile is
 * the same as the one DuckDB computes from the loaded table.
 */
class LoaderFactsTest {
    private static final String[] PIECES = {
        "a",
        "B",
        "z",
        " ",
        "  ",
        "0",
        "9",
        "-",
        ".",
        "é",
        "ü",
        "日本",
        "€",
        "😀",
        "\\\\",
        "\\'",
        "\\n",
        "\\t",
        "NA",
        "NULL",
        "null",
        "\\\\N",
        "None",
        "nan",
        "NaN",
        "N/A",
        "x".repeat(70),
        "ä".repeat(65),
        ",",
        "(",
        ")",
        ";"
    };

    @Test
    void hostileTextAndBytesProfileAlikeFromFactsAndFromSql() throws Exception {
        Random r = new Random(20261127);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(
                dump,
                "CREATE TABLE `t` (\n  `id` int NOT NULL AUTO_INCREMENT,\n  `name` varchar(300) DEFAULT 'NA',\n"
                        + "  `code` char(8) DEFAULT NULL,\n  `raw` varbinary(300) DEFAULT NULL,\n"
                        + "  `price` decimal(10,2) DEFAULT NULL,\n  `day` date DEFAULT NULL,\n"
                        + "  `big` bigint unsigned DEFAULT NULL,\n  `never` varchar(10) DEFAULT NULL,\n"
                        + "  PRIMARY KEY (`id`)\n);\n");
        for (int run = 0; run < 3; run++) {
            // runs of one table split by another table's DDL: the loader appends them
            write(dump, "INSERT INTO `t` VALUES ");
            for (int row = 0; row < 400; row++) {
                write(
                        dump,
                        (row > 0 ? "," : "") + "(" + (run * 1000 + row) + "," + text(r) + "," + code(r) + "," + bytes(r)
                                + "," + price(r) + "," + day(r) + "," + big(r) + ",NULL)");
            }
            write(dump, ";\n");
            // a column list that leaves name to its DEFAULT and id to AUTO_INCREMENT
            write(dump, "INSERT INTO `t` (`code`,`raw`) VALUES ('  ',_binary 'NA'),('NULL',0x5C4E),('','');\n");
            // the greatest name, 72 characters of 2 and 4 bytes: shown cut to 60 characters
            write(
                    dump,
                    "INSERT INTO `t` (`id`,`name`) VALUES (" + (run + 5000) + ",'" + "😀".repeat(5 + run)
                            + "ä".repeat(67) + "');\n");
            write(dump, "CREATE TABLE `u" + run + "` (`x` int);\n");
        }
        // Latin-1 bytes that are not UTF-8: recoded, and profiled as recoded
        dump.write("INSERT INTO `t` VALUES (99999,'caf".getBytes(StandardCharsets.ISO_8859_1));
        dump.write(new byte[] {(byte) 0xe9, (byte) 0xff});
        write(dump, " ','x',NULL,NULL,NULL,NULL,NULL);\n");

        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            Map<String, LoadedTable> loaded = load(db, dump.toByteArray());
            LoadedTable t = loaded.get("t");
            assertThat(t.rows()).isEqualTo(3 * 404 + 1);
            for (int i = 1; i <= 7; i++) {
                assertThat(t.facts(i)).as("facts of column %d", i).isNotNull();
            }
            assertSameProfiles(db, t);
            // a short list's values, as an ENUM would list them: DuckDB's distinct values in its order
            assertThat(t.facts(2).fewValues()).isNotNull();
            List<String> sql = new java.util.ArrayList<>();
            try (var st = db.connection().createStatement();
                    var rs = st.executeQuery(
                            "SELECT DISTINCT c2 AS v FROM " + t.relation() + " WHERE c2 IS NOT NULL ORDER BY v")) {
                while (rs.next()) {
                    sql.add(rs.getString(1));
                }
            }
            assertThat(t.facts(2).fewValues()).containsExactlyElementsOf(sql);
        }
    }

    /**
     * Plain decimals (the loader's numeric facts: scale, whole parts, least and greatest) and
     * 14-digit timestamps as text and as bytes, including days that do not exist, hour 24,
     * second 60, year 0000 and a digit replaced by a letter: the loader's count of those a
     * timestamp parse prints back the same, and their least and greatest, are DuckDB's.
     */
    @Test
    void plainDecimalsAndCompactTimestampsProfileAlike() throws Exception {
        Random r = new Random(14);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(
                dump,
                "CREATE TABLE `m` (`amount` decimal(12,2) NOT NULL, `wide` decimal(30,10) DEFAULT NULL,"
                        + " `ts` binary(14) DEFAULT NULL, `tt` char(14) DEFAULT NULL);\nINSERT INTO `m` VALUES ");
        for (int row = 0; row < 3000; row++) {
            String amount = (r.nextInt(4) == 0 ? "-" : "") + r.nextInt(r.nextBoolean() ? 10 : 100_000_000) + "."
                    + String.format("%02d", r.nextInt(100));
            String wide = r.nextInt(10) == 0
                    ? "NULL"
                    : (r.nextBoolean() ? "-" : "") + (Math.abs(r.nextLong()) % 1_000_000_000_000_000_000L) + "."
                            + String.format("%010d", r.nextInt(1_000_000_000));
            write(dump, (row > 0 ? "," : "") + "(" + amount + "," + wide + ",'" + stamp(r) + "','" + stamp(r) + "')");
        }
        // leap days of century years (0000, 0400 and 2000 have one; 0100, 1900 and 2100 not) and
        // the 31st of 30-day months
        for (String year : new String[] {"0000", "0100", "0400", "1900", "2000", "2023", "2024", "2100", "9999"}) {
            for (String day : new String[] {"0228", "0229", "0230", "0431", "1231"}) {
                write(dump, ",(1.00,NULL,'" + year + day + "235959','" + year + day + "000000')");
            }
        }
        write(dump, ";\n");
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable m = load(db, dump.toByteArray()).get("m");
            assertThat(m.facts(0).decimalFacts()).isTrue();
            assertThat(m.facts(1).decimalFacts()).isTrue();
            assertThat(m.facts(2).mwTimestamps()).isBetween(100L, 2900L);
            List<ColumnProfile> p = new Profiler(db, false, false).profile(m);
            assertThat(p.get(2).mwTimestamps).isEqualTo(m.facts(2).mwTimestamps()); // the check ran
            assertThat(p.get(3).mwTimestamps).isEqualTo(m.facts(3).mwTimestamps());
            assertSameProfiles(db, m);
        }
    }

    private static String stamp(Random r) {
        if (r.nextInt(3) > 0) { // mostly real ones, the rest at and past every field's edge
            return String.format(
                    "%04d%02d%02d%02d%02d%02d",
                    r.nextInt(10_000),
                    1 + r.nextInt(12),
                    1 + r.nextInt(28),
                    r.nextInt(24),
                    r.nextInt(60),
                    r.nextInt(60));
        }
        String s = String.format(
                "%04d%02d%02d%02d%02d%02d",
                r.nextBoolean() ? r.nextInt(10_000) : 400 * r.nextInt(25) + (r.nextBoolean() ? 0 : 100),
                r.nextInt(14),
                r.nextInt(33),
                r.nextInt(26),
                r.nextInt(62),
                r.nextInt(62));
        if (r.nextInt(10) == 0) {
            int at = 1 + r.nextInt(13); // not first: a column starting with a letter is not asked
            s = s.substring(0, at) + "x" + s.substring(at + 1);
        }
        return s;
    }

    /**
     * Text and byte strings of more distinct values than the short list: the loader counts them
     * by their 128-bit hashes, and the count is DuckDB's {@code count(DISTINCT)} (repeats, the
     * empty string, null markers, values that share a long prefix, multi-byte text, bytes that
     * differ only in their last byte). A table whose rows come in two runs has no such count.
     */
    @Test
    void manyDistinctStringsCountedByHashesProfileAlike() throws Exception {
        Random r = new Random(3232);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(
                dump,
                "CREATE TABLE `w` (`word` varchar(60) DEFAULT NULL, `raw` varbinary(80) DEFAULT NULL,"
                        + " `note` text DEFAULT NULL);\nINSERT INTO `w` VALUES ");
        String prefix = "ä".repeat(50); // values of 64 bytes and more on average: hashed (DistinctHashes.minMeanBytes)
        for (int row = 0; row < 6000; row++) {
            String word = switch (r.nextInt(10)) {
                case 0 -> "NULL";
                case 1 -> "'NA'";
                case 2 -> "''";
                default -> "'" + prefix + "w" + r.nextInt(3000) + (r.nextBoolean() ? "é" : "") + "'";
            };
            String raw = "0x" + "00".repeat(70) + String.format("%04X", r.nextInt(2500));
            String note = "'" + prefix + r.nextInt(4000) + "😀'";
            write(dump, (row > 0 ? "," : "") + "(" + word + "," + raw + "," + note + ")");
        }
        write(dump, ";\nCREATE TABLE `v` (`x` varchar(80));\n");
        for (int run = 0; run < 2; run++) {
            write(dump, "INSERT INTO `v` VALUES ");
            for (int row = 0; row < 700; row++) {
                write(dump, (row > 0 ? "," : "") + "('" + "v".repeat(64) + r.nextInt(1000) + "')");
            }
            write(dump, ";\nCREATE TABLE `u" + run + "` (`y` int);\n");
        }
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            Map<String, LoadedTable> loaded = load(db, dump.toByteArray());
            LoadedTable w = loaded.get("w");
            for (int i = 0; i < 3; i++) {
                assertThat(w.facts(i).exactDistinct()).as("column %d", i).isGreaterThan(256L);
                try (var st = db.connection().createStatement();
                        var rs = st.executeQuery(
                                "SELECT count(DISTINCT " + w.physicalColumn(i) + ") FROM " + w.relation())) {
                    rs.next();
                    assertThat(w.facts(i).exactDistinct()).isEqualTo(rs.getLong(1));
                }
            }
            assertSameProfiles(db, w);
            LoadedTable v = loaded.get("v");
            assertThat(v.facts(0).exactDistinct()).isNull(); // the second run's values were not counted
            assertSameProfiles(db, v);
        }
    }

    /**
     * Integer columns: the loader's count, bounds and distinct values as bits (grown up and
     * down as values arrive, given up past 2^24 values of range) against DuckDB's.
     */
    @Test
    void integersCountedAsBitsProfileAlike() throws Exception {
        Random r = new Random(64);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(
                dump,
                "CREATE TABLE `n` (`small` int, `down` bigint, `extreme` bigint, `words` int,"
                        + " `fits` int, `wide` int, `nearmin` bigint);\nINSERT INTO `n` VALUES ");
        for (int row = 0; row < 5000; row++) {
            String extreme = row == 7 ? "9223372036854775807" : row == 8 ? "-9223372036854775808" : "" + row;
            String[] words = {"TRUE", "FALSE", "'abc'", "NULL", "'12'", "-3", "0x0102"};
            write(
                    dump,
                    (row > 0 ? "," : "") + "(" + (r.nextInt(10_001) - 5000) + "," + (1_000_000 - 97 * row) + ","
                            + extreme + "," + words[r.nextInt(words.length)] + ","
                            + (row % 2 == 0 ? 0 : row == 1 ? 16_777_215 : r.nextInt(1000)) + ","
                            + (row == 3 ? 16_777_216 : r.nextInt(1000)) + ","
                            + (Long.MIN_VALUE + (row == 0 ? 9999 : r.nextInt(10_000))) + ")");
        }
        write(dump, ";\n");
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable n = load(db, dump.toByteArray()).get("n");
            assertThat(n.facts(0).integerDistinct()).isNotNull();
            assertThat(n.facts(1).integerDistinct()).isEqualTo(5000L);
            assertThat(n.facts(2).integerDistinct()).isNull(); // the whole long range: SQL counts
            assertThat(n.facts(4).integerDistinct()).isNotNull(); // 0 to 2^24 - 1: just fits
            assertThat(n.facts(5).integerDistinct()).isNull(); // 0 to 2^24: does not
            assertThat(n.facts(6).integerDistinct()).isNotNull(); // grown down to the long's least
            assertSameProfiles(db, n);
        }
    }

    /**
     * DOUBLE and FLOAT text (the loader's values as doubles: bounds and their spellings, whole
     * numbers, what a 4-byte float keeps, beyond a float's range, exponents, 17-digit fractions
     * that take the parse's slow path), the text of a BIGINT UNSIGNED, and text of digits and
     * decimals (the numeric pattern counts), with distinct numbers counted as bits: canonical
     * spellings that grow the bits' scale as longer fractions arrive, one scale for all, and
     * spellings that could name one value twice ({@code 1.50} and {@code 1.5}, {@code -0},
     * {@code 007}), which leave the count to SQL.
     */
    @Test
    void doublesIntegerTextAndNumbersProfileAlike() throws Exception {
        Random r = new Random(32);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(
                dump,
                "CREATE TABLE `d` (`qty` double, `price` double, `rate` double, `f` float, `odd` double,"
                        + " `big` bigint unsigned, `digits` varchar(20), `amount` decimal(12,2),"
                        + " `mixed` varchar(20), `wild` double);\nINSERT INTO `d` VALUES ");
        for (int row = 0; row < 4000; row++) {
            String qty = r.nextInt(5) == 0 ? "NULL" : Integer.toString(1 + r.nextInt(2400));
            // canonical spellings, the scale growing: whole numbers first, then tenths, then cents
            String price = canonical(
                    row < 100 ? r.nextInt(1000) : row < 200 ? r.nextInt(10_000) / 10.0 : r.nextInt(100_000) / 100.0);
            String rate = r.nextInt(4) == 0 ? "NULL" : Double.toString(r.nextDouble());
            String[] floats = {"1.5", "3.4028235e38", "3.5e38", "-1e-3", "16777217", "0.1", "2.5E+10", "-0", "0"};
            String f = floats[r.nextInt(floats.length)];
            String[] odd = {"1e400", "12", "7.25"};
            String o = odd[row == 17 ? 0 : 1 + r.nextInt(2)];
            String big = r.nextInt(6) == 0 ? "NULL" : Long.toString(r.nextInt(1_000_000) + 5_000_000_000L);
            String[] digit = {
                "'12'",
                "'007'",
                "'-0'",
                "'3.25'",
                "'-0.5'",
                "'00.5'",
                "'1e5'",
                "'123456789012345678'",
                "'-42'",
                "'9.'",
                "NULL",
                "'1234567.891'"
            };
            String dg = r.nextBoolean() ? digit[r.nextInt(digit.length)] : "'" + r.nextInt(100_000) + "'";
            String amount =
                    (r.nextInt(3) == 0 ? "-" : "") + r.nextInt(50_000) + "." + String.format("%02d", r.nextInt(100));
            int m = r.nextInt(1000);
            String mx = r.nextBoolean() ? "'" + m + ".50'" : "'" + m + ".5'";
            String[] wild = {"'NaN'", "' 1'", "'+2'", "'.5'", "3"};
            String w = row < 10 ? wild[row % wild.length] : "4";
            write(
                    dump,
                    (row > 0 ? "," : "") + "(" + qty + "," + price + "," + rate + "," + f + "," + o + "," + big + ","
                            + dg + "," + amount + "," + mx + "," + w + ")");
        }
        write(dump, ";\n");
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable d = load(db, dump.toByteArray()).get("d");
            assertThat(d.facts(0).floatFacts()).isTrue();
            assertThat(d.facts(0).exactDistinct())
                    .as("whole numbers, one spelling each")
                    .isNotNull();
            assertThat(d.facts(1).exactDistinct())
                    .as("canonical spellings, scale grown")
                    .isNotNull();
            assertThat(d.facts(2).floatFacts()).isTrue();
            // no bits for these (17 digits after the point; 1.50 beside 1.5; ...), and too short
            // for the distinct hashes (DistinctHashes.minMeanBytes)
            assertThat(d.facts(2).exactDistinct())
                    .as("17 digits after the point: no bits")
                    .isNull();
            assertThat(d.facts(3).floatFacts()).isTrue();
            assertThat(d.facts(4).floatFacts()).as("1e400 is beyond a double").isFalse();
            assertThat(d.facts(5).integerTextFacts()).isTrue();
            assertThat(d.facts(5).exactDistinct()).isNotNull();
            assertThat(d.facts(6).numberFacts()).isTrue();
            assertThat(d.facts(6).exactDistinct()).isNull();
            assertThat(d.facts(7).decimalFacts()).isTrue();
            assertThat(d.facts(7).exactDistinct()).as("one scale for all").isNotNull();
            // 1.50 beside 1.5: no bits (one number, two spellings); the text's words count them as two
            assertThat(d.facts(8).exactDistinct())
                    .as("1.50 and 1.5, by their words")
                    .isGreaterThan(1000L);
            assertThat(d.facts(9).floatFacts()).isFalse();
            List<ColumnProfile> p = new Profiler(db, false, false).profile(d);
            assertThat(p.get(0).distinct).isEqualTo(d.facts(0).exactDistinct());
            assertThat(p.get(1).distinct).isEqualTo(d.facts(1).exactDistinct());
            assertThat(p.get(8).distinct).isEqualTo(d.facts(8).exactDistinct());
            assertThat(p.get(6).intCanonical)
                    .isEqualTo(d.facts(6).intCanonical())
                    .isPositive(); // the check ran
            assertThat(p.get(6).decimalCanonical).isPositive();
            assertSameProfiles(db, d);
        }
    }

    /**
     * Dates, timestamps, ISO-8601 timestamps and UUIDs as text: days that do not exist, hour 24,
     * second 60, year 0000, other separators and offsets, fractions of another width, upper-case
     * hex, and an ISO column whose least value is spelled otherwise than its first (then SQL
     * counts it): the loader's counts and bounds are DuckDB's round trips.
     */
    @Test
    void datesTimestampsIsoAndUuidsProfileAlike() throws Exception {
        Random r = new Random(8601);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(
                dump,
                "CREATE TABLE `w` (`day` varchar(10), `at` varchar(19), `iso` varchar(30), `ms` varchar(30),"
                        + " `late` varchar(30), `id` char(36));\nINSERT INTO `w` VALUES ");
        for (int row = 0; row < 3000; row++) {
            String day = stampDay(r);
            String time = String.format(
                    "%02d:%02d:%02d",
                    r.nextInt(10) == 0 ? 24 : r.nextInt(24), r.nextInt(60), r.nextInt(10) == 0 ? 60 : r.nextInt(60));
            String at = "'" + day + " " + time + "'";
            String iso = "'" + day + "T" + time + "Z'";
            // other offsets and separators among them (of one width): not in the least value's spelling
            String[] ends = {"+00:00", "+00:00", "+02:00", "-05:00"};
            String later =
                    String.format("%04d-%02d-%02d", 1000 + r.nextInt(9000), 1 + r.nextInt(12), 1 + r.nextInt(28));
            String ms = row == 0
                    ? "'0999-01-01T00:00:00.000+00:00'"
                    : "'" + later + (r.nextInt(8) == 0 ? " " : "T") + time + "."
                            + String.format("%03d", r.nextInt(1000)) + ends[r.nextInt(ends.length)] + "'";
            // the first value is spelled with another offset than the least: SQL reads the least's
            String late = row == 0 ? "'2030-01-01T00:00:00+01:00'" : "'" + day + "T" + time + "+00:00'";
            String id = r.nextInt(6) == 0
                    ? "'" + new UUID(r.nextLong(), r.nextLong()).toString().toUpperCase() + "'"
                    : r.nextInt(6) == 0
                            ? "'"
                                    + new UUID(r.nextLong(), r.nextLong())
                                            .toString()
                                            .replace('-', 'x') + "'"
                            : "'" + new UUID(r.nextLong(), r.nextLong()) + "'";
            write(
                    dump,
                    (row > 0 ? "," : "") + "('" + day + "'," + at + "," + iso + "," + ms + "," + late + "," + id + ")");
        }
        write(dump, ";\n");
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable w = load(db, dump.toByteArray()).get("w");
            assertThat(w.facts(0).dates()).isBetween(100L, 2990L);
            assertThat(w.facts(1).timestamps()).isBetween(100L, 2990L);
            assertThat(w.facts(2).isoFormat()).isEqualTo("%Y-%m-%dT%H:%M:%SZ");
            assertThat(w.facts(3).isoFormat()).isNotNull();
            assertThat(w.facts(4).isoFormat()).isEqualTo("%Y-%m-%dT%H:%M:%S+01:00");
            assertThat(w.facts(3).isoFormat()).isEqualTo("%Y-%m-%dT%H:%M:%S.%g+00:00");
            assertThat(w.facts(5).uuids()).isBetween(100L, 2990L);
            List<ColumnProfile> p = new Profiler(db, false, false).profile(w);
            assertThat(p.get(0).dates).isEqualTo(w.facts(0).dates()); // the checks ran
            assertThat(p.get(2).timestamps).isEqualTo(w.facts(2).isoTimestamps());
            assertThat(p.get(3).timestampFormat).isEqualTo("%Y-%m-%dT%H:%M:%S.%g+00:00");
            assertThat(p.get(4).timestampFormat).isEqualTo("%Y-%m-%dT%H:%M:%S+00:00");
            assertThat(p.get(5).uuids).isEqualTo(w.facts(5).uuids());
            assertSameProfiles(db, w);
        }
    }

    /**
     * DATETIME, DATETIME(6) and TIMESTAMP columns as a mysqldump writes them: midnights, fractions
     * with trailing zeros (DuckDB prints {@code .5} and no point for {@code .000000}), a column
     * rising with the row (distinct, told by its order), MySQL's zero date and year 0000 (SQL
     * reads those), and short codes past the short list counted by their words (the word slots
     * C1 alone gets, set here): the loader's temporal aggregates and distinct counts are DuckDB's.
     */
    @Test
    void datetimeColumnsRisingValuesAndShortCodesProfileAlike() throws Exception {
        Random r = new Random(2026);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(
                dump,
                "CREATE TABLE `d` (`at` datetime, `at6` datetime(6) NOT NULL, `ts` timestamp NULL,"
                        + " `rising` datetime(6), `code` varchar(20), `zero` datetime, `bc` datetime);\n"
                        + "INSERT INTO `d` VALUES ");
        for (int row = 0; row < 3000; row++) {
            String day = String.format("%04d-%02d-%02d", 1000 + r.nextInt(9000), 1 + r.nextInt(12), 1 + r.nextInt(28));
            String time = r.nextInt(5) == 0
                    ? "00:00:00"
                    : String.format("%02d:%02d:%02d", r.nextInt(24), r.nextInt(60), r.nextInt(60));
            String[] fractions = {"000000", "500000", "000001", "123456", "100000"};
            String frac = fractions[r.nextInt(fractions.length)];
            String rising = LocalDateTime.of(2020, 9, 13, 12, 26, 40)
                    .plusSeconds(11L * row)
                    .plusNanos(1000L * r.nextInt(1_000_000))
                    .format(DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSS"));
            String zero = r.nextInt(50) == 0 ? "0000-00-00 00:00:00" : day + " " + time;
            String bc = row == 7 ? "0000-01-01 00:00:00" : day + " " + time;
            write(
                    dump,
                    (row > 0 ? "," : "") + "(" + (r.nextInt(10) == 0 ? "NULL" : "'" + day + " " + time + "'")
                            + ",'" + day + " " + time + "." + frac + "'"
                            + "," + (r.nextInt(3) == 0 ? "NULL" : "'" + day + " " + time + "'")
                            + ",'" + rising + "'"
                            + ",'c" + r.nextInt(2000) + "'"
                            + ",'" + zero + "','" + bc + "')");
        }
        write(dump, ";\n");
        String was = System.getProperty("wastecheck.wordDistinctBytes");
        System.setProperty("wastecheck.wordDistinctBytes", Long.toString(64L << 20));
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable d = load(db, dump.toByteArray()).get("d");
            assertThat(d.facts(0).midnights()).isBetween(100L, 900L);
            assertThat(d.facts(1).isoFormat()).isEqualTo("%Y-%m-%d %H:%M:%S.%f");
            assertThat(d.facts(3).exactDistinct()).isEqualTo(3000L); // rising: each above all before it
            assertThat(d.facts(4).exactDistinct()).isBetween(1000L, 2000L); // codes: by their words
            List<ColumnProfile> p = new Profiler(db, false, false).profile(d);
            assertThat(p.get(1).minTemporal).doesNotEndWith("0");
            assertThat(p.get(5).castFailures).isPositive(); // the zero date: SQL's cast
            assertThat(p.get(6).minTemporal).contains("BC"); // year 0000: SQL's print
            assertSameProfiles(db, d);
        } finally {
            if (was == null) {
                System.clearProperty("wastecheck.wordDistinctBytes");
            } else {
                System.setProperty("wastecheck.wordDistinctBytes", was);
            }
        }
    }

    private static String stampDay(Random r) {
        String[] special = {
            "0000-02-29", "1900-02-29", "2000-02-29", "2023-02-29", "2024-04-31", "2024-13-01", "2024-00-10"
        };
        return r.nextInt(8) == 0
                ? special[r.nextInt(special.length)]
                : String.format("%04d-%02d-%02d", 1000 + r.nextInt(9000), 1 + r.nextInt(12), 1 + r.nextInt(28));
    }

    /** A double as mysqldump prints it: the shortest text that reads back, no trailing ".0". */
    private static String canonical(double v) {
        String s = Double.toString(v);
        return s.endsWith(".0") ? s.substring(0, s.length() - 2) : s;
    }

    /** A value past 2^24 bytes travels from the reader to the filler as a call of its own (TokenChunk's BIG). */
    @Test
    void aValueOfSeventeenMegabytesArrivesWhole() throws Exception {
        int big = 17 << 20;
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(dump, "CREATE TABLE `b` (`id` int, `body` longtext);\nINSERT INTO `b` VALUES (1,'short'),(2,'");
        write(dump, "é".repeat(big / 2) + "x");
        write(dump, "'),(3,NULL),(4,'end');\n");
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable b = load(db, dump.toByteArray()).get("b");
            assertThat(b.rows()).isEqualTo(4);
            try (var st = db.connection().createStatement();
                    var rs = st.executeQuery("SELECT strlen(c1), length(c1) FROM " + b.relation() + " WHERE c0 = 2")) {
                rs.next();
                assertThat(rs.getLong(1)).isEqualTo(big + 1);
                assertThat(rs.getLong(2)).isEqualTo(big / 2 + 1);
            }
            assertThat(b.facts(1).maxLen()).isEqualTo(big + 1L);
            assertSameProfiles(db, b);
        }
    }

    /**
     * The real values' bounds part from min and max at the first null marker; min and max are then
     * overwritten in place by values of their length, so the real bounds must not share their arrays.
     */
    @Test
    void theRealBoundsKeepTheirValueWhenAMarkerOfTheSameLengthBecomesTheLeast() throws Exception {
        String dump =
                "CREATE TABLE t (a varchar(10));\n" + "INSERT INTO t VALUES ('mmmm'),('NULL'),('zzzz'),('pppp');\n";
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable t = load(db, dump.getBytes(StandardCharsets.UTF_8)).get("t");
            assertThat(t.facts(0).markers()).isEqualTo(1);
            // 'NULL' < 'mmmm' byte-wise: it replaces min's four bytes in place
            assertThat(t.facts(0).minText()).isEqualTo("NULL");
            assertThat(t.facts(0).realMinText()).isEqualTo("mmmm");
            assertThat(t.facts(0).realMaxText()).isEqualTo("zzzz");
            assertSameProfiles(db, t);
        }
    }

    @Test
    void aRowOfTheWrongWidthLeavesTheProfileToSql() throws Exception {
        String dump = "CREATE TABLE t (a varchar(10), b varchar(10));\n"
                + "INSERT INTO t VALUES ('zzz','y'),('only one'),('a','b');\n";
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable t = load(db, dump.getBytes(StandardCharsets.UTF_8)).get("t");
            // the short row's 'only one' sat in the slot the next row took: no facts, SQL decides
            assertThat(t.facts(0)).isNull();
            List<ColumnProfile> p = new Profiler(db, false, false).profile(t);
            assertThat(p.get(0).maxText).isEqualTo("zzz");
            assertThat(p.get(0).minText).isEqualTo("a");
            assertSameProfiles(db, t);
        }
    }

    /**
     * Past the profile's screen (120,000 rows): unique 31-byte checksums (MediaWiki's {@code
     * rev_sha1}) beside an integer column of 76,000 values ({@code rev_parent_id}) keep the
     * loader's sketch's estimate, within its margin of the count, with no count in SQL, where
     * DuckDB's estimate (64 registers, a factor of two) needed one; two text columns that map one
     * to one, both sketched, are still counted exactly (the duplicate-column check compares them).
     */
    @Test
    void aSketchedColumnKeepsItsEstimateUnlessACountCouldDecide() throws Exception {
        int rows = 120_000;
        Random r = new Random(31);
        ByteArrayOutputStream dump = new ByteArrayOutputStream();
        write(
                dump,
                "CREATE TABLE `rev` (`id` int NOT NULL, `sha` varbinary(32) NOT NULL, `parent` int NOT NULL,"
                        + " `a` varchar(20) NOT NULL, `b` varchar(20) NOT NULL);\n");
        for (int i = 0; i < rows; i++) {
            StringBuilder sha = new StringBuilder();
            for (int k = 0; k < 31; k++) {
                sha.append(Character.forDigit(r.nextInt(36), 36));
            }
            int code = (int) ((long) i * 7919 % 104_000); // beyond both margins of sha's 120,000
            write(
                    dump,
                    (i % 1000 == 0 ? (i > 0 ? ";\n" : "") + "INSERT INTO `rev` VALUES " : ",") + "(" + i + ",'" + sha
                            + "'," + (i % 76_000) + ",'k" + code + "','x" + code + "y')");
        }
        write(dump, ";\n");
        try (ProfilingDatabase db = new ProfilingDatabase(ProfilingOptions.defaults())) {
            LoadedTable t = load(db, dump.toByteArray()).get("rev");
            for (int i : new int[] {1, 3, 4}) {
                assertThat(t.facts(i).exactDistinct()).as("column %d", i).isNull();
                assertThat(t.facts(i).estimatedDistinct()).as("column %d", i).isNotNull();
            }
            Profiler profiler = new Profiler(db, false, false);
            List<ColumnProfile> p = profiler.profile(t);
            assertThat(p.get(1).distinctEstimated).as("sha estimated").isTrue();
            assertThat(p.get(1).distinct).isBetween((long) (rows / ColumnFacts.ESTIMATE_MARGIN), (long) rows);
            assertThat(p.get(2).distinct).isEqualTo(76_000);
            for (int i : new int[] {3, 4}) {
                assertThat(p.get(i).distinctEstimated)
                        .as("column %d counted", i)
                        .isFalse();
                assertThat(p.get(i).distinct).isEqualTo(104_000).isEqualTo(countDistinct(db, t, i));
            }
            // by SQL alone DuckDB's estimate of sha is within a factor of two of parent's count: counted
            List<ColumnProfile> q = profiler.profile(new LoadedTable(t.def(), t.relation(), t.rows(), t.storage()));
            assertThat(q.get(1).distinctEstimated).isFalse();
            assertThat(q.get(1).distinct).isEqualTo(countDistinct(db, t, 1)).isEqualTo(rows);
        }
    }

    private static Map<String, LoadedTable> load(ProfilingDatabase db, byte[] dump) throws Exception {
        DdlCatalog catalog = new DdlCatalog(Dialect.MYSQL);
        Map<String, LoadedTable> loaded = DumpLoader.newTableMap();
        try (SqlScriptReader reader = new SqlScriptReader(new ByteArrayInputStream(dump), "hostile.sql", true)) {
            new DumpLoader(db, catalog, new LoadStats(), loaded, pos -> {}).load(reader);
        }
        return loaded;
    }

    /** DuckDB's {@code count(DISTINCT)} of a column of the loaded table. */
    private static long countDistinct(ProfilingDatabase db, LoadedTable t, int i) throws Exception {
        try (var st = db.connection().createStatement();
                var rs = st.executeQuery("SELECT count(DISTINCT " + t.physicalColumn(i) + ") FROM " + t.relation())) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** Every public field of every column's profile, from the loader's facts and from SQL alone. */
    private static void assertSameProfiles(ProfilingDatabase db, LoadedTable t) throws Exception {
        // without PostgreSQL's numeric sizes the decimal facts stand in for SQL; with them, SQL runs
        assertSameProfiles(db, t, false);
        assertSameProfiles(db, t, true);
    }

    private static void assertSameProfiles(ProfilingDatabase db, LoadedTable t, boolean postgres) throws Exception {
        Profiler profiler = new Profiler(db, postgres, false);
        List<ColumnProfile> withFacts = profiler.profile(t);
        List<ColumnProfile> bySql = profiler.profile(new LoadedTable(t.def(), t.relation(), t.rows(), t.storage()));
        for (int i = 0; i < withFacts.size(); i++) {
            for (Field f : ColumnProfile.class.getFields()) {
                if (Modifier.isStatic(f.getModifiers())) {
                    continue;
                }
                assertThat(f.get(withFacts.get(i)))
                        .as("%s.%s", t.def().columns().get(i).name(), f.getName())
                        .isEqualTo(f.get(bySql.get(i)));
            }
        }
    }

    private static String text(Random r) {
        if (r.nextInt(10) == 0) {
            return "NULL";
        }
        StringBuilder sb = new StringBuilder("'");
        int n = r.nextInt(5);
        for (int i = 0; i < n; i++) {
            sb.append(PIECES[r.nextInt(PIECES.length)]);
        }
        return sb.append("'").toString();
    }

    private static String code(Random r) {
        String[] codes = {"'NA'", "'N/A'", "''", "'AB'", "'AB '", "'\\\\N'", "NULL", "'ÿ'", "'zz'"};
        return codes[r.nextInt(codes.length)];
    }

    private static String bytes(Random r) {
        if (r.nextInt(8) == 0) {
            return "NULL";
        }
        StringBuilder sb = new StringBuilder("0x");
        int n = r.nextInt(4) == 0 ? 130 + r.nextInt(20) : r.nextInt(6);
        for (int i = 0; i < n; i++) {
            // printable letters (some spell markers), quotes, backslashes, and any other byte
            String printable = "NAul\\'\" ";
            int b = r.nextInt(3) == 0 ? printable.charAt(r.nextInt(printable.length())) : r.nextInt(256);
            sb.append(String.format("%02X", b));
        }
        return n == 0 ? "''" : sb.toString();
    }

    private static String price(Random r) {
        String[] p = {"'12.50'", "'0.00'", "'-3.1'", "'abc'", "'1e3'", "NULL", "'99999999.99'", "' 7.25'"};
        return p[r.nextInt(p.length)];
    }

    private static String day(Random r) {
        String[] d = {"'2024-02-29'", "'2023-02-29'", "'0000-00-00'", "NULL", "'2026-11-27'", "'NA'"};
        return d[r.nextInt(d.length)];
    }

    private static String big(Random r) {
        String[] b = {"18446744073709551615", "0", "NULL", "'12'", "42"};
        return b[r.nextInt(b.length)];
    }

    private static void write(ByteArrayOutputStream out, String s) {
        out.writeBytes(s.getBytes(StandardCharsets.UTF_8));
    }
}
