package dev.wastecheck.autotune;

import dev.wastecheck.model.Progress;

/**
 * The search's stages, counted so that the progress bar can say "N of M" and how long the rest
 * should take. The search is adaptive (how many candidates a step screens depends on the design
 * chosen so far), so runs cannot be counted in advance; its stages can: one per table and
 * {@link Dimension}, one per dimension for the uniform design, the uniform design as a candidate
 * for every table, and the finalists. A step with fewer than two candidates still counts, done at
 * once.
 */
final class Stages {
    private final Progress progress;
    private final int total;
    private int done = -1;

    private Stages(Progress progress, int total) {
        this.progress = progress;
        this.total = total;
    }

    /** The stages of a search over {@code tables} tables. */
    static Stages of(Progress progress, int tables) {
        return new Stages(progress, total(tables));
    }

    static int total(int tables) {
        return (tables + 1) * Dimension.values().length + 2;
    }

    /** The next stage begins: the ones before it are done. */
    void next(String name) {
        done = Math.min(done + 1, total - 1);
        progress.stage(name, done, total);
    }

    /** Every stage is done. */
    void finish() {
        done = total;
        progress.stage("done", total, total);
    }

    int done() {
        return done;
    }

    int total() {
        return total;
    }
}
