package dev.wastecheck.analyzer.report;

/** One field an index should cache, and the share of its queries answered once it is cached. */
public record CachedField(String column, double answerableShare) {}
