package dev.wastecheck.analyzer.semantic;

import static org.assertj.core.api.Assertions.assertThat;

import dev.wastecheck.analyzer.Analyzer;
import dev.wastecheck.analyzer.infer.InferenceOptions;
import dev.wastecheck.analyzer.report.AnalysisReport;
import dev.wastecheck.analyzer.report.ColumnReport;
import dev.wastecheck.analyzer.report.Finding;
import dev.wastecheck.analyzer.report.FindingKind;
import dev.wastecheck.analyzer.report.TableReport;
import dev.wastecheck.model.Progress;
import dev.wastecheck.sources.load.LoadedSource;
import dev.wastecheck.sources.load.LoadedTable;
import dev.wastecheck.sources.load.ProfilingOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code analyze} on a new user's CSV: 20,000 customers where the city determines the country
 * (planted, one column), (plan, region) determine the price (planted, two columns), and the city
 * determines the time zone but for one mistyped row (a planted near-dependency).
 */
class FunctionalDependenciesTest {
    static final int ROWS = 20_000;
    static final String[] COUNTRIES = {"France", "Germany", "Spain", "Italy", "Portugal", "Poland", "Greece", "Austria"
    };
    static final String[] ZONES = {"UTC-1", "UTC+0", "UTC+1"};

    @TempDir
    static Path dir;

    static Path csv;
    static AnalysisReport report;

    @BeforeAll
    static void analyze() throws Exception {
        csv = dir.resolve("customers.csv");
        Random rnd = new Random(11);
        StringBuilder sb = new StringBuilder("id,name,city,country,zone,plan,region,price,amount\n");
        for (int i = 0; i < ROWS; i++) {
            int city = rnd.nextInt(400);
            int plan = rnd.nextInt(6);
            int region = rnd.nextInt(5);
            // a zone per city, not per country: (country, zone) leaves the city open
            String zone = i == 777 ? "UTC+5" : ZONES[city % 3];
            sb.append(i + 1)
                    .append(",cust")
                    .append(rnd.nextInt(1_000_000_000))
                    .append(",City")
                    .append(city)
                    .append(',')
                    .append(COUNTRIES[city % COUNTRIES.length])
                    .append(',')
                    .append(zone)
                    .append(",plan")
                    .append(plan)
                    .append(",region")
                    .append(region)
                    .append(',')
                    .append(100
                            + ((plan + region) % 4)
                                    * 25) // neither plan nor region alone; (plan, price) leaves region open
                    .append(',')
                    .append(rnd.nextInt(100_000) / 100.0)
                    .append('\n');
        }
        Files.writeString(csv, sb.toString());
        report = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults())
                .analyze(List.of(csv), Progress.NONE);
    }

    static List<String> findings(FindingKind kind) {
        List<String> out = new ArrayList<>();
        for (TableReport t : report.tables()) {
            for (ColumnReport c : t.columns()) {
                for (Finding f : c.findings()) {
                    if (f.kind() == kind) {
                        out.add(c.name());
                    }
                }
            }
        }
        return out;
    }

    static Finding finding(String column, FindingKind kind) {
        return report.tables().get(0).column(column).findings().stream()
                .filter(f -> f.kind() == kind)
                .findFirst()
                .orElseThrow();
    }

    @Test
    void theCityDeterminesTheCountry() {
        Finding f = finding("country", FindingKind.FUNCTIONAL_DEPENDENCY);
        assertThat(f.detail())
                .startsWith("determined by (city): every one of the 400 distinct (city) has one country"
                        + " (8 distinct) over 20000 rows");
        ColumnReport country = report.tables().get(0).column("country");
        ColumnReport city = report.tables().get(0).column("city");
        // DuckDB's storage model (the source is a CSV), no row overhead: the lookup table holds 400 rows
        // of city and country at their bytes per row here
        long lookup =
                Math.round(400 * ((double) city.declaredBytes() / ROWS + (double) country.declaredBytes() / ROWS));
        assertThat(f.bytes())
                .isEqualTo(country.declaredBytes() - lookup)
                .isGreaterThan(country.declaredBytes() * 9 / 10);
        assertThat(f.detail())
                .endsWith("its " + country.declaredBytes() + " bytes here become " + lookup + " there, " + f.bytes()
                        + " saved");
    }

    @Test
    void exactlyThePlantedDependenciesComeOut() {
        assertThat(findings(FindingKind.FUNCTIONAL_DEPENDENCY)).containsExactlyInAnyOrder("country", "price");
        assertThat(finding("price", FindingKind.FUNCTIONAL_DEPENDENCY).detail())
                .startsWith("determined by (plan, region): every one of the 30 distinct (plan, region) has one price");
    }

    @Test
    void theNearDependencyIsANoteNamingTheRowThatBreaksIt() {
        assertThat(findings(FindingKind.NEAR_DEPENDENCY)).containsExactly("zone");
        Finding f = finding("zone", FindingKind.NEAR_DEPENDENCY);
        assertThat(f.bytes()).isZero();
        assertThat(f.kind().note()).isTrue();
        assertThat(f.detail())
                .startsWith("determined by (city) except on 1 of 20000 rows: city = '")
                .contains("has zone = 'UTC+5' on 1 row");
    }

    @Test
    void bothStrategiesFindTheSameExactDependencies() throws Exception {
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        try (LoadedSource s = analyzer.open(List.of(csv), false, Progress.NONE)) {
            AnalysisReport r = analyzer.report(s, List.of(), Progress.NONE);
            LoadedTable t = s.tables().values().iterator().next();
            TableReport tr = r.tables().get(0);
            List<String> found = new ArrayList<>();
            for (FunctionalDependencies.Strategy strategy : FunctionalDependencies.Strategy.values()) {
                FunctionalDependencies fd = FunctionalDependencies.on(
                        s.database(),
                        s.dialect(),
                        new FunctionalDependencies.Options(
                                Duration.ofMinutes(1), ROWS, FunctionalDependencies.Mode.AUTO, strategy));
                found.add(fd.search(t, tr).exact().stream()
                        .map(d -> String.join(",", d.lhs()) + "->" + d.rhs())
                        .sorted()
                        .toList()
                        .toString());
            }
            // the aggregates do not count near-dependencies, so they keep pairs that only set apart the row
            // breaking city -> zone: (city, amount) -> zone, where amount is nearly unique
            assertThat(found.get(0)).isEqualTo("[city->country, plan,region->price]");
            assertThat(found.get(1)).contains("city->country", "plan,region->price");
        }
    }

    @Test
    void aZeroBudgetStopsAndSaysWhere() throws Exception {
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        try (LoadedSource s = analyzer.open(List.of(csv), false, Progress.NONE)) {
            AnalysisReport r = analyzer.report(s, List.of(), Progress.NONE);
            FunctionalDependencies fd = FunctionalDependencies.on(
                    s.database(),
                    s.dialect(),
                    new FunctionalDependencies.Options(
                            Duration.ZERO,
                            ROWS,
                            FunctionalDependencies.Mode.AUTO,
                            FunctionalDependencies.Strategy.PARTITIONS));
            FunctionalDependencies.TableResult tr =
                    fd.search(s.tables().values().iterator().next(), r.tables().get(0));
            assertThat(tr.exact()).isEmpty();
            assertThat(tr.note())
                    .startsWith("functional dependencies: the search of table customers stopped at its 0 ms"
                            + " budget in single-column determinants, at ");
        }
    }

    @Test
    void aLargerTableIsNamedByDefaultAndSampledOnRequestWithTheEvidenceOfEveryRow() throws Exception {
        Analyzer analyzer = new Analyzer(InferenceOptions.defaults(), ProfilingOptions.defaults());
        try (LoadedSource s = analyzer.open(List.of(csv), false, Progress.NONE)) {
            AnalysisReport r = analyzer.report(s, List.of(), Progress.NONE);
            LoadedTable t = s.tables().values().iterator().next();
            FunctionalDependencies.Options small = new FunctionalDependencies.Options(
                    Duration.ofMinutes(1),
                    5000,
                    FunctionalDependencies.Mode.AUTO,
                    FunctionalDependencies.Strategy.PARTITIONS);
            FunctionalDependencies.TableResult auto = FunctionalDependencies.on(s.database(), s.dialect(), small)
                    .search(t, r.tables().get(0));
            assertThat(auto.exact()).isEmpty();
            assertThat(auto.note())
                    .isEqualTo("functional dependencies: table customers (20000 rows) not searched, being"
                            + " above 5000 rows; --dependencies on searches a sample of that many rows and checks what it finds on"
                            + " every row");
            FunctionalDependencies.TableResult on = FunctionalDependencies.on(
                            s.database(), s.dialect(), small.withMode(FunctionalDependencies.Mode.ON))
                    .search(t, r.tables().get(0));
            // on 5,000 rows more may seem to hold; every row keeps exactly the planted ones, counted on all rows
            assertThat(on.exact().stream()
                            .map(d -> String.join(",", d.lhs()) + "->" + d.rhs() + " " + d.rows() + "/" + d.lhsGroups()
                                    + "/" + d.rhsGroups())
                            .sorted())
                    .containsExactly("city->country 20000/400/8", "plan,region->price 20000/30/4");
            assertThat(on.near()).isEmpty();
        }
    }
}
