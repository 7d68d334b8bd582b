package dev.wastecheck.analyzer.tune;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** PostgreSQL's numeric: base-10000 digits grouped from the decimal point, zero groups at either end dropped. */
class PgHeapTest {
    @Test
    void numericBytesCountTheDigitGroupsPostgresqlKeeps() {
        assertThat(PgHeap.numericBytes("0")).isEqualTo(2);
        assertThat(PgHeap.numericBytes("0.00")).isEqualTo(2);
        assertThat(PgHeap.numericBytes("7")).isEqualTo(4);
        assertThat(PgHeap.numericBytes("10000")).isEqualTo(4);       // one group, weight 1
        assertThat(PgHeap.numericBytes("0.00005")).isEqualTo(4);     // one group, weight -2
        assertThat(PgHeap.numericBytes("-1.50")).isEqualTo(6);       // 1 . 5000
        assertThat(PgHeap.numericBytes("12345.6789")).isEqualTo(8);  // 1 2345 . 6789
        assertThat(PgHeap.numericBytes("100000000")).isEqualTo(4);   // 1 0000 0000: trailing zero groups dropped
    }
}
