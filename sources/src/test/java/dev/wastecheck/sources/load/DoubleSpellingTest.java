package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link DoubleSpelling#rendered} against DuckDB itself: every spelling it takes is the text
 * DuckDB gives back, through {@link DoubleSpelling#text}, from the double the spelling parses to;
 * and it refuses few of the spellings DuckDB does give back (the shortest text of random doubles).
 */
class DoubleSpellingTest {
    @TempDir
    Path dir;

    private static final PlainNumber N = new PlainNumber();

    private static boolean takes(String s) {
        byte[] b = s.getBytes(StandardCharsets.US_ASCII);
        if (b.length == 0 || !(b[0] == '-' || (b[0] >= '0' && b[0] <= '9')) || !N.read(b, 0, b.length)) {
            return false;
        }
        return DoubleSpelling.rendered(N, N.toDouble());
    }

    /** Spellings of doubles: random bits in range, random decimals of 1-18 digits, each at every length and its neighbours. */
    private static List<String> spellings(long seed, int count) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>();
        for (int k = 0; k < count; k++) {
            double d;
            switch (k % 4) {
                case 0 ->
                    d = Double.longBitsToDouble(Double.doubleToLongBits(1e-5)
                            + (long)
                                    (r.nextDouble() * (Double.doubleToLongBits(2e16) - Double.doubleToLongBits(1e-5))));
                case 1 -> d = r.nextDouble();
                case 2 -> d = r.nextInt(100_000) / 100.0 + (r.nextBoolean() ? 0 : 0.1 * r.nextInt(3));
                default -> d = Math.scalb(1.0, r.nextInt(100) - 20) * (r.nextBoolean() ? 1 : 1 + Math.ulp(1.0));
            }
            if (r.nextInt(5) == 0) {
                d = -d;
            }
            BigDecimal exact = new BigDecimal(d);
            for (int digits = 1; digits <= 18; digits++) {
                BigDecimal v = exact.round(new MathContext(digits, RoundingMode.HALF_EVEN));
                out.add(plain(v));
                BigDecimal unit = BigDecimal.ONE.movePointLeft(v.scale());
                out.add(plain(v.add(unit)));
                out.add(plain(v.subtract(unit)));
            }
            out.add(Double.toString(d)); // 1.0E-4, 2400.0: refused
        }
        return out;
    }

    private static String plain(BigDecimal v) {
        return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
    }

    @Test
    void everySpellingTakenIsDuckDbsTextOfItsDouble() throws Exception {
        List<String> all = spellings(20261203L, 4000);
        all.addAll(List.of(
                "0",
                "-0",
                "0.0",
                "1",
                "1.0",
                "1.50",
                "1e3",
                "2400",
                "-7",
                "0.1",
                "0.30000000000000004",
                "0.1000000000000000055511151231257827",
                "0.10000000000000001",
                "0.0001",
                "0.00009999999999999999",
                "999999999999999",
                "1000000000000000",
                "123456789012345.6",
                "0.7419793058708161",
                "-10.259907470924368",
                "0.15000000000000002",
                "8.985969669871308E-4",
                "00.5",
                ".5",
                "5."));
        Map<String, Double> taken = new LinkedHashMap<>();
        int refused = 0;
        for (String s : all) {
            if (takes(s)) {
                taken.put(s, N.toDouble());
            } else {
                refused++;
            }
        }
        assertThat(taken)
                .containsKeys(
                        "0",
                        "1",
                        "2400",
                        "-7",
                        "0.1",
                        "0.30000000000000004",
                        "0.0001",
                        "999999999999999",
                        "123456789012345.6",
                        "0.7419793058708161",
                        "-10.259907470924368",
                        "0.15000000000000002");
        assertThat(taken)
                .doesNotContainKeys(
                        "-0",
                        "0.0",
                        "1.0",
                        "1.50",
                        "1e3",
                        "0.10000000000000001",
                        "0.00009999999999999999",
                        "1000000000000000",
                        "8.985969669871308E-4",
                        "00.5");
        Map<String, String> back = duckDb(taken);
        int checked = 0;
        for (Map.Entry<String, Double> e : taken.entrySet()) {
            assertThat(back.get(e.getKey())).as("the text of %s", e.getKey()).isEqualTo(e.getKey());
            checked++;
        }
        assertThat(checked).isGreaterThan(30_000);
        assertThat(refused).isGreaterThan(30_000); // the longer and the neighbouring ones
    }

    /**
     * Of the shortest texts of random doubles in DuckDB's fixed range (what MySQL and pandas
     * write), nearly all are taken: the refusals are the ties and the doubt at a power of two.
     */
    @Test
    void theShortestTextOfADoubleIsTaken() throws Exception {
        Random r = new Random(7);
        Map<String, Double> candidates = new LinkedHashMap<>();
        for (int k = 0; k < 20_000; k++) {
            double d = k % 2 == 0 ? r.nextDouble() : (r.nextDouble() - 0.5) * Math.pow(10, r.nextInt(14));
            if (Math.abs(d) >= 1e-4) {
                candidates.put(Double.toString(d), d);
            }
        }
        // DuckDB's own text of each double, then whether the check takes it
        Map<String, String> texts = duckDb(candidates);
        int taken = 0;
        int all = 0;
        for (String t : texts.values()) {
            String s = t.endsWith(".0") ? t.substring(0, t.length() - 2) : t;
            all++;
            taken += takes(s) ? 1 : 0;
        }
        assertThat(all).isGreaterThan(19_000);
        assertThat(taken).isGreaterThan(all * 99 / 100);
    }

    /** DuckDB's {@link DoubleSpelling#text} of each double, by its key. */
    private Map<String, String> duckDb(Map<String, Double> values) throws Exception {
        Path csv = dir.resolve("d" + values.size() + ".csv");
        StringBuilder sb = new StringBuilder("k,d\n");
        List<String> keys = new ArrayList<>(values.keySet());
        for (int i = 0; i < keys.size(); i++) {
            sb.append(i)
                    .append(',')
                    .append(Double.toString(values.get(keys.get(i))))
                    .append('\n');
        }
        Files.writeString(csv, sb.toString());
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:");
                Statement st = c.createStatement();
                ResultSet rs = st.executeQuery("SELECT k, " + DoubleSpelling.text("d", "CAST(NULL AS VARCHAR)")
                        + " FROM read_csv('" + csv + "', columns = {'k': 'BIGINT', 'd': 'DOUBLE'}) ORDER BY k")) {
            while (rs.next()) {
                out.put(keys.get(rs.getInt(1)), rs.getString(2));
            }
        }
        return out;
    }
}
