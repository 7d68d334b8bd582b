package dev.wastecheck.layouts.bench.tpc;

import dev.wastecheck.layouts.HybridPage;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.RecordSchema;
import java.util.function.Function;

/**
 * Page formats by name, as the benchmarks' {@code layout} parameter spells them: NSM, PAX, HPL
 * (the INCREMENTAL variant, R per page size), HPL-RIGID, HPL-SIMPLISTIC, HPL-INCREMENTAL, and any
 * HPL variant with a fixed R: HPL/1024, HPL-RIGID/64; ":nokey" drops the normalized keys from
 * HPL's VARLEN references (HPL:nokey, HPL/1024:nokey).
 */
public final class Formats {
    private Formats() {}

    public static Function<RecordSchema, Page> of(String name) {
        switch (name) {
            case "NSM":
                return Layout.NSM::newPage;
            case "PAX":
                return Layout.PAX::newPage;
            default:
        }
        if (!name.startsWith("HPL")) throw new IllegalArgumentException("no page format '" + name + "'");
        String rest = name.substring(3);
        boolean keys = !rest.endsWith(":nokey");
        if (!keys) rest = rest.substring(0, rest.length() - ":nokey".length());
        int r = 0;
        int slash = rest.indexOf('/');
        if (slash >= 0) {
            r = Integer.parseInt(rest.substring(slash + 1));
            rest = rest.substring(0, slash);
        }
        HybridPage.Variant variant =
                rest.isEmpty() ? HybridPage.Variant.INCREMENTAL : HybridPage.Variant.valueOf(rest.substring(1));
        int segment = r;
        return schema -> new HybridPage(schema, variant, segment, keys);
    }
}
