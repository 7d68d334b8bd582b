package dev.wastecheck.traces.read;

/** The trace formats {@link TraceReader} detects from a file's content. */
public enum TraceFormat {
    /** {@code trace generate}'s own: {@code -- wastecheck trace v1} header, then {@code /* ISO time *&#47; statement;} per line. */
    WASTECHECK,
    /** WikiBench (Urdaneta, Pierre, van Steen 2009) URL traces: {@code counter timestamp url flag}, flag {@code -} or {@code save}. */
    WIKIBENCH,
    /** Wikimedia pageview counts (pagecounts-raw, pageviews): {@code domain title count bytes}. */
    PAGEVIEW_COUNTS,
    /** MySQL's general query log (5.x {@code YYMMDD HH:MM:SS} and 8.x ISO-8601 timestamps). */
    MYSQL_GENERAL_LOG,
    /** PostgreSQL server log with {@code log_statement} (and {@code duration}) lines, prepared statements' parameters from DETAIL lines. */
    POSTGRESQL_LOG,
    /** A plain file of {@code ;}-terminated SQL statements. */
    SQL_STATEMENTS
}
