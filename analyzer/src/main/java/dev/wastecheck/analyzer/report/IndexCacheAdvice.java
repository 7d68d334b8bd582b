package dev.wastecheck.analyzer.report;

import java.util.List;

/**
 * Fields worth caching in an index's leaves (§2.1.4), ranked: each field's share is the share of
 * the index's queries that the key plus it and the fields ranked before it answer alone.
 *
 * @param leftOut fields queries project but that are updated too often to cache
 */
public record IndexCacheAdvice(
        String table,
        String index,
        List<String> columns,
        long queries,
        List<CachedField> cacheableFields,
        List<String> leftOut) {
    public IndexCacheAdvice {
        columns = List.copyOf(columns);
        cacheableFields = List.copyOf(cacheableFields);
        leftOut = List.copyOf(leftOut);
    }
}
