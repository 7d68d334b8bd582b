package dev.wastecheck.layouts.bench.tpc;

/**
 * The kinds of statement the OLTP workloads are made of, as bits of a mode: the per-statement
 * breakdown of HPL-2012-240's Figures 7-12 runs a workload with one kind enabled at a time (the
 * transactions' own logic, key lookups and input handling always run) and subtracts a run with
 * none.
 */
public final class Statements {
    private Statements() {}

    /** A field or a few fields of a record rewritten in place (read, then written). */
    public static final int UPDATE = 1;
    /** A record (or the fields a statement needs) read out of its page. */
    public static final int CONSTRUCT = 2;

    public static final int INSERT = 4;
    public static final int DELETE = 8;
    public static final int NONE = 0;
    public static final int ALL = UPDATE | CONSTRUCT | INSERT | DELETE;
}
