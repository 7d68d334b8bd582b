package dev.wastecheck.cli;

import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.IndexFinding;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.BadInputException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One {@code analyze --fail-on} threshold, the gate a CI pipeline puts before a schema change: the
 * share of declared bytes wasted ({@code waste=20%}), wasted bytes over a budget
 * ({@code bytes=10MB}), or any finding of a kind ({@code functional_dependency}). Crossing one
 * exits 3 after the report is written.
 *
 * <p>Waste is the report's own account: declared bytes minus the bytes under the suggested types
 * (the totals of docs/json.md), so the gate and the report never disagree. Size units follow the
 * usual convention: {@code KB}, {@code MB}, {@code GB}, {@code TB} are powers of 1000,
 * {@code KiB} ... {@code TiB} (and the bare {@code K}, {@code M}, {@code G}, {@code T}, as
 * {@code --memory} takes them) powers of 1024.
 *
 * @param spec    the threshold as the user wrote it, for messages
 * @param share   for {@code waste=}: the share of declared bytes (0 to 1) that may be wasted, else -1
 * @param budget  for {@code bytes=}: the wasted bytes allowed, else -1
 * @param kind    for a kind: the finding kind that fails the gate, else null
 */
record FailOn(String spec, double share, long budget, FindingKind kind) {
    /** How many crossing findings stderr lists before "... and N more". */
    static final int LISTED = 10;

    private static final Pattern SIZE =
            Pattern.compile("(?i)(\\d+(?:\\.\\d+)?)\\s*(b|kb|mb|gb|tb|kib|mib|gib|tib|k|m|g|t)?");

    /**
     * Parses one {@code --fail-on} value.
     *
     * @throws BadInputException for a spec that is none of the three forms, naming the nearest kind on a typo
     */
    static FailOn parse(String spec) {
        String s = spec.trim();
        String lower = s.toLowerCase(Locale.ROOT);
        if (lower.startsWith("waste=")) {
            String v = s.substring("waste=".length()).trim();
            String number = v.endsWith("%") ? v.substring(0, v.length() - 1).trim() : v;
            try {
                double percent = Double.parseDouble(number);
                if (percent >= 0 && percent <= 100) {
                    return new FailOn(s, percent / 100, -1, null);
                }
            } catch (NumberFormatException e) {
                // the message below says what was expected
            }
            throw new BadInputException(
                    "--fail-on " + spec + ": expected waste=PERCENT from 0 to 100, such as waste=20%");
        }
        if (lower.startsWith("bytes=")) {
            Matcher m = SIZE.matcher(s.substring("bytes=".length()).trim());
            if (m.matches()) {
                return new FailOn(s, -1, bytes(m.group(1), m.group(2)), null);
            }
            throw new BadInputException("--fail-on " + spec
                    + ": expected bytes=SIZE, such as bytes=10MB (10,000,000 bytes), bytes=10MiB or bytes=500000");
        }
        for (FindingKind k : FindingKind.values()) {
            if (k.key().equals(lower)) {
                return new FailOn(s, -1, -1, k);
            }
        }
        String nearest = null;
        int best = Integer.MAX_VALUE;
        for (FindingKind k : FindingKind.values()) {
            int d = Main.distance(lower, k.key());
            if (d < best) {
                best = d;
                nearest = k.key();
            }
        }
        String hint = best <= Math.max(2, lower.length() / 4) ? "did you mean " + nearest + "? " : "";
        throw new BadInputException("--fail-on " + spec + ": not a threshold; " + hint
                + "expected waste=PERCENT, bytes=SIZE or a finding kind (" + kinds() + ")");
    }

    private static String kinds() {
        List<String> keys = new ArrayList<>();
        for (FindingKind k : FindingKind.values()) {
            keys.add(k.key());
        }
        return String.join(", ", keys);
    }

    private static long bytes(String number, String unit) {
        long mult = switch (unit == null ? "b" : unit.toLowerCase(Locale.ROOT)) {
            case "kb" -> 1_000L;
            case "mb" -> 1_000_000L;
            case "gb" -> 1_000_000_000L;
            case "tb" -> 1_000_000_000_000L;
            case "kib", "k" -> 1L << 10;
            case "mib", "m" -> 1L << 20;
            case "gib", "g" -> 1L << 30;
            case "tib", "t" -> 1L << 40;
            default -> 1L;
        };
        return new BigDecimal(number).multiply(BigDecimal.valueOf(mult)).longValue();
    }

    /**
     * What crossed a threshold: a column and its bytes wasted with the kinds of its findings (a
     * share or a budget), or a finding of the kind asked for.
     */
    record Crossing(String column, String what, long bytes) {
        @Override
        public String toString() {
            return column + ": " + what + (bytes > 0 ? String.format(Locale.ROOT, ", %,d bytes", bytes) : "");
        }
    }

    /** Whether {@code report} crosses this threshold. */
    boolean crossed(AnalysisReport report) {
        if (kind != null) {
            return report.tables().stream().flatMap(t -> t.columns().stream()).anyMatch(c -> c.has(kind))
                    || report.indexFindings().stream().anyMatch(f -> f.kind() == kind);
        }
        if (budget >= 0) {
            return report.wastedBytes() > budget;
        }
        return report.declaredBytes() > 0 && (double) report.wastedBytes() / report.declaredBytes() > share;
    }

    /**
     * What crossed this threshold in {@code report}: for a kind, every finding of it in report
     * order; for a share or a budget, the columns that waste bytes, largest first.
     */
    List<Crossing> crossings(AnalysisReport report) {
        List<Crossing> all = new ArrayList<>();
        for (TableReport t : report.tables()) {
            for (ColumnReport c : t.columns()) {
                String where = t.name() + "." + c.name();
                if (kind != null) {
                    for (Finding f : c.findings()) {
                        if (f.kind() == kind) {
                            all.add(new Crossing(where, f.kind() + " (" + f.detail() + ")", f.bytes()));
                        }
                    }
                } else if (c.wastedBytes() > 0) {
                    String kinds = c.findings().stream()
                            .filter(f -> !f.kind().note())
                            .map(f -> f.kind().key())
                            .distinct()
                            .collect(Collectors.joining(", "));
                    all.add(new Crossing(
                            where,
                            c.declaredType() + " -> " + c.suggestedType() + (kinds.isEmpty() ? "" : " (" + kinds + ")"),
                            c.wastedBytes()));
                }
            }
        }
        if (kind != null) {
            for (IndexFinding f : report.indexFindings()) {
                if (f.kind() == kind) {
                    all.add(new Crossing(
                            f.table() + "." + f.index(), f.kind() + " (" + f.detail() + ")", Math.max(0, f.bytes())));
                }
            }
        }
        if (kind == null) {
            all.sort(Comparator.comparingLong(Crossing::bytes).reversed());
        }
        return all;
    }

    /** The stderr line that says why the gate failed. */
    String why(AnalysisReport report, int findings) {
        if (kind != null) {
            return String.format(
                    Locale.ROOT, "--fail-on %s: %,d %s finding%s", spec, findings, kind, findings == 1 ? "" : "s");
        }
        if (budget >= 0) {
            return String.format(
                    Locale.ROOT,
                    "--fail-on %s: %,d bytes wasted, over the budget of %,d",
                    spec,
                    report.wastedBytes(),
                    budget);
        }
        return String.format(
                Locale.ROOT,
                "--fail-on %s: %.1f%% of %,d declared bytes wasted (%,d), over %s%%",
                spec,
                100.0 * report.wastedBytes() / report.declaredBytes(),
                report.declaredBytes(),
                report.wastedBytes(),
                BigDecimal.valueOf(share * 100).stripTrailingZeros().toPlainString());
    }
}
