package dev.wastecheck.sources.load;

import dev.wastecheck.model.schema.ColumnDef;
import dev.wastecheck.model.schema.TableDef;
import dev.wastecheck.sources.DumpFormatException;

/**
 * MySQL's identifier limit: table and column names of at most 64 characters (MySQL 8.0 Reference
 * Manual, 11.2.1 "Identifier Length Limits"). No MySQL server creates a longer one, so a dump that
 * holds one was not written by mysqldump, and the migration wastecheck writes for it would fail
 * on the server; it is refused at the CREATE TABLE (or the INSERT that names the table), rather
 * than profiled as a table that cannot exist.
 */
final class MysqlIdentifiers {
    static final int MAX_CHARS = 64;

    private MysqlIdentifiers() {}

    static void check(TableDef t) {
        check("table name", t.name(), t);
        for (ColumnDef c : t.columns()) {
            check("column name", c.name(), t);
        }
    }

    private static void check(String what, String name, TableDef t) {
        int chars = name.codePointCount(0, name.length());
        if (chars > MAX_CHARS) {
            throw new DumpFormatException((t.origin() == null ? t.name() : t.origin()) + ": expected a " + what
                    + " of at most " + MAX_CHARS + " characters (MySQL's identifier limit), found one of " + chars
                    + " characters ('" + name.substring(0, 32) + "...')");
        }
    }
}
