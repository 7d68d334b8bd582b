package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.Transaction;
import dev.wastecheck.layouts.Record;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;

/**
 * The process {@link CrashRecoveryTest} kills: it loads the {@link TpccLikeMix} into an {@link
 * ArrowDatabase} with logging on, then runs the mix on one worker per warehouse with the
 * transformation and periodic checkpoints in the background, until it is killed.
 *
 * <p>Each worker behaves as a client that waits for its result: before it commits it prints {@code P
 * worker n effects} (what the transaction wrote, by key), and it starts its next transaction only
 * after the commit callback printed {@code D worker n commitTs} (§3.4: a result is released only once
 * durable). So at a kill each worker has at most one transaction whose fate the parent does not know.
 * An abort prints {@code A worker n}. Every line is flushed to the pipe as it is written, and so
 * survives the kill.
 *
 * <p>Arguments: directory, seed, warehouses, items, customers, checkpoint period in ms.
 */
public final class CrashChild {
    static final int BLOCK_SIZE = 1 << 14;

    private static final PrintStream OUT =
            new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);

    static synchronized void emit(String line) {
        OUT.println(line);
        OUT.flush();
    }

    public static void main(String[] args) throws Exception {
        Path dir = Path.of(args[0]);
        long seed = Long.parseLong(args[1]);
        int warehouses = Integer.parseInt(args[2]), items = Integer.parseInt(args[3]);
        int customers = Integer.parseInt(args[4]);
        long checkpointMillis = Long.parseLong(args[5]);
        ArrowDatabase db =
                ArrowDatabase.open(dir, TpccLikeMix.tableDefs(), true, BLOCK_SIZE, ArrowTable.FreezeMode.GATHER);
        TpccLikeMix mix = new TpccLikeMix(warehouses, items, customers, db);
        mix.load(seed);
        db.checkpoint();
        emit("LOADED " + db.transactions().clock());

        Maintenance maintenance = new Maintenance(db.gc(), 2_000);
        for (TpccLikeMix.Indexed t : mix.tables()) maintenance.add(new BlockTransformer(t.table, db.gc(), 20, 4));
        maintenance.start();
        Thread checkpoints = new Thread(
                () -> {
                    try {
                        while (true) {
                            Thread.sleep(checkpointMillis);
                            long ts = db.checkpoint();
                            emit("K " + ts);
                        }
                    } catch (Exception e) {
                        emit("ERROR checkpoint " + e);
                    }
                },
                "checkpoints");
        checkpoints.setDaemon(true);
        checkpoints.start();

        ThreadLocal<StringBuilder> effects = ThreadLocal.withInitial(StringBuilder::new);
        mix.effects = new TpccLikeMix.Effects() {
            @Override
            public void inserted(TpccLikeMix.Indexed t, Record r) {
                effects.get().append(";I|").append(t.name()).append('|').append(TpccLikeMix.render(r));
            }

            @Override
            public void updated(TpccLikeMix.Indexed t, long key, int[] columns, Record values) {
                StringBuilder sb = effects.get()
                        .append(";U|")
                        .append(t.name())
                        .append('|')
                        .append(key)
                        .append('|');
                for (int i = 0; i < columns.length; i++)
                    sb.append(i == 0 ? "" : ",")
                            .append(columns[i])
                            .append('=')
                            .append(TpccLikeMix.render(values, columns[i]));
            }

            @Override
            public void deleted(TpccLikeMix.Indexed t, long key) {
                effects.get().append(";X|").append(t.name()).append('|').append(key);
            }
        };
        List<Thread> workers = new ArrayList<>();
        for (int i = 0; i < warehouses; i++) {
            int w = i + 1;
            workers.add(new Thread(() -> work(mix, w, new SplittableRandom(seed * 31 + w), effects.get()), "w" + w));
        }
        workers.forEach(Thread::start);
        for (Thread t : workers) t.join();
    }

    private static void work(TpccLikeMix mix, int w, SplittableRandom r, StringBuilder effects) {
        TpccLikeMix.Worker k = mix.new Worker(w, r);
        try {
            for (long n = 1; ; n++) {
                effects.setLength(0);
                Transaction t = mix.tm.begin();
                boolean ok = k.step(t);
                if (!ok || t.mustAbort()) {
                    mix.tm.abort(t);
                    continue;
                }
                if (t.isReadOnly()) effects.setLength(0);
                emit("P " + w + " " + n + " " + effects);
                CountDownLatch durable = new CountDownLatch(1);
                long nn = n;
                if (!mix.tm.commit(t, () -> {
                    emit("D " + w + " " + nn + " " + t.commitTs());
                    durable.countDown();
                })) {
                    emit("A " + w + " " + n);
                    continue;
                }
                durable.await();
            }
        } catch (Throwable e) {
            emit("ERROR worker " + w + " " + e);
        }
    }
}
