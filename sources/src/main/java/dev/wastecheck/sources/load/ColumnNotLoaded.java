package dev.wastecheck.sources.load;

/**
 * A step asked for the values of a column the loader left out of DuckDB's table, since it had
 * counted every figure the profile asks of it ({@link LoadedTable#absent}). The analysis that
 * left it out catches this and loads its sources again with every column.
 */
public final class ColumnNotLoaded extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ColumnNotLoaded(LoadedTable table, int column) {
        super("column " + table.def().name() + "."
                + table.def().columns().get(column).name()
                + " was left out of the profiling database (the loader counted its figures); load it again whole");
    }
}
