package dev.wastecheck.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A DOUBLE column of whole numbers with NULLs, as pandas' to_sql declares an integer column with
 * missing values: the report names the integer type that would hold them and says why it is not
 * suggested (a later fractional value would be rounded into it), and never offers a type that
 * loses a value.
 */
class PandasShapeTest {
    @Test
    void wholeNumbersInADoubleWithNullsAreNamedAndKeptAFloat(@TempDir Path dir) throws Exception {
        StringBuilder b = new StringBuilder("-- MySQL dump 10.13\nCREATE TABLE `p` (\n  `index` bigint DEFAULT NULL,\n"
                + "  `qty` double DEFAULT NULL\n) ENGINE=InnoDB;\nINSERT INTO `p` VALUES ");
        int nulls = 0;
        for (int i = 0; i < 4000; i++) {
            boolean isNull = i % 5 == 0;
            nulls += isNull ? 1 : 0;
            b.append(i > 0 ? "," : "")
                    .append('(')
                    .append(i)
                    .append(',')
                    .append(isNull ? "NULL" : Integer.toString(1 + i % 2400))
                    .append(')');
        }
        Path dump = dir.resolve("p.sql");
        Files.writeString(dump, b.append(";\n"));
        JsonNode qty = Cli.column(Cli.analyzeJson(dump), "p", "qty");
        assertThat(qty.get("suggested_type").asText()).isEqualTo("FLOAT");
        assertThat(qty.get("findings").get(0).get("detail").asText())
                .contains(
                        "every value is a whole number (2 to 2400, with " + nulls + " NULLs",
                        "which SMALLINT would hold",
                        "a fractional value written later would be rounded");
    }
}
