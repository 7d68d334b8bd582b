package dev.wastecheck.analyzer.report;

/**
 * One thing found about a column.
 *
 * @param kind  a short stable word (DESIGN.md lists them): {@code narrow_integer}, {@code constant}, ...
 * @param bytes bytes the finding's remedy would save, measured in the source engine's storage model
 *              (0 when it saves none or is not about size)
 */
public record Finding(String kind, String detail, long bytes) {
}
