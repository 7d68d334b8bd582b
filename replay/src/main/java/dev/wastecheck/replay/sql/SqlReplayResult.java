package dev.wastecheck.replay.sql;

import dev.wastecheck.model.access.ResultDigest;
import java.util.BitSet;

/**
 * What replaying a trace's access events on one engine measured.
 *
 * @param engine        the engine
 * @param queries       events executed (each has a digest and, unless its literal could not be bound, a latency)
 * @param skipped       events not executed: scans, keys not fully known, tables not loaded, updates
 *                      and inserts without literal values
 * @param rows          rows the executed SELECTs returned plus rows the executed INSERT, UPDATE and
 *                      DELETE statements changed
 * @param elapsedNanos  wall-clock time of the replay phase (statement preparation included, loading not)
 * @param throughputQps executed events per second of {@code elapsedNanos}
 * @param p50Us         median latency of one executed event (bind excluded, execute and fetch included), in microseconds
 * @param p95Us         95th percentile latency, in microseconds
 * @param p99Us         99th percentile latency, in microseconds
 * @param meanUs        mean latency, in microseconds
 * @param digests       per executed event, in event order, its {@link ResultDigest}
 * @param executedEvents which events (by position in the list replayed) were executed
 * @param loadMillis    time to create, fill and index the engine's tables, not part of the replay
 */
public record SqlReplayResult(
        SqlEngine engine,
        long queries,
        long skipped,
        long rows,
        long elapsedNanos,
        double throughputQps,
        double p50Us,
        double p95Us,
        double p99Us,
        double meanUs,
        long[] digests,
        long loadMillis,
        BitSet executedEvents) {}
