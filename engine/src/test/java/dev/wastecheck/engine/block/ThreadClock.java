package dev.wastecheck.engine.block;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the calling thread's wall time went, from Linux's own accounting of it ({@code
 * /proc/thread-self}): user and system CPU ({@code stat}, in clock ticks of 10 ms), time runnable but
 * waiting for a core ({@code schedstat}, nanoseconds), and context switches, voluntary (the thread
 * blocked: a lock, a park, a system call that sleeps) and involuntary (the scheduler took the core
 * away). Wall time minus CPU minus the run-queue wait is time the thread was blocked. Zeros where
 * {@code /proc} does not have them.
 */
record ThreadClock(long userNanos, long systemNanos, long runQueueNanos, long voluntary, long involuntary) {
    static final ThreadClock ZERO = new ThreadClock(0, 0, 0, 0, 0);

    /** The calling thread's figures now. */
    static ThreadClock now() {
        try {
            Path self = Path.of("/proc/thread-self");
            String stat = Files.readString(self.resolve("stat"));
            // fields after the command name, which is in parentheses and may hold spaces
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            long tick = 10_000_000L; // USER_HZ = 100 on Linux
            long user = Long.parseLong(f[11]) * tick, system = Long.parseLong(f[12]) * tick;
            String[] sched = Files.readString(self.resolve("schedstat")).trim().split(" ");
            long voluntary = 0, involuntary = 0;
            for (String line : Files.readAllLines(self.resolve("status"))) {
                if (line.startsWith("voluntary_ctxt_switches:"))
                    voluntary =
                            Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                else if (line.startsWith("nonvoluntary_ctxt_switches:"))
                    involuntary =
                            Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
            return new ThreadClock(user, system, Long.parseLong(sched[1]), voluntary, involuntary);
        } catch (IOException e) { // no /proc here: no figures
            return ZERO;
        }
    }

    ThreadClock minus(ThreadClock o) {
        return new ThreadClock(
                userNanos - o.userNanos,
                systemNanos - o.systemNanos,
                runQueueNanos - o.runQueueNanos,
                voluntary - o.voluntary,
                involuntary - o.involuntary);
    }

    ThreadClock plus(ThreadClock o) {
        return new ThreadClock(
                userNanos + o.userNanos,
                systemNanos + o.systemNanos,
                runQueueNanos + o.runQueueNanos,
                voluntary + o.voluntary,
                involuntary + o.involuntary);
    }
}
