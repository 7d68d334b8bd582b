package dev.wastecheck.analyzer.report;

/**
 * One thing found about a column.
 *
 * @param kind  what it is about; its stable word ({@code narrow_integer}, {@code constant}, ...) is what reports print
 * @param bytes bytes the finding's remedy would save, measured in the source engine's storage model
 *              (0 when it saves none or is not about size)
 */
public record Finding(FindingKind kind, String detail, long bytes) {}
