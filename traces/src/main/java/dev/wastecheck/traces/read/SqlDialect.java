package dev.wastecheck.traces.read;

/**
 * Which server's lexical rules a statement follows: MySQL (backticks, backslash escapes in strings,
 * double quotes delimit strings) or PostgreSQL (double quotes delimit identifiers, standard strings).
 * {@link #UNKNOWN} reads backticks as identifiers, backslashes as escapes, and a double-quoted word
 * as an identifier when the schema has that name, else as a string.
 */
public enum SqlDialect {
    MYSQL, POSTGRESQL, UNKNOWN
}
