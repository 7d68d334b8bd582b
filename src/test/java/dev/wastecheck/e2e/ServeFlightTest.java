package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.arrow.flight.FlightClient;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code wastecheck serve --flight PORT}: a dump's tables, frozen into Arrow blocks, read back by a Flight client on loopback. */
class ServeFlightTest {
    @Test
    void servesEveryTableOfADumpOverFlight(@TempDir Path dir) throws Exception {
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
            long deadline = System.nanoTime() + 60_000_000_000L;
            while (names.isEmpty()) {
                try {
                    for (FlightInfo info : client.listFlights(org.apache.arrow.flight.Criteria.ALL))
                        names.add(info.getDescriptor().getPath().get(0));
                } catch (RuntimeException notYet) {
                    if (System.nanoTime() > deadline || !server.isAlive())
                        throw new AssertionError("server did not start: " + result.get(), notYet);
                    Thread.sleep(200);
                }
            }
            assertThat(names).containsExactlyInAnyOrder("item", "tag");
            List<String> rows = new ArrayList<>();
            try (FlightStream s = client.getStream(new Ticket("item".getBytes(StandardCharsets.UTF_8)))) {
                while (s.next()) {
                    VectorSchemaRoot root = s.getRoot();
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
}
