package dev.wastecheck.analyzer.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The lattice search finds exactly the dependencies planted in a generated table. */
class DependencySearchTest {
    static final int ROWS = 5000;

    /** Dense codes of arbitrary ints. */
    static DependencySearch.Column column(String name, int[] values, boolean lhs, boolean rhs) {
        LongIntMap m = new LongIntMap(16);
        int[] codes = new int[values.length];
        for (int r = 0; r < values.length; r++) {
            codes[r] = m.codeOf(values[r]);
        }
        return new DependencySearch.Column(name, codes, m.size(), lhs, rhs);
    }

    /**
     * id unique; city -> country (planted, one column); (a, b) -> z (planted, two columns, neither
     * alone); city -> w except on one row (planted near-dependency); r noise.
     */
    static List<DependencySearch.Column> planted(long seed) {
        Random rnd = new Random(seed);
        int[] id = new int[ROWS];
        int[] city = new int[ROWS];
        int[] country = new int[ROWS];
        int[] a = new int[ROWS];
        int[] b = new int[ROWS];
        int[] z = new int[ROWS];
        int[] w = new int[ROWS];
        int[] r = new int[ROWS];
        for (int i = 0; i < ROWS; i++) {
            id[i] = i;
            city[i] = rnd.nextInt(300);
            country[i] = city[i] / 15;
            a[i] = rnd.nextInt(12);
            b[i] = rnd.nextInt(9);
            z[i] = (a[i] + b[i]) % 5; // neither a nor b alone, and (a, z) leaves b open
            w[i] = city[i] % 3; // five cities of a country share each w: (country, w) leaves city open
            r[i] = rnd.nextInt(40);
        }
        w[1234] = (w[1234] + 1) % 3; // the one row that breaks city -> w
        List<DependencySearch.Column> cols = new ArrayList<>();
        cols.add(column("id", id, true, true));
        cols.add(column("city", city, true, true));
        cols.add(column("country", country, true, true));
        cols.add(column("a", a, true, true));
        cols.add(column("b", b, true, true));
        cols.add(column("z", z, true, true));
        cols.add(column("w", w, true, true));
        cols.add(column("r", r, true, true));
        return cols;
    }

    static List<String> names(List<DependencySearch.Dependency> deps) {
        return deps.stream()
                .map(d -> String.join(",", d.lhs()) + "->" + d.rhs())
                .sorted()
                .toList();
    }

    @Test
    void exactlyThePlantedDependenciesComeOut() {
        for (long seed = 1; seed <= 5; seed++) {
            DependencySearch.Result r = DependencySearch.search(planted(seed), ROWS, Long.MAX_VALUE);
            assertThat(r.stoppedAt()).isNull();
            assertThat(names(r.exact())).as("seed " + seed).containsExactly("a,b->z", "city->country");
            assertThat(names(r.near())).as("seed " + seed).containsExactly("city->w");
            DependencySearch.Dependency near = r.near().get(0);
            assertThat(near.violatingRows()).isEqualTo(1);
            DependencySearch.Dependency cc = r.exact().stream()
                    .filter(d -> d.rhs().equals("country"))
                    .findFirst()
                    .orElseThrow();
            assertThat(cc.rows()).isEqualTo(ROWS);
            assertThat(cc.lhsGroups()).isEqualTo(300);
            assertThat(cc.rhsGroups()).isEqualTo(20);
        }
    }

    @Test
    void aColumnThatMayNotBeDependentIsNeverOne() {
        List<DependencySearch.Column> cols = new ArrayList<>(planted(1));
        DependencySearch.Column country = cols.get(2);
        cols.set(2, new DependencySearch.Column("country", country.codes(), country.groups(), true, false));
        assertThat(names(DependencySearch.search(cols, ROWS, Long.MAX_VALUE).exact()))
                .containsExactly("a,b->z");
    }

    @Test
    void theDeadlineStopsTheSearchAndSaysWhere() {
        DependencySearch.Result r = DependencySearch.search(planted(1), ROWS, System.nanoTime() - 1);
        assertThat(r.stoppedAt()).startsWith("single-column determinants, at city");
        assertThat(r.exact()).isEmpty();
    }

    @Test
    void g3CountsTheFewestRowsToDelete() {
        int[] x = {0, 0, 0, 1, 1, 2};
        int[] y = {5, 5, 6, 7, 8, 9};
        assertThat(DependencySearch.g3(new int[][] {x}, y, 6)).isEqualTo(2);
    }
}
