package dev.wastecheck.analyzer.infer;

import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.Dialect;
import dev.wastecheck.sources.load.LoadedTable;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * How wide the identifiers must stay: a key fed by a counter, every column that refers to it, and
 * the columns of one domain get one integer type, decided from what the database will need rather
 * than from the snapshot's maximum (docs/analyze.md, "Growth").
 *
 * <ul>
 *   <li>A key and its references are never narrowed below the floor ({@code --key-floor}, 4 bytes:
 *       MySQL INT, PostgreSQL integer). The one change offered is BIGINT to INT, and only when
 *       the largest id or the counter's next value, times {@code --id-headroom}, fits, and the
 *       ids per day its table's creation timestamps show leave more than {@code --horizon-years}
 *       before INT runs out.</li>
 *   <li>With fewer than {@code --min-rows} rows behind the key, nothing is decided: too little evidence.</li>
 *   <li>A domain (MediaWiki's namespaces) takes the widest type any of its columns needs, with
 *       ordinary headroom, never below SMALLINT: namespace numbers are assigned by extensions
 *       (Semantic MediaWiki 102, Scribunto 828, Gadgets 2300), not by row growth.</li>
 * </ul>
 */
public final class IntegerPolicy {
    /**
     * The decision for a column of a group.
     *
     * @param bytes  the width the group takes, or 0 to keep every member's declared type
     * @param signed whether a member declared unsigned must still take the signed type (a member is signed)
     * @param why    why: the evidence and room behind the width, or why the declared type stays
     */
    public record Verdict(String group, boolean domain, boolean key, int bytes, boolean signed, String why) {
        public boolean keep() {
            return bytes == 0;
        }
    }

    /** How fast a table's key grows: ids per day over its rows' creation timestamps. */
    record Rate(double idsPerDay, String column, double days) {}

    private final InferenceOptions options;
    private final DialectTypes types;

    public IntegerPolicy(Dialect dialect, InferenceOptions options) {
        this.options = options;
        this.types = new DialectTypes(dialect);
    }

    /**
     * A verdict for every integer column of a group, and for every lone key or column named as an
     * identifier, keyed by lower-case {@code table.column}.
     *
     * @param counters each auto-increment counter's next value, by lower-case {@code table.column}
     */
    public Map<String, Verdict> decide(
            References refs,
            Collection<LoadedTable> tables,
            Map<String, List<ColumnProfile>> profiles,
            Map<String, BigInteger> counters) {
        Map<String, Verdict> out = new HashMap<>();
        for (References.Group g : refs.groups()) {
            List<References.Col> members =
                    g.members().stream().filter(c -> c.def().type().isInteger()).toList();
            if (members.isEmpty()) {
                continue;
            }
            Verdict v = decide(g.name(), g.domain(), g.keys(), members, profiles, counters);
            members.forEach(c -> out.put(c.id(), v));
        }
        for (LoadedTable t : tables) {
            References.Col key = References.keyOf(t);
            for (int i = 0; i < t.def().columns().size(); i++) {
                References.Col c = new References.Col(t, i);
                ColumnDef col = c.def();
                if (out.containsKey(c.id()) || !col.type().isInteger()) {
                    continue;
                }
                boolean isKey = key != null && key.index() == i;
                if (isKey || ColumnNames.isIdName(col.name())) {
                    out.put(
                            c.id(),
                            decide(
                                    c.toString(),
                                    false,
                                    isKey ? List.of(c) : List.of(),
                                    List.of(c),
                                    profiles,
                                    counters));
                }
            }
        }
        return out;
    }

    private Verdict decide(
            String name,
            boolean domain,
            List<References.Col> keys,
            List<References.Col> members,
            Map<String, List<ColumnProfile>> profiles,
            Map<String, BigInteger> counters) {
        boolean key = !domain;
        long evidence = 0;
        BigInteger lo = null;
        BigInteger hi = null;
        int declaredBytes = 0;
        boolean signed = false;
        for (References.Col c : members) {
            ColumnProfile p = profiles.get(c.table().def().key()).get(c.index());
            declaredBytes = Math.max(declaredBytes, c.def().type().intBits() / 8);
            signed |= !c.def().type().unsigned();
            if (p.minInt != null) {
                lo = lo == null ? p.minInt : lo.min(p.minInt);
                hi = hi == null ? p.maxInt : hi.max(p.maxInt);
            }
            if (domain || keys.isEmpty()) {
                evidence += p.nonNull;
            }
        }
        for (References.Col k : keys) {
            evidence += k.table().rows();
        }
        String what = domain
                ? "the " + name + " domain (" + members.size() + " columns)"
                : keys.isEmpty()
                        ? "an identifier"
                        : members.size() > 1
                                ? "key " + name + " and its " + (members.size() - 1)
                                        + (members.size() == 2 ? " reference" : " references")
                                : "a key";
        String behind = keys.isEmpty()
                ? " values"
                : " rows in "
                        + String.join(
                                " and ",
                                keys.stream()
                                        .map(k -> k.table().def().name())
                                        .distinct()
                                        .toList());
        if (hi == null) {
            return new Verdict(name, domain, key, 0, signed, "");
        }
        if (evidence < options.minRows()) {
            return new Verdict(
                    name,
                    domain,
                    key,
                    0,
                    signed,
                    "too little evidence (" + evidence + behind + ", fewer than --min-rows " + options.minRows() + "): "
                            + what + " keeps its declared type");
        }
        BigInteger counter = null;
        for (References.Col k : keys) {
            BigInteger next = counters.get(k.id());
            if (next != null) {
                counter = counter == null ? next : counter.max(next);
            }
        }
        BigInteger top = counter == null ? hi : hi.max(counter);
        double headroom = domain ? options.headroom() : options.idHeadroom();
        BigInteger needHi = grow(top, headroom).max(top);
        BigInteger needLo = lo.signum() < 0 ? grow(lo, headroom).min(lo) : lo;
        int floor = domain ? 2 : options.keyFloorBytes();
        // A signed member keeps its sign (id - 10 below zero is an error on an unsigned type): the
        // group's width is one whose signed type holds the range.
        DialectTypes.IntegerType fit =
                types.narrowestInteger(signed ? needLo.min(BigInteger.ONE.negate()) : needLo, needHi, !signed);
        if (fit == null) {
            return new Verdict(name, domain, key, 0, signed, "");
        }
        int bytes = atLeast(Math.max(fit.bytes(), floor));
        String room = "max " + hi + (counter != null ? " (its counter hands out " + counter + " next)" : "") + ", x"
                + trim(headroom) + " room: up to " + needHi;
        if (bytes >= declaredBytes) {
            String why = bytes > fit.bytes() && bytes == atLeast(floor)
                    ? (domain
                            ? "namespace numbers are assigned by extensions, not by growth: the namespace domain keeps at least "
                                    + types.integerName(atLeast(floor), false)
                            : what
                                    + " keeps its declared type: keys, the columns referring to them and identifiers are never"
                                    + " narrowed below " + types.integerName(atLeast(floor), false) + " (--key-floor "
                                    + options.keyFloorBytes() + ")")
                    : "no narrower type holds " + room;
            return new Verdict(name, domain, key, 0, signed, why);
        }
        String growth = "";
        if (key && !keys.isEmpty()) {
            Rate rate = rate(keys, profiles, lo, top);
            if (rate == null) {
                growth = "; no timestamp to measure a rate: headroom only";
            } else {
                double years = yearsLeft(bytes, signed, top, rate);
                while (years < options.horizonYears() && bytes < declaredBytes) {
                    bytes = atLeast(bytes + 1);
                    years = yearsLeft(bytes, signed, top, rate);
                }
                String pace = String.format(
                        Locale.ROOT,
                        "%s ids per day over %s's %s days",
                        fmt(rate.idsPerDay()),
                        rate.column(),
                        fmt(rate.days()));
                if (bytes >= declaredBytes) {
                    return new Verdict(
                            name,
                            domain,
                            key,
                            0,
                            signed,
                            "a narrower type would run out within --horizon-years " + trim(options.horizonYears())
                                    + " at the observed rate (" + pace + "): " + what + " keeps its declared type");
                }
                growth = "; exhausts in ~" + years(years) + " years at the observed rate (" + pace + ")";
            }
        }
        String typeName = types.integerName(bytes, !signed);
        if (domain && bytes > fit.bytes()) {
            growth =
                    "; namespace numbers are assigned by extensions (Semantic MediaWiki 102, Scribunto 828, Gadgets 2300),"
                            + " not by growth, so never below " + types.integerName(atLeast(floor), false);
        }
        return new Verdict(name, domain, key, bytes, signed, what + ": " + room + " fits " + typeName + growth);
    }

    /** The dialect's narrowest integer width of at least {@code bytes}. */
    private int atLeast(int bytes) {
        for (int w : types.integerWidths()) {
            if (w >= bytes) {
                return w;
            }
        }
        return 8;
    }

    private static double yearsLeft(int bytes, boolean signed, BigInteger top, Rate rate) {
        BigInteger max = BigInteger.ONE.shiftLeft(bytes * 8 - (signed ? 1 : 0)).subtract(BigInteger.ONE);
        double left = new BigDecimal(max.subtract(top)).doubleValue();
        return left / rate.idsPerDay() / 365.25;
    }

    /**
     * Ids handed out per day: the key's span over the span of its table's creation timestamps
     * ({@code rev_timestamp}, {@code created_at}, {@code InvoiceDate}), or null when it has none
     * or they cover less than a day.
     */
    private static Rate rate(
            List<References.Col> keys, Map<String, List<ColumnProfile>> profiles, BigInteger lo, BigInteger top) {
        Rate best = null;
        for (References.Col k : keys) {
            LoadedTable t = k.table();
            List<ColumnProfile> ps = profiles.get(t.def().key());
            for (int i = 0; i < t.def().columns().size(); i++) {
                ColumnDef col = t.def().columns().get(i);
                if (!ColumnNames.isCreationTime(col.name())) {
                    continue;
                }
                Long[] span = span(ps.get(i));
                if (span == null) {
                    continue;
                }
                double days = (span[1] - span[0]) / 86400.0;
                if (days < 1) {
                    continue;
                }
                double perDay = Math.max(1, new BigDecimal(top.subtract(lo)).doubleValue()) / days;
                Rate r = new Rate(perDay, t.def().name() + "." + col.name(), days);
                if (best == null || r.idsPerDay() > best.idsPerDay()) {
                    best = r; // the fastest pace is the one that runs out first
                }
            }
        }
        return best;
    }

    /** The first and last instant of a timestamp or date column, in epoch seconds, from its profile. */
    static Long[] span(ColumnProfile p) {
        String a;
        String b;
        if (p.mwTimestamps > 0 && p.mwTimestamps == p.realValues()) {
            a = p.mwTimestampMin;
            b = p.mwTimestampMax;
        } else if (p.timestamps > 0 && p.timestamps == p.realValues()) {
            a = p.timestampMin;
            b = p.timestampMax;
        } else if (p.minTemporal != null) {
            a = p.minTemporal;
            b = p.maxTemporal;
        } else {
            return null;
        }
        Long x = epoch(a);
        Long y = epoch(b);
        // MediaWiki writes 19691231235959 for "never": no row was created then.
        return x == null || y == null || x < 0 ? null : new Long[] {x, y};
    }

    private static Long epoch(String s) {
        if (s == null) {
            return null;
        }
        String digits = s.replaceAll("[^0-9]", "");
        if (digits.length() < 8) {
            return null;
        }
        try {
            int year = Integer.parseInt(digits.substring(0, 4));
            int month = Integer.parseInt(digits.substring(4, 6));
            int day = Integer.parseInt(digits.substring(6, 8));
            int hour = digits.length() >= 10 ? Integer.parseInt(digits.substring(8, 10)) : 0;
            int minute = digits.length() >= 12 ? Integer.parseInt(digits.substring(10, 12)) : 0;
            int second = digits.length() >= 14 ? Integer.parseInt(digits.substring(12, 14)) : 0;
            return LocalDateTime.of(year, month, day, Math.min(hour, 23), Math.min(minute, 59), Math.min(second, 59))
                    .toEpochSecond(ZoneOffset.UTC);
        } catch (RuntimeException e) {
            return null;
        }
    }

    static BigInteger grow(BigInteger v, double factor) {
        return new BigDecimal(v)
                .multiply(BigDecimal.valueOf(factor))
                .setScale(0, RoundingMode.UP)
                .toBigInteger();
    }

    private static String years(double y) {
        if (y >= 1e6) {
            return String.format(Locale.ROOT, "%.1e", y);
        }
        return String.format(Locale.ROOT, "%,.0f", y);
    }

    private static String fmt(double d) {
        return d >= 100 ? String.format(Locale.ROOT, "%,.0f", d) : String.format(Locale.ROOT, "%.2g", d);
    }

    static String trim(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }
}
