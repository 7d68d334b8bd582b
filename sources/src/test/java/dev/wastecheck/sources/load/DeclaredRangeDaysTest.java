package dev.wastecheck.sources.load;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.YearMonth;
import org.junit.jupiter.api.Test;

/** {@link DeclaredRange#daysIn}: the month lengths {@code YearMonth} gives, year 0 a leap year as 2000. */
class DeclaredRangeDaysTest {

    @Test
    void daysInAMonthAreYearMonths() {
        for (int year = 0; year <= 9999; year++) {
            for (int month = 1; month <= 12; month++) {
                assertThat(DeclaredRange.daysIn(year, month))
                        .as("%04d-%02d", year, month)
                        .isEqualTo(YearMonth.of(year == 0 ? 2000 : year, month).lengthOfMonth());
            }
        }
    }
}
