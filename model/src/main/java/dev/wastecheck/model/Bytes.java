package dev.wastecheck.model;

import java.util.Locale;

/** Human-readable sizes, shares and counts, as every report and the migration header print them. */
public final class Bytes {
    private Bytes() {}

    public static String human(long bytes) {
        if (bytes < 1024) {
            return bytes + " B";
        }
        String[] units = {"KiB", "MiB", "GiB", "TiB"};
        double v = bytes;
        int u = -1;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, v >= 100 ? "%.0f %s" : v >= 10 ? "%.1f %s" : "%.2f %s", v, units[u]);
    }

    public static String percent(long part, long whole) {
        if (whole <= 0) {
            return "0%";
        }
        double p = 100.0 * part / whole;
        return String.format(Locale.ROOT, p >= 10 || p == 0 ? "%.0f%%" : "%.1f%%", p);
    }

    public static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
