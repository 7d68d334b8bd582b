package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.GarbageCollector;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.locks.LockSupport;

/**
 * A background thread that runs the garbage collector (one GC epoch per period) and, after each
 * epoch, the transformations of the tables it was given: NoisePage's GC thread and compaction
 * queue in one loop. Closing it stops the thread and waits for it.
 */
public final class Maintenance implements AutoCloseable {
    private final GarbageCollector gc;
    private final List<BlockTransformer> transformers = new CopyOnWriteArrayList<>();
    private final long periodNanos;
    private final Thread thread;
    private volatile boolean stop;
    private volatile Throwable failure;

    public Maintenance(GarbageCollector gc, long periodMicros) {
        this.gc = gc;
        this.periodNanos = periodMicros * 1000;
        this.thread = new Thread(this::loop, "wastecheck-gc");
        thread.setDaemon(true);
    }

    public Maintenance add(BlockTransformer t) {
        transformers.add(t);
        return this;
    }

    public Maintenance start() {
        thread.start();
        return this;
    }

    private void loop() {
        try {
            while (!stop) {
                long t0 = System.nanoTime();
                gc.run();
                for (BlockTransformer t : transformers) t.runOnce();
                long left = periodNanos - (System.nanoTime() - t0);
                if (left > 0) LockSupport.parkNanos(left);
            }
        } catch (Throwable e) {
            failure = e;
        }
    }

    /** CPU time the thread has used so far (-1 where the JVM does not measure it). */
    public long cpuNanos() {
        ThreadMXBean mx = ManagementFactory.getThreadMXBean();
        return mx.isThreadCpuTimeSupported() ? mx.getThreadCpuTime(thread.getId()) : -1;
    }

    /** What stopped the thread, if anything did. */
    public Throwable failure() {
        return failure;
    }

    @Override
    public void close() {
        stop = true;
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (failure != null) throw new IllegalStateException("maintenance thread failed", failure);
    }
}
