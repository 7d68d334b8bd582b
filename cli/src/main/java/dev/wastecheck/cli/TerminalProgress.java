package dev.wastecheck.cli;

import dev.wastecheck.model.Progress;
import java.nio.file.Files;
import java.nio.file.Path;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

/** A progress bar on stderr, drawn only when stderr is a terminal (quiet in pipes, logs and CI). */
final class TerminalProgress implements Progress {
    private ProgressBar bar;

    static Progress forStderr(boolean quiet) {
        return !quiet && stderrIsTerminal() ? new TerminalProgress() : Progress.NONE;
    }

    static boolean stderrIsTerminal() {
        try {
            Path fd = Path.of("/proc/self/fd/2");
            if (Files.exists(fd)) {
                String target = Files.readSymbolicLink(fd).toString();
                return target.startsWith("/dev/pts/") || target.startsWith("/dev/tty");
            }
        } catch (Exception e) {
            // not Linux, or no /proc: fall back below
        }
        return System.console() != null;
    }

    @Override
    public void begin(String task, long total) {
        end();
        ProgressBarBuilder b = new ProgressBarBuilder().setTaskName(task).setInitialMax(total)
                .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(System.err))
                .setUpdateIntervalMillis(200).continuousUpdate();
        if (task.equals("reading")) {
            b.setUnit(" MB", 1 << 20).showSpeed();
        } else if (task.startsWith("loading")) {
            b.setUnit(" rows", 1);
        } else if (task.startsWith("replay")) {
            b.setUnit(" events", 1);
        } else {
            b.setUnit(" tables", 1);
        }
        bar = b.build();
    }

    @Override
    public void advance(long done) {
        if (bar != null) {
            bar.stepTo(Math.min(done, bar.getMax()));
        }
    }

    @Override
    public void end() {
        if (bar != null) {
            bar.stepTo(bar.getMax());
            bar.close();
            bar = null;
        }
    }
}
