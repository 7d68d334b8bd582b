package dev.wastecheck.engine.block;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.engine.export.ArrowExport;
import dev.wastecheck.engine.log.LogFormat;
import dev.wastecheck.engine.log.LogReader;
import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.layouts.Record;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.ipc.ArrowStreamReader;
import org.apache.arrow.vector.util.Text;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Crash recovery against a real process killed with SIGKILL (Li et al., VLDB 2020, §3.4). A {@link
 * CrashChild} JVM loads the TPC-C-like mix into a database directory and runs it with logging,
 * compaction and freezing in the background and a checkpoint every few hundred milliseconds; it is
 * killed at a seeded random moment. Recovery then opens the directory, and:
 *
 * <ul>
 * <li>every transaction whose commit callback fired is there with its exact values (none lost);</li>
 * <li>nothing else is: the state is exactly the load plus those transactions, plus, per worker, its
 * one transaction whose fate was unknown at the kill, whole or not at all, and only if the log holds
 * a COMMIT record not accounted for by a callback (none extra, no half transaction);</li>
 * <li>every primary-key index rebuilt over the recovered tables finds every row with its values;</li>
 * <li>every block, frozen after recovery, reads back through Arrow's own IPC stream reader with the
 * same rows.</li>
 * </ul>
 *
 * <p>A few kills in the default suite; {@code -Dcrash.kills=100} for the long run ({@code ./bench
 * arrow crash}).
 */
class CrashRecoveryTest {
    static final int WAREHOUSES = 2, ITEMS = 200, CUSTOMERS = 20;

    @TempDir(cleanup = org.junit.jupiter.api.io.CleanupMode.ON_SUCCESS)
    Path root;

    /**
     * What a run of kills checked (any loss, extra row or half transaction fails the run): callbacks
     * that fired, write transactions among them, transactions of unknown fate found whole or absent.
     */
    record Totals(
            int kills,
            long durable,
            long writeTransactions,
            long unknownApplied,
            long unknownAbsent,
            long frozenBlocksRead,
            long rowsCompared,
            List<String> damages) {}

    @Test
    void everyDurableTransactionSurvivesSigkillAndNothingElseDoes() throws Exception {
        int kills = Integer.getInteger("crash.kills", 3);
        long seed = Long.getLong("crash.seed", 20261127L);
        Totals t = crashLoop(root, kills, seed, 300, 1500);
        System.out.println(t);
        assertThat(t.kills()).isEqualTo(kills);
        assertThat(t.writeTransactions()).isPositive();
        assertThat(t.frozenBlocksRead()).isPositive();
    }

    static Totals crashLoop(Path root, int kills, long seed, int minMillis, int maxMillis) throws Exception {
        SplittableRandom r = new SplittableRandom(seed);
        long durable = 0, writes = 0, applied = 0, absent = 0, frozen = 0, rows = 0;
        List<String> damages = new ArrayList<>();
        for (int k = 0; k < kills; k++) {
            long childSeed = r.nextLong(1, Long.MAX_VALUE >>> 8);
            Path dir = root.resolve("kill-" + k);
            Files.createDirectories(dir);
            List<String> lines = runAndKill(dir, childSeed, minMillis + r.nextInt(maxMillis - minMillis + 1));
            Outcome o = check(dir, childSeed, lines);
            durable += o.durable;
            writes += o.writes;
            applied += o.unknownApplied;
            absent += o.unknownAbsent;
            frozen += o.frozenBlocks;
            rows += o.rows;
            if (o.damage != null) damages.add(o.damage);
            deleteTree(dir);
        }
        return new Totals(kills, durable, writes, applied, absent, frozen, rows, damages);
    }

    /** Starts a child, waits for its load, lets it run {@code millis}, kills it; returns its whole output lines. */
    static List<String> runAndKill(Path dir, long seed, int millis) throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Path out = dir.resolve("child.out");
        Process p = new ProcessBuilder(
                        java,
                        "-Xmx256m",
                        "-XX:+UseSerialGC",
                        "--add-opens=java.base/java.nio=ALL-UNNAMED",
                        "-cp",
                        System.getProperty("java.class.path"),
                        CrashChild.class.getName(),
                        dir.toString(),
                        Long.toString(seed),
                        Integer.toString(WAREHOUSES),
                        Integer.toString(ITEMS),
                        Integer.toString(CUSTOMERS),
                        "250")
                .redirectError(dir.resolve("child.err").toFile())
                .redirectOutput(out.toFile())
                .start();
        // The child's stdout goes to a file, not a pipe: every line it wrote before the kill is there
        // (a pipe read while the process dies can lose its tail to the JDK's reaper closing it).
        boolean up = false;
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        while (!up && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(20);
            up = Files.readString(out).contains("LOADED ");
        }
        if (up) Thread.sleep(millis);
        p.destroyForcibly(); // SIGKILL on Unix: no shutdown hook, no flush, no close
        assertThat(p.waitFor(30, TimeUnit.SECONDS)).isTrue();
        String text = Files.readString(out);
        assertThat(up)
                .as("child loaded; stderr: %s", Files.readString(dir.resolve("child.err")))
                .isTrue();
        List<String> lines = new ArrayList<>(List.of(text.split("\n", -1)));
        lines.remove(lines.size() - 1); // a line without its newline was cut by the kill (or is the empty tail)
        for (String l : lines)
            assertThat(l)
                    .as("child reported an error; stderr: %s", Files.readString(dir.resolve("child.err")))
                    .doesNotStartWith("ERROR");
        return lines;
    }

    record Outcome(
            long durable,
            long writes,
            long unknownApplied,
            long unknownAbsent,
            long frozenBlocks,
            long rows,
            String damage) {}

    /** Table name -> row key -> the row rendered as {@link TpccLikeMix#render(Record)}. */
    static final class Model {
        final Map<String, Map<String, String>> tables = new TreeMap<>();

        Model copy() {
            Model m = new Model();
            tables.forEach((k, v) -> m.tables.put(k, new HashMap<>(v)));
            return m;
        }

        static String key(String table, String row) {
            String[] v = row.split(",", 3);
            return table.equals("history") ? v[0] + "/" + v[1] : v[0];
        }

        /** Applies a transaction's effects; returns the (table, key) pairs they touched. */
        Set<String> apply(String effects) {
            Set<String> touched = new HashSet<>();
            for (String op : effects.split(";")) {
                if (op.isBlank()) continue;
                String[] p = op.split("\\|");
                Map<String, String> t = tables.computeIfAbsent(p[1], x -> new HashMap<>());
                switch (p[0]) {
                    case "I" -> {
                        String key = key(p[1], p[2]);
                        assertThat(t.put(key, p[2]))
                                .as("insert of an existing %s %s", p[1], key)
                                .isNull();
                        touched.add(p[1] + "|" + key);
                    }
                    case "U" -> {
                        String row = t.get(p[2]);
                        assertThat(row)
                                .as("update of a missing %s %s", p[1], p[2])
                                .isNotNull();
                        String[] v = row.split(",", -1);
                        for (String a : p[3].split(",")) {
                            String[] cv = a.split("=");
                            v[Integer.parseInt(cv[0])] = cv[1];
                        }
                        t.put(p[2], String.join(",", v));
                        touched.add(p[1] + "|" + p[2]);
                    }
                    case "X" -> {
                        assertThat(t.remove(p[2]))
                                .as("delete of a missing %s %s", p[1], p[2])
                                .isNotNull();
                        touched.add(p[1] + "|" + p[2]);
                    }
                    default -> throw new AssertionError("effect " + op);
                }
            }
            return touched;
        }

        String get(String tableKey) {
            int bar = tableKey.indexOf('|');
            return tables.getOrDefault(tableKey.substring(0, bar), Map.of()).get(tableKey.substring(bar + 1));
        }

        static Model of(TpccLikeMix mix) {
            Model m = new Model();
            for (TpccLikeMix.Indexed t : mix.tables()) {
                Map<String, String> rows = m.tables.computeIfAbsent(t.name(), x -> new HashMap<>());
                Transaction tx = mix.tm.begin();
                t.table.scan(tx, (slot, r) -> {
                    String row = TpccLikeMix.render(r);
                    assertThat(rows.put(key(t.name(), row), row))
                            .as("%s: key twice", t.name())
                            .isNull();
                    return true;
                });
                mix.tm.commit(tx);
            }
            return m;
        }
    }

    static Outcome check(Path dir, long seed, List<String> lines) throws Exception {
        // What the child committed durably, and each worker's last transaction of unknown fate.
        long loadedTs = -1;
        Map<String, String> proposed = new HashMap<>();
        Map<String, Long> durableTs = new TreeMap<>();
        Set<String> aborted = new HashSet<>();
        List<String> order = new ArrayList<>();
        for (String l : lines) {
            String[] p = l.split(" ", 4);
            switch (p[0]) {
                case "LOADED" -> loadedTs = Long.parseLong(p[1]);
                case "P" -> {
                    proposed.put(p[1] + " " + p[2], p.length > 3 ? p[3] : "");
                    order.add(p[1] + " " + p[2]);
                }
                case "D" -> durableTs.put(p[1] + " " + p[2], Long.parseLong(p[3]));
                case "A" -> aborted.add(p[1] + " " + p[2]);
                case "K" -> {}
                default -> throw new AssertionError("child line " + l);
            }
        }
        assertThat(loadedTs).isPositive();

        TpccLikeMix fresh = new TpccLikeMix(WAREHOUSES, ITEMS, CUSTOMERS);
        fresh.load(seed);
        Model expected = Model.of(fresh);
        long writes = 0;
        Map<String, String> unknown = new TreeMap<>();
        for (String id : order) {
            String effects = proposed.get(id);
            if (durableTs.containsKey(id)) {
                expected.apply(effects);
                if (!effects.isEmpty()) writes++;
            } else if (!aborted.contains(id) && !effects.isEmpty()) {
                unknown.put(id, effects);
            }
        }
        Set<String> workersUnknown = new HashSet<>();
        for (String id : unknown.keySet())
            assertThat(workersUnknown.add(id.split(" ")[0]))
                    .as("one unknown transaction per worker")
                    .isTrue();

        // The COMMIT records the log holds, read as recovery will read them.
        Set<Long> onDisk = new HashSet<>();
        try (LogReader r = new LogReader(dir.resolve(ArrowDatabase.LOG_FILE), LogFormat.LOG_MAGIC)) {
            while (r.next())
                if (r.type() == LogFormat.COMMIT && r.payload().getLong(0) > loadedTs)
                    onDisk.add(r.payload().getLong(0));
        }
        for (Map.Entry<String, Long> d : durableTs.entrySet()) {
            if (proposed.get(d.getKey()).isEmpty()) continue; // read-only: no COMMIT record
            assertThat(onDisk)
                    .as("COMMIT of %s, whose callback fired", d.getKey())
                    .contains(d.getValue());
        }

        try (ArrowDatabase db = ArrowDatabase.open(
                dir, TpccLikeMix.tableDefs(), false, CrashChild.BLOCK_SIZE, ArrowTable.FreezeMode.GATHER)) {
            TpccLikeMix mix = new TpccLikeMix(WAREHOUSES, ITEMS, CUSTOMERS, db);
            Model recovered = Model.of(mix);
            long applied = 0, absent = 0;
            for (Map.Entry<String, String> u : unknown.entrySet()) {
                Model with = expected.copy();
                Set<String> touched = with.apply(u.getValue());
                boolean all = touched.stream().allMatch(k -> Objects.equals(recovered.get(k), with.get(k)));
                boolean none = touched.stream().allMatch(k -> Objects.equals(recovered.get(k), expected.get(k)));
                if (!all && !none) {
                    StringBuilder why = new StringBuilder();
                    for (String k : touched)
                        why.append("\n  ")
                                .append(k)
                                .append(": recovered ")
                                .append(recovered.get(k))
                                .append(" / without ")
                                .append(expected.get(k))
                                .append(" / with ")
                                .append(with.get(k));
                    throw new AssertionError("transaction " + u.getKey()
                            + " of unknown fate is neither whole nor absent (" + db.recovery() + "):" + why);
                }
                if (all && !none) {
                    expected.apply(u.getValue());
                    applied++;
                } else {
                    absent++;
                }
            }
            // None lost, none extra: the recovered tables are exactly the expected ones.
            for (String table : expected.tables.keySet()) {
                Map<String, String> want = expected.tables.get(table), got = recovered.tables.get(table);
                Set<String> missing = new HashSet<>(want.keySet());
                missing.removeAll(got.keySet());
                Set<String> extra = new HashSet<>(got.keySet());
                extra.removeAll(want.keySet());
                assertThat(missing).as("%s rows lost (kill in %s)", table, dir).isEmpty();
                assertThat(extra)
                        .as("%s rows that no durable transaction wrote (%s)", table, dir)
                        .isEmpty();
                for (String key : want.keySet())
                    assertThat(got.get(key)).as("%s %s", table, key).isEqualTo(want.get(key));
            }
            // A transaction of unknown fate is visible only if the log has a COMMIT no callback accounts for.
            long writeDurable = durableTs.keySet().stream()
                    .filter(id -> !proposed.get(id).isEmpty())
                    .count();
            assertThat((long) onDisk.size()).isGreaterThanOrEqualTo(writeDurable + applied);

            // Every index agrees with its table: rebuilt over the recovered slots, it finds each row.
            Transaction t = mix.tm.begin();
            for (TpccLikeMix.Indexed ix : mix.tables()) {
                if (ix.name().equals("history")) continue;
                ix.rebuildIndex();
                Map<String, String> want = expected.tables.get(ix.name());
                assertThat(ix.index).hasSize(want.size());
                Record rec = new Record(ix.table.schema());
                for (Map.Entry<String, String> e : want.entrySet()) {
                    assertThat(ix.get(t, Long.parseLong(e.getKey()), rec)).isTrue();
                    assertThat(TpccLikeMix.render(rec)).isEqualTo(e.getValue());
                }
            }
            mix.tm.commit(t);

            // Frozen blocks are valid Arrow: freeze everything, export, read with Arrow's own reader.
            long frozen = 0, rows = 0;
            try (BufferAllocator allocator = new RootAllocator()) {
                for (TpccLikeMix.Indexed ix : mix.tables()) {
                    frozen += new BlockTransformer(ix.table, db.gc(), 1, 4).freezeNow(db.gc(), 100);
                    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                    ArrowExport.Written w = ArrowExport.writeStream(allocator, ix.table, bytes);
                    List<String> read = new ArrayList<>();
                    try (ArrowStreamReader in =
                            new ArrowStreamReader(new ByteArrayInputStream(bytes.toByteArray()), allocator)) {
                        VectorSchemaRoot root = in.getVectorSchemaRoot();
                        while (in.loadNextBatch()) {
                            for (int i = 0; i < root.getRowCount(); i++) read.add(render(root, i));
                        }
                    }
                    List<String> want =
                            new ArrayList<>(expected.tables.get(ix.name()).values());
                    read.sort(null);
                    want.sort(null);
                    assertThat(read)
                            .as("%s read back through ArrowStreamReader", ix.name())
                            .isEqualTo(want);
                    assertThat(w.rows()).isEqualTo(want.size());
                    rows += read.size();
                }
            }
            return new Outcome(
                    durableTs.size(),
                    writes,
                    applied,
                    absent,
                    frozen,
                    rows,
                    db.recovery().damage());
        }
    }

    /** A row of an Arrow batch rendered as {@link TpccLikeMix#render(Record)} renders it. */
    static String render(VectorSchemaRoot root, int i) {
        StringBuilder sb = new StringBuilder();
        for (FieldVector v : root.getFieldVectors()) {
            if (sb.length() > 0) sb.append(',');
            Object o = v.getObject(i);
            if (o == null) sb.append('~');
            else if (o instanceof Double d) sb.append(Double.doubleToRawLongBits(d));
            else if (o instanceof Number n) sb.append(n.longValue());
            else {
                byte[] b = o instanceof Text t ? t.copyBytes() : (byte[]) o;
                sb.append('x');
                for (byte x : b) sb.append(String.format("%02x", x & 0xFF));
            }
        }
        return sb.toString();
    }

    static void deleteTree(Path dir) throws IOException {
        try (var files = Files.walk(dir)) {
            for (Path p :
                    files.sorted((a, b) -> b.getNameCount() - a.getNameCount()).toList()) Files.delete(p);
        }
    }
}
