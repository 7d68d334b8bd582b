package dev.wastecheck.layouts.bench.tpc;

import dev.wastecheck.layouts.HybridPage;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.NsmPage;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.RecordSchema;
import java.util.function.Function;

/**
 * Page formats by name, as the benchmarks' {@code layout} parameter spells them: NSM (fixed-size
 * fields updated in place), NSM-SHORE (HPL-2012-240 §6's Shore-MT: an update replaces the whole
 * record), PAX, HPL (the INCREMENTAL variant, its unit of space U chosen per page:
 * HybridPage.CHOOSE_UNIT), HPL-RIGID and HPL-SIMPLISTIC (U = a 64-byte line), and any variant
 * with a given U: HPL/64 (R = 512), HPL/256 (§4.1's read-ahead block, R = 2,048),
 * HPL-RIGID/256; ":nokey" drops the
 * normalized keys from HPL's VARLEN references (HPL:nokey, HPL/256:nokey).
 */
public final class Formats {
    private Formats() {}

    public static Function<RecordSchema, Page> of(String name) {
        switch (name) {
            case "NSM":
                return Layout.NSM::newPage;
            case "NSM-SHORE":
                return s -> new NsmPage(s, NsmPage.Update.REPLACE_RECORD);
            case "PAX":
                return Layout.PAX::newPage;
            default:
        }
        if (!name.startsWith("HPL")) throw new IllegalArgumentException("no page format '" + name + "'");
        String rest = name.substring(3);
        boolean keys = !rest.endsWith(":nokey");
        if (!keys) rest = rest.substring(0, rest.length() - ":nokey".length());
        int slash = rest.indexOf('/');
        int u = rest.isEmpty() || rest.equals("-INCREMENTAL") ? HybridPage.CHOOSE_UNIT : HybridPage.CACHE_LINE;
        if (slash >= 0) {
            u = Integer.parseInt(rest.substring(slash + 1));
            rest = rest.substring(0, slash);
        }
        HybridPage.Variant variant =
                rest.isEmpty() ? HybridPage.Variant.INCREMENTAL : HybridPage.Variant.valueOf(rest.substring(1));
        int unit = u;
        return schema -> new HybridPage(schema, variant, unit, keys);
    }
}
