package dev.wastecheck.layouts.bench.tpc;

import dev.wastecheck.layouts.Field;
import dev.wastecheck.layouts.FieldType;
import dev.wastecheck.layouts.Page;
import dev.wastecheck.layouts.Record;
import dev.wastecheck.layouts.RecordSchema;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * TPC-B (TPC Benchmark B, 1990) on tables of pages: the transaction of HPL-2012-240's Table 2.
 * Per transaction: update an account's balance, read it back, update its teller's and branch's
 * balances, insert a history row. Branch, teller and account records are 100 bytes as clause 3.2
 * requires (ids, a balance, a CHAR filler that the tight types make VARLEN), history records 50.
 *
 * <p>Records are found by key through dense RID arrays (aid -&gt; RID): the same for every
 * format, so only the page operations differ. Inputs follow clause 5.3: a random teller, its
 * branch, an account of that branch with probability 0.85 and of another branch otherwise (with
 * more than one branch), a delta in [-999,999, 999,999].
 *
 * <p>{@link #mode} selects the kinds of statement that run ({@link Statements}): all of them for
 * the transaction, or one kind alone (with the key lookups and input handling, which run always)
 * for the per-statement breakdown of the paper's Figures 7-12; {@link Statements#NONE} measures
 * that logic alone, so a kind's cost is its run minus that one.
 */
public final class Tpcb {
    public static final int ACCOUNTS_PER_BRANCH = 100_000, TELLERS_PER_BRANCH = 10;
    public static final int A_ID = 0, A_BRANCH = 1, A_BALANCE = 2, A_FILLER = 3;
    public static final RecordSchema ACCOUNT = RecordSchema.of(
            Field.of("aid", FieldType.INT32),
            Field.of("bid", FieldType.INT32),
            Field.of("abalance", FieldType.INT64),
            Field.varlen("filler", false, 84));
    public static final int T_ID = 0, T_BRANCH = 1, T_BALANCE = 2;
    public static final RecordSchema TELLER = RecordSchema.of(
            Field.of("tid", FieldType.INT32),
            Field.of("bid", FieldType.INT32),
            Field.of("tbalance", FieldType.INT64),
            Field.varlen("filler", false, 84));
    public static final int B_ID = 0, B_BALANCE = 1;
    public static final RecordSchema BRANCH = RecordSchema.of(
            Field.of("bid", FieldType.INT32), Field.of("bbalance", FieldType.INT64), Field.varlen("filler", false, 88));
    public static final int H_TELLER = 0, H_BRANCH = 1, H_ACCOUNT = 2, H_DELTA = 3, H_TIME = 4;
    public static final RecordSchema HISTORY = RecordSchema.of(
            Field.of("tid", FieldType.INT32),
            Field.of("bid", FieldType.INT32),
            Field.of("aid", FieldType.INT32),
            Field.of("delta", FieldType.INT32),
            Field.of("mtime", FieldType.INT64),
            Field.varlen("filler", false, 22));

    public final PageHeap account, teller, branch, history;
    private final long[] accountRid, tellerRid, branchRid;
    private final int[] aid, tid, bid, delta;
    private final Inputs inputs;
    private final Record historyRow;
    private long time;
    /** Which statements run ({@link Statements}). */
    public int mode = Statements.ALL;

    /**
     * Clause 4.2's rows and clause 5.3's inputs, drawn from one seed: what a TPC-B run loads and
     * runs, on tables of pages ({@link Tpcb}) or inside the engine (the engine's
     * {@code EngineTpcb}), so that both run the same transactions on the same rows.
     */
    public static final class Inputs {
        public final int branches, accountsPerBranch;
        /** Random letters: the CHAR filler of every row. */
        public final byte[] filler = new byte[88];
        /** A batch's transactions: account, teller, the teller's branch and the delta. */
        public final int[] aid, tid, bid, delta;

        private final SplittableRandom random;

        /** The filler, then the first batch's inputs ({@link #draw}). */
        public Inputs(int branches, int accountsPerBranch, int batch, long seed) {
            this.branches = branches;
            this.accountsPerBranch = accountsPerBranch;
            random = new SplittableRandom(seed);
            for (int i = 0; i < filler.length; i++) filler[i] = (byte) ('a' + random.nextInt(26));
            aid = new int[batch];
            tid = new int[batch];
            bid = new int[batch];
            delta = new int[batch];
            draw();
        }

        /**
         * The next batch (clause 5.3): a random teller, its branch, an account of that branch with
         * probability 0.85 and of another branch otherwise (with more than one branch), a delta in
         * [-999,999, 999,999].
         */
        public void draw() {
            for (int i = 0; i < aid.length; i++) {
                tid[i] = random.nextInt(branches * TELLERS_PER_BRANCH);
                bid[i] = tid[i] / TELLERS_PER_BRANCH;
                int accountBranch = bid[i];
                if (branches > 1 && random.nextInt(100) >= 85) {
                    do {
                        accountBranch = random.nextInt(branches);
                    } while (accountBranch == bid[i]);
                }
                aid[i] = accountBranch * accountsPerBranch + random.nextInt(accountsPerBranch);
                delta[i] = random.nextInt(1_999_999) - 999_999;
            }
        }

        public int tellers() {
            return branches * TELLERS_PER_BRANCH;
        }

        public int accounts() {
            return branches * accountsPerBranch;
        }

        public Record branch(Record r, int b) {
            return r.setLong(B_ID, b).setLong(B_BALANCE, 0).setBytes(2, filler, 0, 88);
        }

        public Record teller(Record r, int t) {
            return r.setLong(T_ID, t)
                    .setLong(T_BRANCH, t / TELLERS_PER_BRANCH)
                    .setLong(T_BALANCE, 0)
                    .setBytes(3, filler, 0, 84);
        }

        public Record account(Record r, int a) {
            return r.setLong(A_ID, a)
                    .setLong(A_BRANCH, a / accountsPerBranch)
                    .setLong(A_BALANCE, 0)
                    .setBytes(A_FILLER, filler, 0, 84);
        }

        /** A history row with its filler set; {@link #history} fills in the rest per transaction. */
        public Record historyRow() {
            return new Record(HISTORY).setBytes(5, filler, 0, 22);
        }

        /** The history row of the batch's transaction {@code i} at {@code time}. */
        public Record history(Record r, int i, long time) {
            return r.setLong(H_TELLER, tid[i])
                    .setLong(H_BRANCH, bid[i])
                    .setLong(H_ACCOUNT, aid[i])
                    .setLong(H_DELTA, delta[i])
                    .setLong(H_TIME, time);
        }
    }

    /** Loads {@code branches} branches and prepares a batch of {@code batch} transactions' inputs. */
    public Tpcb(Function<RecordSchema, Page> format, int pageSize, int branches, int batch, long seed) {
        this(format, pageSize, branches, ACCOUNTS_PER_BRANCH, batch, seed);
    }

    /** With fewer accounts a branch than clause 4.2's 100,000 (for tests). */
    public Tpcb(
            Function<RecordSchema, Page> format,
            int pageSize,
            int branches,
            int accountsPerBranch,
            int batch,
            long seed) {
        account = new PageHeap("account", format.apply(ACCOUNT), pageSize);
        teller = new PageHeap("teller", format.apply(TELLER), pageSize);
        branch = new PageHeap("branch", format.apply(BRANCH), pageSize);
        history = new PageHeap("history", format.apply(HISTORY), pageSize);
        inputs = new Inputs(branches, accountsPerBranch, batch, seed);
        branchRid = new long[branches];
        tellerRid = new long[inputs.tellers()];
        accountRid = new long[inputs.accounts()];
        Record r = new Record(BRANCH);
        for (int b = 0; b < branches; b++) branchRid[b] = branch.insert(inputs.branch(r, b));
        r = new Record(TELLER);
        for (int t = 0; t < tellerRid.length; t++) tellerRid[t] = teller.insert(inputs.teller(r, t));
        r = new Record(ACCOUNT);
        for (int a = 0; a < accountRid.length; a++) accountRid[a] = account.insert(inputs.account(r, a));
        historyRow = inputs.historyRow();
        aid = inputs.aid;
        tid = inputs.tid;
        bid = inputs.bid;
        delta = inputs.delta;
    }

    public int batch() {
        return aid.length;
    }

    /** Runs the batch's transactions (the statements {@link #mode} selects); returns the sum of the balances read. */
    public long run() {
        long read = 0;
        int m = mode;
        for (int i = 0, n = aid.length; i < n; i++) {
            long a = accountRid[aid[i]];
            int slot = PageHeap.ridSlot(a);
            long d = delta[i];
            if ((m & Statements.UPDATE) != 0) {
                Page p = account.pageOf(a);
                p.setLong(slot, A_BALANCE, p.getLong(slot, A_BALANCE) + d);
            }
            if ((m & Statements.CONSTRUCT) != 0) read += account.pageOf(a).getLong(slot, A_BALANCE);
            if ((m & Statements.UPDATE) != 0) {
                long t = tellerRid[tid[i]];
                Page p = teller.pageOf(t);
                p.setLong(PageHeap.ridSlot(t), T_BALANCE, p.getLong(PageHeap.ridSlot(t), T_BALANCE) + d);
                long b = branchRid[bid[i]];
                p = branch.pageOf(b);
                p.setLong(PageHeap.ridSlot(b), B_BALANCE, p.getLong(PageHeap.ridSlot(b), B_BALANCE) + d);
            }
            if ((m & Statements.INSERT) != 0) {
                history.insert(inputs.history(historyRow, i, time++));
            }
            read += d;
        }
        return read;
    }

    /** Sum of a balance (or delta) field over a heap's live records: for the consistency checks. */
    public static long sum(PageHeap heap, int field) {
        long total = 0;
        for (int p = 0; p < heap.pageCount(); p++) {
            Page page = heap.page(p);
            for (int s = 0; s < page.slotCount(); s++) if (!page.isGhost(s)) total += page.getLong(s, field);
        }
        return total;
    }
}
