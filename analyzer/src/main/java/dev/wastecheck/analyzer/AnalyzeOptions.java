package dev.wastecheck.analyzer;

import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.semantic.FunctionalDependencies;
import dev.wastecheck.analyzer.space.SpaceAnalysis;
import dev.wastecheck.sources.load.LoadOptions;
import java.nio.file.Path;
import java.util.List;

/**
 * What to analyze and how: {@code wastecheck analyze}'s options, as values.
 *
 * @param sources   dump files, database files or folders, or one JDBC URL
 * @param traces    query traces to read the workload from; empty for none
 * @param inference the type policy (headroom, ENUM size, evidence)
 * @param load      how the sources are read (the profiling database, bad rows, a live source's sample)
 * @param dependencies how the functional-dependency search runs ("No Bits Left Behind" §4.2)
 * @param space     how free space is measured (PostgreSQL's exact pgstattuple) and what share of it is a finding
 */
public record AnalyzeOptions(
        List<String> sources,
        List<Path> traces,
        InferenceOptions inference,
        LoadOptions load,
        FunctionalDependencies.Options dependencies,
        SpaceAnalysis.Options space) {
    public AnalyzeOptions {
        sources = List.copyOf(sources);
        traces = List.copyOf(traces);
    }

    /** With the default dependency search. */
    public AnalyzeOptions(List<String> sources, List<Path> traces, InferenceOptions inference, LoadOptions load) {
        this(sources, traces, inference, load, FunctionalDependencies.Options.defaults());
    }

    /** With the default space measures. */
    public AnalyzeOptions(
            List<String> sources,
            List<Path> traces,
            InferenceOptions inference,
            LoadOptions load,
            FunctionalDependencies.Options dependencies) {
        this(sources, traces, inference, load, dependencies, SpaceAnalysis.Options.defaults());
    }
}
