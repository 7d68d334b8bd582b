package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code wastecheck serve --flight PORT}: a dump's tables, frozen into Arrow blocks, read back on
 * loopback by Arrow Java's Flight client and by pyarrow's (another language's Arrow library, when
 * installed): every row, the row counts in each FlightInfo, and {@code int} columns at 32 bits.
 */
class ServeFlightTest {
    static final long PRICE_SUM = priceSum();

    static long priceSum() {
        long s = 0;
        for (int i = 1; i <= 3000; i++) s += i * 7 % 1000;
        return s;
    }

    static Path shopDump(Path dir) throws Exception {
        Path dump = dir.resolve("shop.sql");
        StringBuilder sql = new StringBuilder(
                "CREATE TABLE `item` (`id` int NOT NULL, `name` varchar(40), `price` int, PRIMARY KEY (`id`));\n");
        sql.append("INSERT INTO `item` VALUES ");
        for (int i = 1; i <= 3000; i++) {
            if (i > 1) sql.append(',');
            sql.append('(')
                    .append(i)
                    .append(',')
                    .append(i % 10 == 0 ? "NULL" : "'item number " + i + "'")
                    .append(',')
                    .append(i * 7 % 1000)
                    .append(')');
        }
        sql.append(
                ";\nCREATE TABLE `tag` (`item_id` int NOT NULL, `tag` varchar(10));\nINSERT INTO `tag` VALUES (1,'red'),(2,'blue');\n");
        Files.writeString(dump, sql.toString());
        return dump;
    }

    @Test
    void servesEveryTableOfADumpOverFlight(@TempDir Path dir) throws Exception {
        Path dump = shopDump(dir);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        AtomicReference<Cli.Result> result = new AtomicReference<>();
        Thread server = new Thread(
                () -> result.set(Cli.run("serve", "--data", dump.toString(), "--flight", String.valueOf(port), "-q")));
        server.start();
        try (BufferAllocator allocator = new RootAllocator();
                FlightClient client = FlightClient.builder(allocator, Location.forGrpcInsecure("127.0.0.1", port))
                        .build()) {
            List<String> names = new ArrayList<>();
            Map<String, FlightInfo> infos = new HashMap<>();
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (names.isEmpty()) {
                try {
                    for (FlightInfo info : client.listFlights(org.apache.arrow.flight.Criteria.ALL)) {
                        names.add(info.getDescriptor().getPath().get(0));
                        infos.put(names.get(names.size() - 1), info);
                    }
                } catch (RuntimeException notYet) {
                    if (System.nanoTime() > deadline || !server.isAlive())
                        throw new AssertionError("server did not start: " + result.get(), notYet);
                    Thread.sleep(200);
                }
            }
            assertThat(names).containsExactlyInAnyOrder("item", "tag");
            // What a client plans with: the real counts, and an int column at its declared 32 bits.
            assertThat(infos.get("item").getRecords()).isEqualTo(3000);
            assertThat(infos.get("tag").getRecords()).isEqualTo(2);
            Schema item = infos.get("item").getSchemaOptional().orElseThrow();
            assertThat(item.findField("id").getType()).isEqualTo(new ArrowType.Int(32, true));
            assertThat(item.findField("price").getType()).isEqualTo(new ArrowType.Int(32, true));
            assertThat(item.findField("name").getType()).isEqualTo(ArrowType.Utf8.INSTANCE);
            List<String> rows = new ArrayList<>();
            try (FlightStream s = client.getStream(new Ticket("item".getBytes(StandardCharsets.UTF_8)))) {
                while (s.next()) {
                    VectorSchemaRoot root = s.getRoot();
                    assertThat(root.getVector("id")).isInstanceOf(IntVector.class);
                    for (int i = 0; i < root.getRowCount(); i++) {
                        rows.add(root.getVector("id").getObject(i) + "|"
                                + root.getVector("name").getObject(i) + "|"
                                + root.getVector("price").getObject(i));
                    }
                }
            }
            assertThat(rows).hasSize(3000).contains("1|item number 1|7", "10|null|70", "3000|null|0");
        } finally {
            server.interrupt();
            server.join();
        }
        assertThat(result.get().exitCode()).as(result.get().err()).isZero();
        assertThat(result.get().err()).contains("item: 3000 rows in 1 blocks (1 frozen)");
    }

    /** Whether pyarrow with Flight imports here; the reason when it does not. */
    static String pyarrowMissing() {
        try {
            Process p = new ProcessBuilder("python3", "-c", "import pyarrow.flight")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) return "python3 -c 'import pyarrow.flight' did not finish";
            return p.exitValue() == 0 ? null : "pyarrow is not installed (pip install pyarrow): " + out.strip();
        } catch (Exception e) {
            return "no python3 here: " + e.getMessage();
        }
    }

    static final String PYARROW_CLIENT = String.join(
            "\n",
            "import sys, time, pyarrow as pa, pyarrow.flight as fl",
            "c = fl.FlightClient('grpc://127.0.0.1:' + sys.argv[1])",
            "for attempt in range(300):",
            "    try:",
            "        infos = list(c.list_flights())",
            "        break",
            "    except fl.FlightUnavailableError:",
            "        time.sleep(0.2)",
            "for info in sorted(infos, key=lambda i: i.descriptor.path[0]):",
            "    name = info.descriptor.path[0].decode()",
            "    t = c.do_get(info.endpoints[0].ticket).read_all()",
            "    print(name, info.total_records, t.num_rows, ','.join(f'{f.name}:{f.type}' for f in t.schema))",
            "    if name == 'item':",
            "        ids = t.column('id').to_pylist()",
            "        print('item', len(set(ids)), min(ids), max(ids), sum(v for v in t.column('price').to_pylist() if v is not None),",
            "              t.column('name').null_count, t.column('name').to_pylist()[ids.index(7)])");

    @Test
    void pyarrowsFlightClientReadsEveryRowAtDeclaredWidths(@TempDir Path dir) throws Exception {
        String missing = pyarrowMissing();
        Assumptions.assumeTrue(missing == null, missing);
        Path dump = shopDump(dir);
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        AtomicReference<Cli.Result> result = new AtomicReference<>();
        Thread server = new Thread(
                () -> result.set(Cli.run("serve", "--data", dump.toString(), "--flight", String.valueOf(port), "-q")));
        server.start();
        String out;
        try {
            Process p = new ProcessBuilder("python3", "-c", PYARROW_CLIENT, String.valueOf(port))
                    .redirectErrorStream(true)
                    .start();
            out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
        } finally {
            server.interrupt();
            server.join();
        }
        assertThat(out.lines().toList())
                .containsExactly(
                        "item 3000 3000 id:int32,name:string,price:int32",
                        "item 3000 1 3000 " + PRICE_SUM + " 300 item number 7",
                        "tag 2 2 item_id:int32,tag:string");
    }
}
