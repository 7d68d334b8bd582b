package dev.wastecheck.engine.block;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The long crash run ({@code ./bench arrow crash [KILLS] [SEED]}): {@link CrashRecoveryTest}'s loop
 * of SIGKILLs and checks, 100 kills by default, printing what was checked. Any lost, extra or half
 * transaction stops it with the assertion that found it.
 */
public final class CrashRecoveryRun {
    private CrashRecoveryRun() {}

    public static void main(String[] args) throws Exception {
        int kills = args.length > 0 ? Integer.parseInt(args[0]) : 100;
        long seed = args.length > 1 ? Long.parseLong(args[1]) : 20261127L;
        Path root = Files.createTempDirectory("crash-run");
        long t0 = System.nanoTime();
        CrashRecoveryTest.Totals t = CrashRecoveryTest.crashLoop(root, kills, seed, 300, 1500);
        System.out.printf(
                "kills %d (seed %d) in %.0f s: %d commit callbacks fired (%d write transactions), all recovered"
                        + " with their exact values; %d transactions of unknown fate found whole, %d absent; %d frozen"
                        + " blocks and %d rows read back through ArrowStreamReader; log damage seen: %s%n",
                t.kills(),
                seed,
                (System.nanoTime() - t0) / 1e9,
                t.durable(),
                t.writeTransactions(),
                t.unknownApplied(),
                t.unknownAbsent(),
                t.frozenBlocksRead(),
                t.rowsCompared(),
                t.damages());
        CrashRecoveryTest.deleteTree(root);
    }
}
