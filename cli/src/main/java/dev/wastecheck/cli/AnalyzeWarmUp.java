package dev.wastecheck.cli;

import dev.wastecheck.model.ddl.DdlCatalog;
import dev.wastecheck.model.schema.Dialect;
import java.util.List;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Readies, on threads of their own while the command line is parsed, what the first rows of a dump
 * wait for: Arrow's allocator (Netty's arenas, which the profiling database's allocator sets up
 * first), Arrow's schema and vectors (Arrow's {@code Schema} builds a Jackson reader in its class
 * initializer), and JSqlParser's parser (its classes and the first parse of a CREATE TABLE, which
 * the reader needs before a table's rows can be filled). Each was on the path from the start to
 * the first batch: in a JFR of analyze of the orders and ORM dumps at 100 MB (docs/benchmarks.md,
 * issue 32), {@code Schema}'s class initializer took 19 of the filler's first samples and
 * JSqlParser's first parse 0.1 s of the reader's start. Two threads, the parser on one and Arrow on
 * the other, Netty first: on one thread after the parser, Netty's set-up was still to come when the
 * main thread opened the profiling database and took it on itself (0.10 s of its start in a
 * class-load log of orders at 100 MB, the sixteenth session). Nothing here is kept: a failure is
 * left for the real load to meet and report.
 */
final class AnalyzeWarmUp {
    private AnalyzeWarmUp() {}

    static void start() {
        Thread arrow = new Thread(AnalyzeWarmUp::arrow, "wastecheck-warm-up-arrow");
        arrow.setDaemon(true);
        arrow.start();
        Thread ddl = new Thread(AnalyzeWarmUp::ddl, "wastecheck-warm-up-ddl");
        ddl.setDaemon(true);
        ddl.start();
    }

    private static void ddl() {
        try {
            new DdlCatalog(Dialect.MYSQL)
                    .accept(
                            "CREATE TABLE `warm_up` (`id` bigint NOT NULL AUTO_INCREMENT, `name` varchar(16) DEFAULT NULL,"
                                    + " `at` datetime(6) DEFAULT NULL, PRIMARY KEY (`id`)) ENGINE=InnoDB",
                            "warm-up",
                            1);
        } catch (RuntimeException | LinkageError e) {
            // only a head start: the load meets the same failure and reports it
        }
    }

    private static void arrow() {
        try (BufferAllocator allocator = new RootAllocator(1 << 20)) {
            allocator.buffer(64).close(); // Netty's allocator and its arenas
            Schema schema = new Schema(List.of(
                    Field.nullable("id", new ArrowType.Int(64, true)),
                    Field.nullable("name", ArrowType.Utf8.INSTANCE)));
            try (VectorSchemaRoot root = VectorSchemaRoot.create(schema, allocator)) {
                root.allocateNew();
                ((BigIntVector) root.getVector(0)).setSafe(0, 1);
                ((VarCharVector) root.getVector(1)).setSafe(0, new byte[] {'w'});
                root.setRowCount(1);
            }
        } catch (RuntimeException | LinkageError e) {
            // only a head start: the load meets the same failure and reports it
        }
    }
}
