package dev.georesolver.state;

import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.bus.Page;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Settled;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.Correction;
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
 * memory store's write-behind) and {@link Audit} (the tenants' hash-chained audit partitions), {@link Batches} (batch jobs). A
 * new module is a new interface and accessor here,
 * its tables in {@code state.sqlite.SqliteSchema}, its keys in {@code redis.RedisKeys}, its addresses in
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

  /** Batch jobs: their rows, results, counts and slice leases. */
  Batches batches();

  /** The shadow figures, merged across the nodes sharing the store. */
  Shadow shadow();

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

    /**
     * A correction no debt owes: the stored answer {@code basis} describes drifted, and
     * {@code fresh} is where the rung that produced it places it now. The idempotency entry (under
     * the newer-wins rule), the cached-index entry and the outbox record ({@code reason: drift})
     * change together; once per stored answer: the correction as recorded, or null when the same
     * drift was recorded before (by another sample or node).
     */
    Future<Correction> drift(Debt basis, Repair fresh);

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

    /** The dead letters, the longest dead first, at most {@code limit}: {@code [{"idempotency_key", "attempts", "last_error", …}]}. */
    Future<io.vertx.core.json.JsonArray> deadLetters(int limit);
  }

  /** The shadow figures: every pair's aggregate, to which each node adds what it counted. */
  interface Shadow {

    /** Adds {@code delta} to the stored figures (exactly, once); the figures after. */
    Future<dev.georesolver.shadow.ShadowTable> merge(dev.georesolver.shadow.ShadowTable delta);

    /** The stored figures (an empty table when none). */
    Future<dev.georesolver.shadow.ShadowTable> read();
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
   * ({@code dev.georesolver.state.rules.AuditChain}) extended only here, so two chain instances (or, on
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

    /**
     * Marks each of {@code tenants}' trails as opened, with a marker signed by the deployment
     * secret, unless it is already: from then on {@code audit verify} finds a trail deleted whole.
     */
    Future<Void> open(List<String> tenants);

    /**
     * Renews writer {@code session}'s claim that it is running and holds at most {@code atMost}
     * records in memory; a session not renewed for {@link dev.georesolver.state.rules.AuditGaps#STALE_MS}
     * is declared lost by {@link #sweep}.
     */
    Future<Void> renew(String session, long atMost);

    /** Closes writer {@code session}: it stopped after handing over everything it held. */
    Future<Void> close(String session);

    /**
     * Declares every session not renewed in time lost: one gap record in each tenant's chain per lost
     * session (idempotent by the session and when it was last seen), then the session is forgotten;
     * the number of sessions declared lost.
     */
    Future<Integer> sweep();
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

  /**
   * Batch jobs. A job's rows are stored as submitted ({@code {"i", "row"}} with an invalid row's
   * {@code result} beside it), then worked on by <b>slices</b> of {@code slice_rows} rows: a process
   * leases a slice, resolves its rows without a result and records each result once (a second
   * result for a row is ignored, so a slice taken over after its lease expired never counts a row
   * twice), renewing the lease while it works.
   */
  interface Batches {

    /** The job of {@code tenant} submitted with {@code idemKey}, or null. */
    Future<BatchJob> find(String tenant, String idemKey);

    /**
     * Creates {@code job} (state {@code loading}) unless the tenant has one with its idem key; reply
     * {@code {"created": bool, "job": BatchJob JSON}} (the existing job when not created). A fresh
     * job that would take its tenant over {@code quota} (its live jobs, or the rows in them) is not
     * created and nothing is written: the future fails with {@link BatchQuotaExceeded}, naming the
     * bound and the tenant's use.
     */
    Future<JsonObject> create(BatchJob job, dev.georesolver.bus.BatchQuota quota);

    /** {@link #create(BatchJob, dev.georesolver.bus.BatchQuota)} with no quota. */
    default Future<JsonObject> create(BatchJob job) {
      return create(job, dev.georesolver.bus.BatchQuota.UNLIMITED);
    }

    /**
     * One step of expiry: jobs that ended more than {@code keepMs} ago are removed with their rows,
     * results and slices (the job first, so it reads as absent at once; a removal stopped midway
     * goes on at the next step), and each tenant's usage is cleared of jobs that ended. At most about
     * {@code max} row keys per step; how many were removed (a step that removed {@code max} is
     * followed by another).
     */
    Future<Integer> expire(long keepMs, int max);

    /**
     * Indexes the ended jobs by when they ended, once: jobs that ended before expiry existed were
     * listed without it. Nothing when the index holds any job. How many were indexed.
     */
    Future<Integer> indexEnded();

    /** Stores rows of a loading job: {@code {"i", "row", "result"?}}; a row with a result counts as done. */
    Future<Void> append(String jobId, List<JsonObject> rows);

    /** Ends loading: {@code total} rows, the input {@code columns} (JSON: known only at the end); queued, or done when no row is left to resolve. */
    Future<BatchJob> seal(String jobId, long total, io.vertx.core.json.JsonArray columns);

    /** The job, or null. */
    Future<BatchJob> get(String id);

    /** The newest jobs first, at most {@code limit}; {@code tenant} null for every tenant's. */
    Future<List<BatchJob>> list(String tenant, int limit);

    /** Cancels a job that has not ended; the job as it is after. Null when there is none. */
    Future<BatchJob> cancel(String id);

    /** Fails a job that has not ended, for {@code reason} (shown to its owner); the job after, or null. */
    Future<BatchJob> fail(String id, String reason);

    /**
     * Fails every job left loading with no loader ({@code BatchRules.staleLoading}: at start on a
     * store only this process uses, every loading job; on a shared store, those that stored nothing
     * for {@code staleMs}), for {@code reason}. How many were failed.
     */
    Future<Integer> failStaleLoading(long staleMs, String reason);

    /**
     * Leases one slice with rows left to resolve, of the open job whose tenant's turn it is (oldest
     * first within a tenant), for {@code leaseMs}: free
     * slices and slices whose lease expired. Reply {@code {"job": BatchJob JSON, "slice": n, "rows":
     * [{"i", "row"}…]}} (rows without a result only), or null when none.
     */
    Future<JsonObject> lease(String owner, long leaseMs);

    /** Extends the lease of a slice; false when it was lost or the job is no longer open. */
    Future<Boolean> renew(String owner, String jobId, int slice, long leaseMs);

    /**
     * Records results {@code {"i", "result": RowResult JSON}}: each row's first result only, counted
     * by its status; the job ends {@code done} when every row has one. Reply: the job after.
     */
    Future<BatchJob> record(String jobId, List<JsonObject> results);

    /** A slice whose rows all have a result: it is never leased again. */
    Future<Void> finishSlice(String owner, String jobId, int slice);

    /** Rows from {@code from} in input order, at most {@code limit}: {@code {"i", "row", "result"?}}. */
    Future<List<JsonObject>> page(String jobId, long from, int limit);

    /**
     * Frees every slice lease at start, when this process alone can hold any (the SQLite file is
     * locked to it): a killed process's slices are taken at once instead of after the lease. Redis
     * keeps leases to expire, since other instances may hold them.
     */
    Future<Integer> releaseLeases();
  }
}
