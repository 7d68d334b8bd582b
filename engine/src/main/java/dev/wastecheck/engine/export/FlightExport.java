package dev.wastecheck.engine.export;

import dev.wastecheck.engine.block.ArrowTable;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.arrow.flight.CallStatus;
import org.apache.arrow.flight.FlightDescriptor;
import org.apache.arrow.flight.FlightEndpoint;
import org.apache.arrow.flight.FlightInfo;
import org.apache.arrow.flight.FlightServer;
import org.apache.arrow.flight.FlightStream;
import org.apache.arrow.flight.Location;
import org.apache.arrow.flight.NoOpFlightProducer;
import org.apache.arrow.flight.Ticket;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.dictionary.DictionaryEncoder;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * Serves {@link ArrowTable}s over Arrow Flight (Li et al., VLDB 2020, §5.3: an RPC framework that
 * moves Arrow batches as they are, instead of a row-by-row wire protocol). A table's ticket is its
 * name; {@code listFlights} lists them all. Each {@code getStream} reads one snapshot through a
 * {@link TableArrowReader}: frozen blocks go to gRPC straight from their buffers.
 */
public final class FlightExport extends NoOpFlightProducer {
    private final BufferAllocator allocator;
    private final Map<String, ArrowTable> tables = new LinkedHashMap<>();

    public FlightExport(BufferAllocator allocator, Iterable<ArrowTable> tables) {
        this.allocator = allocator;
        for (ArrowTable t : tables) this.tables.put(t.name(), t);
    }

    /**
     * Starts a Flight server for {@code tables} on {@code host}:{@code port} (port 0 picks a free
     * one; {@link FlightServer#getPort()} tells which).
     */
    public static FlightServer serve(BufferAllocator allocator, Iterable<ArrowTable> tables, String host, int port)
            throws IOException {
        return FlightServer.builder(
                        allocator, Location.forGrpcInsecure(host, port), new FlightExport(allocator, tables))
                .build()
                .start();
    }

    private ArrowTable table(byte[] name) {
        String n = new String(name, StandardCharsets.UTF_8);
        ArrowTable t = tables.get(n);
        if (t == null)
            throw CallStatus.NOT_FOUND
                    .withDescription("no table " + n + "; tables: " + tables.keySet())
                    .toRuntimeException();
        return t;
    }

    @Override
    public void getStream(CallContext context, Ticket ticket, ServerStreamListener listener) {
        ArrowTable t = table(ticket.getBytes());
        try (TableArrowReader reader = new TableArrowReader(allocator, t)) {
            if (t.freezeMode() == ArrowTable.FreezeMode.DICTIONARY) {
                streamDecoded(t, reader, listener);
                return;
            }
            listener.start(reader.getVectorSchemaRoot(), reader);
            while (reader.loadNextBatch()) {
                if (listener.isCancelled()) break;
                listener.putNext();
            }
            listener.completed();
        } catch (IOException | RuntimeException e) {
            listener.error(CallStatus.INTERNAL
                    .withDescription(t.name() + ": " + e.getMessage())
                    .withCause(e)
                    .toRuntimeException());
        }
    }

    /**
     * A Flight stream sends its dictionaries once, before the first batch, and a dictionary table has
     * one per block: its dictionary columns go decoded (Arrow's {@link DictionaryEncoder}, a copy), the
     * other columns as they are.
     */
    private void streamDecoded(ArrowTable t, TableArrowReader reader, ServerStreamListener listener)
            throws IOException {
        try (VectorSchemaRoot out = VectorSchemaRoot.create(TableArrowReader.plainSchemaOf(t), allocator)) {
            listener.start(out);
            VectorSchemaRoot in = reader.getVectorSchemaRoot();
            while (reader.loadNextBatch()) {
                if (listener.isCancelled()) break;
                for (int c = 0; c < in.getFieldVectors().size(); c++) {
                    FieldVector v = in.getVector(c);
                    if (v.getField().getDictionary() == null) {
                        v.makeTransferPair(out.getVector(c)).transfer();
                    } else {
                        try (ValueVector plain = DictionaryEncoder.decode(
                                v, reader.lookup(v.getField().getDictionary().getId()))) {
                            plain.makeTransferPair(out.getVector(c)).transfer();
                        }
                    }
                }
                out.setRowCount(in.getRowCount());
                listener.putNext();
            }
            listener.completed();
        }
    }

    @Override
    public FlightInfo getFlightInfo(CallContext context, FlightDescriptor descriptor) {
        byte[] name = descriptor.isCommand()
                ? descriptor.getCommand()
                : String.join(".", descriptor.getPath()).getBytes(StandardCharsets.UTF_8);
        return info(table(name), descriptor);
    }

    @Override
    public void listFlights(
            CallContext context, org.apache.arrow.flight.Criteria criteria, StreamListener<FlightInfo> listener) {
        for (ArrowTable t : tables.values()) listener.onNext(info(t, FlightDescriptor.path(t.name())));
        listener.onCompleted();
    }

    private FlightInfo info(ArrowTable t, FlightDescriptor descriptor) {
        Schema schema = t.freezeMode() == ArrowTable.FreezeMode.DICTIONARY
                ? TableArrowReader.plainSchemaOf(t)
                : TableArrowReader.schemaOf(t);
        // The counts a client plans with: the tuples in the newest version, and the bytes the blocks
        // and their values take (what the stream moves, give or take the IPC framing).
        return new FlightInfo(
                schema,
                descriptor,
                List.of(new FlightEndpoint(new Ticket(t.name().getBytes(StandardCharsets.UTF_8)))),
                t.memoryBytes(),
                t.liveTuples());
    }

    /** Reads a whole stream and counts its rows (a client helper for tests and the benchmark). */
    public static long countRows(FlightStream stream) {
        long rows = 0;
        while (stream.next()) rows += stream.getRoot().getRowCount();
        return rows;
    }
}
