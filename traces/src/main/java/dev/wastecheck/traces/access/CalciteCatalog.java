package dev.wastecheck.traces.access;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.DatabaseSchema;
import dev.wastecheck.model.schema.TableDef;
import java.util.Locale;
import org.apache.calcite.rel.type.RelDataType;
import org.apache.calcite.rel.type.RelDataTypeFactory;
import org.apache.calcite.schema.SchemaPlus;
import org.apache.calcite.schema.impl.AbstractTable;
import org.apache.calcite.sql.type.SqlTypeName;
import org.apache.calcite.tools.Frameworks;

/**
 * The schema registered as Calcite tables (no data: only row types, so the validator can resolve
 * names and the converter can build a plan whose column origins we ask for).
 *
 * <p>Declared types map to the nearest Calcite type. String-like and binary types (including
 * MediaWiki's {@code binary(14)} timestamps) become VARCHAR, so the comparisons and string
 * functions applications apply to them validate as they run on MySQL.
 */
final class CalciteCatalog {
    private CalciteCatalog() {}

    static SchemaPlus register(DatabaseSchema schema) {
        SchemaPlus root = Frameworks.createRootSchema(false);
        for (TableDef t : schema.tables()) {
            root.add(t.name(), new AbstractTable() {
                @Override
                public RelDataType getRowType(RelDataTypeFactory f) {
                    RelDataTypeFactory.Builder b = f.builder();
                    for (ColumnDef c : t.columns()) {
                        b.add(
                                c.name(),
                                f.createTypeWithNullability(type(f, c.type().declared()), true));
                    }
                    return b.build();
                }
            });
        }
        return root;
    }

    static RelDataType type(RelDataTypeFactory f, String declared) {
        String t = declared.toLowerCase(Locale.ROOT).trim();
        if (t.startsWith("tinyint(1)") || t.startsWith("bool")) {
            return f.createSqlType(SqlTypeName.BOOLEAN);
        }
        if (t.startsWith("bigint") || t.startsWith("int8") || t.startsWith("bigserial")) {
            return f.createSqlType(SqlTypeName.BIGINT);
        }
        if (t.startsWith("int") || t.startsWith("mediumint") || t.startsWith("serial") || t.startsWith("integer")) {
            return t.contains("unsigned") ? f.createSqlType(SqlTypeName.BIGINT) : f.createSqlType(SqlTypeName.INTEGER);
        }
        if (t.startsWith("smallint") || t.startsWith("tinyint") || t.startsWith("int2") || t.startsWith("year")) {
            return f.createSqlType(SqlTypeName.INTEGER);
        }
        if (t.startsWith("decimal") || t.startsWith("numeric")) {
            return f.createSqlType(SqlTypeName.DECIMAL, 38, 10);
        }
        if (t.startsWith("double") || t.startsWith("float") || t.startsWith("real")) {
            return f.createSqlType(SqlTypeName.DOUBLE);
        }
        if (t.startsWith("datetime") || t.startsWith("timestamp")) {
            return f.createSqlType(SqlTypeName.TIMESTAMP);
        }
        if (t.equals("date")) {
            return f.createSqlType(SqlTypeName.DATE);
        }
        if (t.startsWith("time")) {
            return f.createSqlType(SqlTypeName.TIME);
        }
        return f.createSqlType(SqlTypeName.VARCHAR);
    }
}
