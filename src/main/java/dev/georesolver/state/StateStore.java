package dev.georesolver.state;

import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.Repair;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * The durable store: one contract, two backends ({@link SqliteStateStore}, {@link RedisStateStore}),
 * owned by the {@link StateVerticle} and used only from its context. Every method is asynchronous;
 * a failed future means the store could not do it now (the caller keeps what it has and retries).
 *
 * <p>The store is made of modules, each its own interface here: {@link Debts} (the reconcile
 * queue), {@link Outbox} (the corrections outbox and delivery cursors), {@link Cache} (the
 * memory store's write-behind) and {@link Audit} (the tenants' hash-chained audit partitions). A
 * new module (batches) is a new interface and accessor here,
 * its tables in {@link SqliteSchema}, its keys in {@link RedisKeys}, its addresses in
 * {@code bus.Addresses} and its handlers in {@link StateVerticle}.
 */
public interface StateStore {

  /** {@code sqlite} or {@code redis}. */
  String kind();

  /** The reconcile queue. */
  Debts debts();

  /** The corrections outbox. */
  Outbox corrections();

  /** The memory store's write-behind; {@link Cache#NONE} when this store keeps no cache. */
  Cache cache();

  /** The audit trail. */
  Audit audit();

  /** Status for health: {@code store}, {@code reachable}, {@code persistent} and the backend's own. */
  Future<JsonObject> status();

  /** Releases the file or connections. */
  Future<Void> close();

  /** The reconcile queue: debts queued once each, leased oldest first, settled under their lease. */
  interface Debts {

    /** Queues each debt once per key, intent and direction; {@code {"accepted", "duplicate"}}. */
    Future<JsonObject> enqueue(List<Debt> debts);

    /** Leases up to {@code max} items for {@code leaseMs}: due pending ones and expired leases, oldest first. */
    Future<List<LeasedDebt>> lease(String owner, int max, long leaseMs);

    /**
     * The transactional outbox: the idempotency entry, the cached-index entry and the outbox record
     * change together with the item's state, or none of them does; guarded by the lease.
     */
    Future<Settled> correct(String owner, LeasedDebt item, Repair repair);

    /** Every rung above found nothing: the degraded answer stands (done, no event). */
    Future<Settled> confirm(String owner, LeasedDebt item);

    /** Failed again: back to the queue, due at {@code notBeforeMs}, one more attempt counted. */
    Future<Settled> retry(String owner, LeasedDebt item, long notBeforeMs, String error);

    /** Failed for the last time: to the dead letter (kept, visible, counted). */
    Future<Settled> dead(String owner, LeasedDebt item, String error);

    /** Not worked on (no rung could be called): back to the queue, due at {@code notBeforeMs}, no attempt counted. */
    Future<Settled> release(String owner, LeasedDebt item, long notBeforeMs);

    /** The queue's figures. */
    Future<QueueStats> stats();
  }

  /** The corrections outbox and the delivery cursors of its consumers. */
  interface Outbox {

    /** Up to {@code limit} corrections after {@code after} (null: from the start), oldest first. */
    Future<Page> page(String after, int limit);

    /** The newest cursor, or null when empty. */
    Future<String> head();

    /** A named delivery cursor, or null. */
    Future<String> cursor(String name);

    /** Saves a named delivery cursor. */
    Future<Void> saveCursor(String name, String cursor);
  }

  /**
   * The audit trail: one append-only partition per tenant, each a hash chain
   * ({@code dev.georesolver.audit.AuditChain}) extended only here, so two chain instances (or, on
   * Redis, two resolvers) never fork it.
   */
  interface Audit {

    /**
     * Appends each event to its tenant's chain, in order; {@code {"written", "duplicate"}} (an event
     * whose id is already stored is not written twice, where the backend can tell).
     */
    Future<JsonObject> append(List<AuditEvent> events);

    /**
     * Up to {@code limit} of {@code tenant}'s records after the cursor {@code after} (null: from the
     * start) with {@code fromMs <= ts_ms < toMs}, oldest first: {@code {"records": [...], "next":
     * cursor}}; an empty page keeps the cursor. A page may hold fewer than {@code limit} records
     * while {@code next} moves on (the backend looked through its share and found fewer in range).
     */
    Future<JsonObject> page(String tenant, String after, long fromMs, long toMs, int limit);

    /**
     * Removes each tenant's longest prefix of records older than {@code cutoffMs} and records the
     * new anchor (the last removed record's seq and hash) with it; the number removed.
     */
    Future<Integer> retain(long cutoffMs);
  }

  /** The memory store's write-behind: idempotency and cached-index entries kept across restarts. */
  interface Cache {

    /** Writes entries; an older answer never replaces a newer one; the number written. */
    Future<Integer> write(CacheWrites w);

    /** The most recent live entries of {@code kind} ({@code idem} or {@code index}), at most {@code limit}. */
    Future<CacheWrites> load(String kind, int limit);

    /** Whether this store keeps a cache at all. */
    default boolean enabled() {
      return true;
    }

    /** A store that keeps no cache (Redis: the shared store is the cache). */
    Cache NONE = new Cache() {
      @Override
      public Future<Integer> write(CacheWrites w) {
        return Future.succeededFuture(0);
      }

      @Override
      public Future<CacheWrites> load(String kind, int limit) {
        return Future.succeededFuture(new CacheWrites(List.of(), List.of()));
      }

      @Override
      public boolean enabled() {
        return false;
      }
    };
  }
}
