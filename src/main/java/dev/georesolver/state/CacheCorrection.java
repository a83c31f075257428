package dev.georesolver.state;

import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.Repair;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;

/**
 * How a correction replaces the stored answer and the cached-index entry of its key, wherever this
 * deployment keeps them: in the store's own cache logs, in the same transaction as the outbox record
 * (the embedded store with the memory cache); in a shared cache, before that transaction (Redis,
 * where dedupe and index keys live apart from the queue's slot); or nowhere. Whichever it is, the
 * newer-wins rule is {@code Corrections.replaces}.
 */
public interface CacheCorrection {

  /** Whether the cache is outside the tables, written before the queue's transaction. */
  boolean shared();

  /** Writes the corrected answer to the shared cache unless it holds a newer one (nothing when not shared). */
  Future<Void> before(Debt debt, Correction c, Repair repair);

  /** Writes the corrected answer inside the queue's transaction (nothing when the cache is shared or absent). */
  Future<Void> within(Txn x, Debt debt, Correction c, Repair repair);

  /** No cache to correct. */
  CacheCorrection NONE = new CacheCorrection() {
    @Override
    public boolean shared() {
      return false;
    }

    @Override
    public Future<Void> before(Debt debt, Correction c, Repair repair) {
      return Future.succeededFuture();
    }

    @Override
    public Future<Void> within(Txn x, Debt debt, Correction c, Repair repair) {
      return Future.succeededFuture();
    }
  };
}
