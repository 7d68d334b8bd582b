package dev.wastecheck.model;

/** Told how far long work has got; the command line draws a bar from it, everything else passes {@link #NONE}. */
public interface Progress {
    void begin(String task, long total);

    void advance(long done);

    void end();

    Progress NONE = new Progress() {
        @Override
        public void begin(String task, long total) {}

        @Override
        public void advance(long done) {}

        @Override
        public void end() {}
    };
}
