package dev.georesolver.cache;

import dev.georesolver.bus.StoredEntry;
import dev.georesolver.bus.StoredAnswer;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

/**
 * What instances share beyond their own memory: stored answers and cross-instance claims on
 * identical requests in flight. None of its futures fail: a store that is down reads as empty and
 * every claim as granted, so resolution carries on, one instance at a time.
 */
interface SharedStore {

  /** The stored entry, as stored (its own stored-at and TTL), or null. */
  Future<StoredEntry> lookup(String key);

  /**
   * Tries to become the one instance walking this request.
   *
   * @param ttlMs how long the claim lives if its holder dies
   * @return true when this instance holds the claim (or the store is unavailable)
   */
  Future<Boolean> claim(String coalesceKey, long ttlMs);

  /**
   * Waits for the instance holding the claim to publish its outcome.
   *
   * @return the outcome, or null when the holder released the claim without one, died, or
   *     {@code waitMs} ran out
   */
  Future<StoredAnswer> awaitOther(String coalesceKey, long waitMs);

  /**
   * Stores a resolved answer for {@code ttlMs} (0: not stored), publishes the outcome to waiters
   * (none when {@code answer} is null: the walk failed), releases the claim.
   */
  void complete(String key, String coalesceKey, StoredAnswer answer, long ttlMs);

  /** Store status for health. */
  Future<JsonObject> status();

  /** Releases connections. */
  Future<Void> close();

  /** The embedded default: nothing shared, nothing to wait for. */
  SharedStore NONE = new SharedStore() {
    @Override
    public Future<StoredEntry> lookup(String key) {
      return Future.succeededFuture();
    }

    @Override
    public Future<Boolean> claim(String coalesceKey, long ttlMs) {
      return Future.succeededFuture(true);
    }

    @Override
    public Future<StoredAnswer> awaitOther(String coalesceKey, long waitMs) {
      return Future.succeededFuture();
    }

    @Override
    public void complete(String key, String coalesceKey, StoredAnswer answer, long ttlMs) {}

    @Override
    public Future<JsonObject> status() {
      return Future.succeededFuture(new JsonObject().put("store", "memory").put("reachable", true));
    }

    @Override
    public Future<Void> close() {
      return Future.succeededFuture();
    }
  };
}
