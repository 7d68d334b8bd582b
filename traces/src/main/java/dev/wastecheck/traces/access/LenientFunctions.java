package dev.wastecheck.traces.access;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.sql.SqlBasicFunction;
import org.apache.calcite.sql.SqlFunctionCategory;
import org.apache.calcite.sql.SqlOperator;
import org.apache.calcite.sql.SqlOperatorTable;
import org.apache.calcite.sql.type.OperandTypes;
import org.apache.calcite.sql.type.ReturnTypes;
import org.apache.calcite.sql.type.SqlReturnTypeInference;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.sql.util.SqlOperatorTables;

/**
 * MySQL date functions as MySQL types them: on any argument (and IF, IFNULL, GREATEST, LEAST, which
 * Calcite's MySQL library lacks or types strictly). Calcite's own YEAR() wants a datetime,
 * but MediaWiki keeps timestamps in {@code binary(14)} and MySQL happily takes {@code
 * YEAR(rev_timestamp)}; such a call is exactly the granularity waste the analyzer looks for, so it
 * must resolve. Chained before Calcite's tables so these win.
 */
final class LenientFunctions {
    private LenientFunctions() {}

    static SqlOperatorTable table() {
        List<SqlOperator> ops = new ArrayList<>();
        for (String n : new String[] {
            "YEAR",
            "MONTH",
            "DAY",
            "DAYOFMONTH",
            "DAYOFWEEK",
            "DAYOFYEAR",
            "HOUR",
            "MINUTE",
            "SECOND",
            "WEEK",
            "QUARTER",
            "YEARWEEK",
            "TO_DAYS"
        }) {
            ops.add(fn(n, ReturnTypes.INTEGER_NULLABLE));
        }
        ops.add(fn("DATE", ReturnTypes.explicit(SqlTypeName.DATE)));
        ops.add(fn("TIME", ReturnTypes.explicit(SqlTypeName.TIME)));
        ops.add(fn("DATE_FORMAT", ReturnTypes.explicit(SqlTypeName.VARCHAR)));
        ops.add(fn("STR_TO_DATE", ReturnTypes.explicit(SqlTypeName.TIMESTAMP)));
        ops.add(fn("FROM_UNIXTIME", ReturnTypes.explicit(SqlTypeName.TIMESTAMP)));
        ops.add(fn("UNIX_TIMESTAMP", ReturnTypes.explicit(SqlTypeName.BIGINT)));
        // MySQL's conditional and comparison helpers, typed like their arguments
        ops.add(SqlBasicFunction.create(
                "IF", ReturnTypes.ARG1_NULLABLE, OperandTypes.VARIADIC, SqlFunctionCategory.SYSTEM));
        ops.add(SqlBasicFunction.create(
                "IFNULL", ReturnTypes.LEAST_RESTRICTIVE, OperandTypes.VARIADIC, SqlFunctionCategory.SYSTEM));
        ops.add(SqlBasicFunction.create(
                "GREATEST", ReturnTypes.LEAST_RESTRICTIVE, OperandTypes.VARIADIC, SqlFunctionCategory.SYSTEM));
        ops.add(SqlBasicFunction.create(
                "LEAST", ReturnTypes.LEAST_RESTRICTIVE, OperandTypes.VARIADIC, SqlFunctionCategory.SYSTEM));
        return SqlOperatorTables.of(ops);
    }

    private static SqlOperator fn(String name, SqlReturnTypeInference ret) {
        return SqlBasicFunction.create(name, ret, OperandTypes.VARIADIC, SqlFunctionCategory.TIMEDATE);
    }
}
