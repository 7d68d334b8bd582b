package dev.wastecheck.engine.block;

import dev.wastecheck.engine.txn.Transaction;

/**
 * Told of every tuple compaction moves (§4.3, Alg. 2), inside the moving transaction, so that the
 * owner of indexes over the table can point them at the new slot (on the transaction's commit).
 */
@FunctionalInterface
public interface TupleMoveListener {
    TupleMoveListener NONE = (txn, from, to) -> {};

    void moved(Transaction txn, long from, long to);
}
