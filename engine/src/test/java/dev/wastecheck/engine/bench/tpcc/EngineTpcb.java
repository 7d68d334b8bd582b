package dev.wastecheck.engine.bench.tpcc;

import static dev.wastecheck.layouts.bench.tpc.Tpcb.A_BALANCE;
import static dev.wastecheck.layouts.bench.tpc.Tpcb.B_BALANCE;
import static dev.wastecheck.layouts.bench.tpc.Tpcb.T_BALANCE;

import dev.wastecheck.engine.buffer.Frame;
import dev.wastecheck.engine.file.TupleId;
import dev.wastecheck.engine.heap.HeapFile;
import dev.wastecheck.engine.index.BTree;
import dev.wastecheck.layouts.Layout;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.bench.tpc.Tpcb;

/**
 * TPC-B inside the engine: the layouts module's {@link Tpcb} (its schemas, clause 4.2's rows and
 * clause 5.3's inputs, {@link Tpcb.Inputs}) with the branch, teller, account and history tables
 * heap files of one layout's pages in a buffer pool ({@link EngineTables}), and branches,
 * tellers and accounts found through a B+tree on their id (history has no index). The setup of
 * HPL-2012-240 §6.2's Table 2 as far as our engine goes: records found through B-trees whose nodes
 * live in the buffer pool, heap pages pinned and latched (the frame's monitor), no lock manager
 * and no log for heap tables (as {@link EngineTpcc}).
 *
 * <p>The "account update" transaction statement by statement, in the order of Figure 7's
 * T1..T7 (r retrieval, i insertion, u update; §6.2):
 *
 * <pre>
 *   T1 r  the account by its id (B+tree probe) and its balance (a single field, §6.2 (iii))
 *   T2 u  the account's balance += delta, in place (a single-field update)
 *   T3 i  a history row (heap append)
 *   T4 r  the teller by its id and its balance
 *   T5 u  the teller's balance += delta
 *   T6 r  the branch by its id and its balance
 *   T7 u  the branch's balance += delta
 * </pre>
 *
 * The order is Shore-MT's TPC-B kit's (account, history, teller, branch); the paper's Figure 7
 * separates each table's probe from its update, which is why one TPC-B statement of clause 1.2
 * ("update the account, read its balance back") is two bars, T1 r and T2 u, here. The checksum
 * is the page-only {@link Tpcb#run}'s on the same inputs: the account's new balance and the delta
 * per transaction.
 *
 * <p>{@link #run(long[])} with an array times each statement (one {@link System#nanoTime} call at each
 * statement boundary, seven a transaction, the same for every layout) and adds each one's nanoseconds to its cell:
 * Figure 7's breakdown from the engine run. Without one it runs untimed: Table 2's transaction.
 *
 * <p>{@link #run(long[], Touch)} is a diagnostic of T1, not a format (docs/benchmarks.md, "TPC-B's
 * miss, explained"): before each transaction's T1, outside the timed laps, it loads one byte of
 * the account's page at the offset of NSM's slot for the account's slot number
 * ({@link Touch#SLOT}: on NSM the slot line T1 reads before the record, so T1 finds it in cache)
 * or the same offset for another account, one the batch does not read ({@link Touch#OTHER}: the
 * same untimed work without warming a line T1 reads). The gap between the two on NSM is what the
 * slot's dependent miss costs T1; on HPL, which has no slot, the offset is an arbitrary line of
 * its page and both should time the same.
 */
public final class EngineTpcb extends EngineTables {
    /** Figure 7's statements, in the order {@link #run(long[])} times them. */
    public static final String[] STATEMENTS = {
        "T1 r account", "T2 u account", "T3 i history", "T4 r teller", "T5 u teller", "T6 r branch", "T7 u branch"
    };

    public final HeapFile branch, teller, account, history;
    private final BTree branchPk, tellerPk, accountPk;
    public final Tpcb.Inputs inputs;
    private final Record historyRow;
    private long time;
    private static final int[] A_BAL = {A_BALANCE}, T_BAL = {T_BALANCE}, B_BAL = {B_BALANCE};
    private final long[] value = new long[1];
    /** When the statement being timed began. */
    private long lapStart;

    /** What {@link #run(long[], Touch)} loads before each T1, untimed (class comment). */
    public enum Touch {
        /** Nothing: {@link #run(long[])}. */
        NONE,
        /** The byte at NSM's slot of the account T1 reads, on the account's page. */
        SLOT,
        /** The same offset for an account half the table away, which the batch does not read. */
        OTHER
    }

    /**
     * NsmPage's slot array as its class comment draws it: a 20-byte header, then 4 bytes a slot
     * (NsmPage.HEADER_SIZE and SLOT_SIZE, package-private there; {@code EngineTpcbTest} checks
     * that the offset holds the offset of the account's record on NSM pages).
     */
    static final int NSM_HEADER_SIZE = 20, NSM_SLOT_SIZE = 4;

    /** Per account id: its tuple id ({@link Touch} only; the timed path finds it through the B+tree). */
    private final long[] accountTid;
    /** Per page number: the bytes of the frame holding it, for the account pages ({@link Touch} only). */
    private final byte[][] accountPage;
    /** What the touches loaded, kept so that no load is dead code. */
    private long touched;

    /**
     * Loads {@code branches} branches of {@code accountsPerBranch} accounts (clause 4.2: 100,000)
     * into heap files of {@code layout} in a pool of {@code poolBytes} over {@code pageSize}-byte
     * pages, as {@link Tpcb} loads its pages from the same {@code seed}, and draws the first batch
     * of {@code batch} transactions.
     */
    public EngineTpcb(
            int branches, int accountsPerBranch, int batch, long seed, Layout layout, int pageSize, long poolBytes) {
        super(layout, pageSize, poolBytes);
        branch = table(Tpcb.BRANCH);
        teller = table(Tpcb.TELLER);
        account = table(Tpcb.ACCOUNT);
        history = table(Tpcb.HISTORY);
        branchPk = index();
        tellerPk = index();
        accountPk = index();
        inputs = new Tpcb.Inputs(branches, accountsPerBranch, batch, seed);
        Record r = new Record(Tpcb.BRANCH);
        for (int b = 0; b < branches; b++) branchPk.insert(key(b), branch.insert(inputs.branch(r, b)));
        r = new Record(Tpcb.TELLER);
        for (int t = 0; t < inputs.tellers(); t++) tellerPk.insert(key(t), teller.insert(inputs.teller(r, t)));
        r = new Record(Tpcb.ACCOUNT);
        accountTid = new long[inputs.accounts()];
        long maxPage = 0;
        for (int a = 0; a < inputs.accounts(); a++) {
            accountTid[a] = account.insert(inputs.account(r, a));
            accountPk.insert(key(a), accountTid[a]);
            maxPage = Math.max(maxPage, TupleId.page(accountTid[a]));
        }
        accountPage = new byte[Math.toIntExact(maxPage + 1)][];
        for (long tid : accountTid) {
            int page = (int) TupleId.page(tid);
            if (accountPage[page] != null) continue;
            Frame f = pool.pin(page);
            accountPage[page] = f.bytes(); // the frame keeps the page: no eviction in these runs
            pool.unpin(f, false);
        }
        historyRow = inputs.historyRow();
    }

    /** The batch's transactions, untimed (Table 2). */
    public long run() {
        return run(null);
    }

    /**
     * Runs the batch's transactions; with {@code nanos} (7 cells, {@link #STATEMENTS}) adds each
     * statement's time to its cell. Returns {@link Tpcb#run}'s checksum.
     */
    public long run(long[] nanos) {
        return run(nanos, Touch.NONE);
    }

    /**
     * {@link #run(long[])} with {@code touch}'s byte loaded before each T1, outside the timed laps
     * (the class comment; {@code nanos} is required unless {@code touch} is NONE). The lap clock
     * starts again after the load: {@link System#nanoTime} reads the TSC through Linux's vDSO
     * {@code rdtsc_ordered} (an {@code lfence} or {@code rdtscp}, which waits for earlier loads),
     * so the touch's miss stays outside T1.
     */
    public long run(long[] nanos, Touch touch) {
        if (touch != Touch.NONE && nanos == null) throw new IllegalArgumentException("a touch needs timed laps");
        int[] aid = inputs.aid, tid = inputs.tid, bid = inputs.bid, delta = inputs.delta;
        long sum = 0, seen = 0;
        lapStart = nanos == null ? 0 : System.nanoTime();
        for (int i = 0, n = aid.length; i < n; i++) {
            if (touch != Touch.NONE) {
                seen += touchBefore(aid[i], touch);
                lapStart = System.nanoTime();
            }
            long d = delta[i];
            long balance = add(accountPk, account, aid[i], A_BAL, d, nanos, 0); // T1 r, T2 u
            history.insert(inputs.history(historyRow, i, time++));
            lap(nanos, 2); // T3 i
            add(tellerPk, teller, tid[i], T_BAL, d, nanos, 3); // T4 r, T5 u
            add(branchPk, branch, bid[i], B_BAL, d, nanos, 5); // T6 r, T7 u
            sum += balance + d + d;
        }
        touched += seen;
        return sum;
    }

    /** Loads the byte {@code touch} names for account {@code a} (class comment). */
    private int touchBefore(int a, Touch touch) {
        int of = touch == Touch.SLOT ? a : (a + accountTid.length / 2) % accountTid.length;
        return accountPage[(int) TupleId.page(accountTid[of])][slotOffset(accountTid[of])];
    }

    /** The offset in its page of NSM's slot of tuple {@code tid}. */
    static int slotOffset(long tid) {
        return NSM_HEADER_SIZE + TupleId.slot(tid) * NSM_SLOT_SIZE;
    }

    /** The account's tuple id, as loaded. */
    long accountTid(int a) {
        return accountTid[a];
    }

    /** The bytes of the frame holding account page {@code page}. */
    byte[] accountPage(long page) {
        return accountPage[(int) page];
    }

    /**
     * Two statements: the row of {@code id} by its key and its balance (r, timed into
     * {@code nanos[k]}), then the balance += {@code d} in place (u, into {@code nanos[k + 1]}).
     * Returns the balance read.
     */
    private long add(BTree pk, HeapFile table, int id, int[] balance, long d, long[] nanos, int k) {
        long row = lookup(pk, key(id));
        long read = table.getLong(row, balance[0]);
        lap(nanos, k);
        value[0] = read + d;
        table.setLongs(row, balance, value);
        lap(nanos, k + 1);
        return read;
    }

    /** Adds the time since the last lap to {@code nanos[k]} (nothing untimed). */
    private void lap(long[] nanos, int k) {
        if (nanos == null) return;
        long now = System.nanoTime();
        nanos[k] += now - lapStart;
        lapStart = now;
    }

    /** The sum of a balance (or the deltas) over a table's live rows: TPC-B's consistency conditions. */
    public static long sum(HeapFile table, int field) {
        long[] total = {0};
        table.scan(-1, 0, 0, null, tid -> {
            total[0] += table.getLong(tid, field);
            return true;
        });
        return total[0];
    }

    @Override
    protected String more() {
        return String.format(
                java.util.Locale.ROOT,
                "; %d branches, %d tellers, %d accounts, %d history rows",
                branch.rows(),
                teller.rows(),
                account.rows(),
                history.rows());
    }
}
