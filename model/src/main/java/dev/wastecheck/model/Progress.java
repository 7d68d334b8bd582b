package dev.wastecheck.model;

/** Told how far long work has got; the command line draws a bar from it, everything else passes {@link #NONE}. */
public interface Progress {
    void begin(String task, long total);

    void advance(long done);

    void end();

    /**
     * Where a search of many runs stands, for an overall "N of M" and an estimate of the time left
     * beside the bar of the run at hand: {@code done} of {@code total} stages finished, now {@code
     * name}. Long work made of one task needs no stages; the default ignores them.
     */
    default void stage(String name, int done, int total) {}

    Progress NONE = new Progress() {
        @Override
        public void begin(String task, long total) {}

        @Override
        public void advance(long done) {}

        @Override
        public void end() {}
    };
}
