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

    TerminalProgress(int width) {
        this.width = width;
    }

    static Progress forStderr(boolean quiet, Terminal terminal) {
        return !quiet && Terminal.isTerminal(2) ? new TerminalProgress(terminal.stderrWidth()) : Progress.NONE;
    }

    /** Longest task label: a replay's whole configuration squeezed the bar to {@code [ ]} and cut its count. */
    private static final int LABEL_MAX = 24;

    /** Phases begun so far, for "step N". */
    private int phase;

    /** Replays begun so far (autotune replays once per candidate), and when the first began. */
    private int replays;

    private long firstReplayNanos;

    /** The stage a search is at ({@link #stage}): its name, how many are done of how many, since when. */
    private String stageName = "";

    private int stageDone;
    private int stageTotal;
    private long firstStageNanos;

    @Override
    public void stage(String name, int done, int total) {
        if (stageTotal == 0) firstStageNanos = System.nanoTime();
        stageName = name;
        stageDone = done;
        stageTotal = total;
    }

    @Override
    public void begin(String task, long total) {
        end();
        firstDone = -1;
        String label = label(task);
        if (total >= 0 && total <= 1 && !task.startsWith("replay") && !task.startsWith("loading")) {
            // one unit of work (one trace file) says nothing until it is done: an open-ended bar that
            // shows the time going by moves where "0/1 traces" stood still for seconds
            total = -1;
        }
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
                .setTaskName(label)
                .setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII)
                .setConsumer(consumer)
                .clearDisplayOnFinish()
                .setUpdateIntervalMillis(200)
                .continuousUpdate()
                .setEtaFunction(this::eta);
        if (task.equals("reading")) {
            long unit = byteUnit(total);
            b.setUnit(unit == 1 << 20 ? " MB" : unit == 1 << 10 ? " KB" : " B", unit)
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

    /** Bytes in the unit the size calls for: a 0.4 MB dump read "0/0 MB" in megabytes. */
    static long byteUnit(long total) {
        return total >= 10L << 20 ? 1L << 20 : total >= 10L << 10 ? 1L << 10 : 1;
    }

    /**
     * What the bar is called: "step N: " and the task for the phases of a command (reading,
     * profiling, trace); for replays, which autotune runs one per candidate, "run N" with the time
     * since the first and the configuration cut short (the report names each in full); within a
     * search ({@link #stage}), its stage "N/M" instead, the time the remaining stages should take
     * at the rate of those done, and the stage's name (a table and a dimension).
     */
    String label(String task) {
        return label(task, System.nanoTime());
    }

    String label(String task, long now) {
        if (task.startsWith("replay ") || task.startsWith("loading ")) {
            if (task.startsWith("replay ")) {
                if (replays++ == 0) {
                    firstReplayNanos = System.nanoTime();
                }
            }
            if (stageTotal > 0) return stageLabel(now);
            long seconds = replays == 0 ? 0 : (now - firstReplayNanos) / 1_000_000_000L;
            String what = task.startsWith("replay ") ? "replay" : "load";
            String config = task.substring(task.indexOf(' ') + 1);
            String head = "run " + Math.max(1, replays) + ", " + seconds / 60 + "m"
                    + String.format(Locale.ROOT, "%02d", seconds % 60) + "s: " + what + " ";
            int room = Math.max(4, LABEL_MAX + 12 - head.length());
            return head + (config.length() > room ? config.substring(0, room - 1) + "~" : config);
        }
        phase++;
        String name = task.length() > LABEL_MAX ? task.substring(0, LABEL_MAX - 1) + "~" : task;
        return "step " + phase + ": " + name;
    }

    /** "search 12/40 ~1m20s: revision layout": stage N of M, the estimate once a stage is done, the stage. */
    private String stageLabel(long now) {
        String left = "";
        if (stageDone > 0 && stageDone < stageTotal) {
            long seconds = (long) ((double) (now - firstStageNanos) / stageDone * (stageTotal - stageDone) / 1e9);
            left = " ~" + (seconds >= 60 ? seconds / 60 + "m" : "")
                    + String.format(Locale.ROOT, seconds >= 60 ? "%02ds" : "%ds", seconds % 60);
        }
        String head = "search " + Math.min(stageDone + 1, stageTotal) + "/" + stageTotal + left + ": ";
        int room = Math.max(6, LABEL_MAX + 16 - head.length());
        return head + (stageName.length() > room ? stageName.substring(0, room - 1) + "~" : stageName);
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
