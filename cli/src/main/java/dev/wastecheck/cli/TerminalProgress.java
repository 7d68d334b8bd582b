package dev.wastecheck.cli;

import dev.wastecheck.model.Progress;
import java.io.PrintStream;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;
import me.tongfei.progressbar.ProgressState;

/**
 * A progress bar on stderr, drawn only when stderr is a terminal (quiet in pipes, logs and CI), and
 * erased when its task ends, so that what stays on the screen is the report. One bar at a time:
 * a task that begins ends the one before.
 *
 * <p>The estimate of the time left is taken from the rate since the first step, not since the bar
 * appeared: work often starts after a pause (DuckDB starting, a file opening) that would make the
 * first estimates minutes long for seconds of work. It is shown once two seconds and 5% of the
 * work have passed, "?" before: reading a dump starts slowly (DuckDB starting, the JIT compiling
 * the tokenizer): estimated from the bar's start, a 21 MB dump read in 3 s was given 3 to 6 minutes.
 */
final class TerminalProgress implements Progress {
    /** No estimate before this much time and this share of the work have passed since the first step. */
    private static final long ETA_AFTER_NANOS = 2_000_000_000L;

    private static final int ETA_AFTER_PERCENT = 5;

    private final int width;
    private ProgressBar bar;
    private volatile long firstNanos;
    private volatile long firstDone = -1;

    private TerminalProgress(int width) {
        this.width = width;
    }

    static Progress forStderr(boolean quiet, Terminal terminal) {
        return !quiet && Terminal.isTerminal(2) ? new TerminalProgress(terminal.stderrWidth()) : Progress.NONE;
    }

    @Override
    public void begin(String task, long total) {
        end();
        firstDone = -1;
        PrintStream err = System.err;
        // the bar one column short of the terminal, so that it never wraps (a wrapped bar is redrawn on a new line each
        // time)
        ConsoleProgressBarConsumer consumer = new ConsoleProgressBarConsumer(err, Math.max(20, width - 1)) {
            @Override
            public void close() {
                err.flush(); // the line is cleared, not ended: the next output starts where the bar was
            }
        };
        ProgressBarBuilder b = new ProgressBarBuilder()
                .setTaskName(task)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setConsumer(consumer)
                .clearDisplayOnFinish()
                .setUpdateIntervalMillis(200)
                .continuousUpdate()
                .setEtaFunction(this::eta);
        if (task.equals("reading")) {
            b.setUnit(" MB", 1 << 20)
                    .showSpeed(new DecimalFormat("0.0", DecimalFormatSymbols.getInstance(Locale.ROOT)));
        } else if (task.startsWith("loading")) {
            b.setUnit(" rows", 1);
        } else if (task.startsWith("replay")) {
            b.setUnit(" events", 1);
        } else if (task.equals("trace")) {
            b.setUnit(" traces", 1);
        } else if (task.equals("reading trace")) {
            b.setUnit(" records", 1);
        } else {
            b.setUnit(" tables", 1);
        }
        bar = b.build();
    }

    @Override
    public void advance(long done) {
        if (bar != null) {
            if (firstDone < 0 && done > 0) {
                firstNanos = System.nanoTime();
                firstDone = done;
            }
            bar.stepTo(bar.getMax() > 0 ? Math.min(done, bar.getMax()) : done);
        }
    }

    @Override
    public void end() {
        if (bar != null) {
            if (bar.getMax() > 0) {
                bar.stepTo(bar.getMax());
            }
            bar.close();
            bar = null;
        }
    }

    /** Time left at the rate since the first step, once there are two seconds and 5% of the work to go by. */
    private Optional<Duration> eta(ProgressState state) {
        long max = state.getMax();
        long done = state.getCurrent();
        long since = System.nanoTime() - firstNanos;
        if (max <= 0
                || firstDone < 0
                || since < ETA_AFTER_NANOS
                || (done - firstDone) * 100 < max * ETA_AFTER_PERCENT) {
            return Optional.empty();
        }
        return Optional.of(Duration.ofNanos((long) ((double) since / (done - firstDone) * (max - done))));
    }
}
