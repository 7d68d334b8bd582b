package dev.wastecheck.analyzer;

import dev.wastecheck.analyzer.load.LoadedTable;
import dev.wastecheck.analyzer.profile.ColumnProfile;
import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.TableDef;
import java.math.BigInteger;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The ranges of single-column integer keys, by column name. A column that shares its name with
 * another table's key ({@code staff.address_id} and {@code address.address_id}) refers to it, so
 * its suggested type must hold the key's range too, or joins would compare different types and the
 * reference could not grow with the key.
 */
final class KeyRanges {
    private final Map<String, BigInteger[]> byName = new HashMap<>();
    private final Map<String, String> owner = new HashMap<>();

    static KeyRanges of(Collection<LoadedTable> tables, Map<String, List<ColumnProfile>> profiles) {
        KeyRanges k = new KeyRanges();
        for (LoadedTable t : tables) {
            TableDef def = t.def();
            if (def.primaryKey().size() != 1) {
                continue;
            }
            int i = def.columnIndex(def.primaryKey().get(0));
            if (i < 0 || !def.columns().get(i).type().isInteger()) {
                continue;
            }
            ColumnProfile p = profiles.get(def.key()).get(i);
            if (p.minInt == null) {
                continue;
            }
            String name = def.columns().get(i).name().toLowerCase(Locale.ROOT);
            k.byName.merge(name, new BigInteger[] {p.minInt, p.maxInt},
                    (a, b) -> new BigInteger[] {a[0].min(b[0]), a[1].max(b[1])});
            k.owner.putIfAbsent(name, def.name());
        }
        return k;
    }

    /** The profile, with its integer range widened to the key it refers to, if any. */
    ColumnProfile widen(TableDef table, ColumnDef col, ColumnProfile p) {
        String name = col.name().toLowerCase(Locale.ROOT);
        BigInteger[] range = byName.get(name);
        if (range == null || !col.type().isInteger() || p.minInt == null || table.name().equalsIgnoreCase(owner.get(name))) {
            return p;
        }
        ColumnProfile w = p.copy();
        w.minInt = p.minInt.min(range[0]);
        w.maxInt = p.maxInt.max(range[1]);
        w.referencedKey = owner.get(name) + "." + col.name();
        return w;
    }
}
