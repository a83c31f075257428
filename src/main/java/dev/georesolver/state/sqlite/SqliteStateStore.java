package dev.georesolver.state.sqlite;

import dev.georesolver.state.StateStore;
import dev.georesolver.bus.Page;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Settled;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.Repair;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * The embedded backend: one SQLite file ({@link SqliteDb}) with <b>group commit</b>. Every operation
 * is queued and the queue is run as one transaction when {@code commitIntervalMs} has passed since
 * the first one queued, or at once when {@code commitMaxWrites} are queued: a burst of thousands of
 * writes costs a handful of commits. Each operation's future completes after its commit.
 *
 * <p>Blocking: it must be used from a worker context (the {@link StateVerticle} is a worker verticle
 * for this store), never from an event loop. Not thread-safe: one context.
 */
public final class SqliteStateStore implements StateStore {

  private final Vertx vertx;
  private final SqliteDb db;
  private final Clock clock;
  private final long commitIntervalMs;
  private final int commitMaxWrites;
  private final boolean withCache;
  private final long indexTtlS;
  private final List<Queued<?>> queue = new ArrayList<>();
  private long timer = -1;
  private long commits;

  private record Queued<T>(SqliteDb.Op<T> op, Promise<T> promise) {}

  /**
   * @param db the open file
   * @param withCache whether the memory store's write-behind is kept here (and corrections replace
   *     the idempotency and index entries in this file)
   * @param indexTtlS the cached-index entry lifetime, seconds
   */
  public SqliteStateStore(Vertx vertx, SqliteDb db, Clock clock, long commitIntervalMs, int commitMaxWrites,
      boolean withCache, long indexTtlS) {
    this.vertx = vertx;
    this.db = db;
    this.clock = clock;
    this.commitIntervalMs = commitIntervalMs;
    this.commitMaxWrites = commitMaxWrites;
    this.withCache = withCache;
    this.indexTtlS = indexTtlS;
  }

  /** Queues one operation for the next group commit. */
  <T> Future<T> submit(SqliteDb.Op<T> op) {
    Promise<T> p = Promise.promise();
    queue.add(new Queued<>(op, p));
    if (queue.size() >= commitMaxWrites) {
      flush();
    } else if (timer < 0) {
      timer = vertx.setTimer(commitIntervalMs, id -> {
        timer = -1;
        flush();
      });
    }
    return p.future();
  }

  @SuppressWarnings("unchecked")
  private void flush() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    if (queue.isEmpty()) {
      return;
    }
    List<Queued<?>> batch = new ArrayList<>(queue);
    queue.clear();
    List<SqliteDb.Outcome> outcomes = db.transaction(batch.stream().map(Queued::op).toList());
    commits++;
    for (int i = 0; i < batch.size(); i++) {
      Promise<Object> p = (Promise<Object>) batch.get(i).promise();
      SqliteDb.Outcome o = outcomes.get(i);
      if (o.failure() == null) {
        p.complete(o.value());
      } else {
        p.fail(o.failure());
      }
    }
  }

  @Override
  public String kind() {
    return "sqlite";
  }

  private final Debts debts = new Debts() {
    @Override
    public Future<JsonObject> enqueue(List<Debt> ds) {
      return submit(d -> {
        int[] n = d.enqueue(ds, clock.millis());
        return new JsonObject().put("accepted", n[0]).put("duplicate", n[1]);
      });
    }

    @Override
    public Future<List<LeasedDebt>> lease(String owner, int max, long leaseMs) {
      return submit(d -> d.lease(owner, max, leaseMs, clock.millis()));
    }

    @Override
    public Future<Settled> correct(String owner, LeasedDebt item, Repair repair) {
      return submit(d -> d.correct(owner, item.id(), repair, withCache, clock.millis()));
    }

    @Override
    public Future<Settled> confirm(String owner, LeasedDebt item) {
      return finish(owner, item, "done", "confirmed", null, null);
    }

    @Override
    public Future<Settled> retry(String owner, LeasedDebt item, long notBeforeMs, String error) {
      return finish(owner, item, "pending", null, notBeforeMs, error == null ? "failed" : error);
    }

    @Override
    public Future<Settled> dead(String owner, LeasedDebt item, String error) {
      return finish(owner, item, "dead", "dead", null, error == null ? "failed" : error);
    }

    @Override
    public Future<Settled> release(String owner, LeasedDebt item, long notBeforeMs) {
      return finish(owner, item, "pending", null, notBeforeMs, null);
    }

    private Future<Settled> finish(String owner, LeasedDebt item, String state, String outcome, Long notBefore,
        String error) {
      return submit(d -> d.finish(item.id(), owner, state, outcome, notBefore, error, clock.millis()) == 1
          ? Settled.OK : Settled.LOST);
    }

    @Override
    public Future<QueueStats> stats() {
      return submit(d -> d.stats(clock.millis()));
    }
  };

  private final Outbox outbox = new Outbox() {
    @Override
    public Future<Page> page(String after, int limit) {
      return submit(d -> d.page(after, limit));
    }

    @Override
    public Future<String> head() {
      return submit(SqliteDb::head);
    }

    @Override
    public Future<String> cursor(String name) {
      return submit(d -> d.cursor(name));
    }

    @Override
    public Future<Void> saveCursor(String name, String cursor) {
      return submit(d -> {
        d.saveCursor(name, cursor, clock.millis());
        return null;
      });
    }
  };

  private final Cache cache = new Cache() {
    @Override
    public Future<Integer> write(CacheWrites w) {
      return submit(d -> d.writeCache(w, indexTtlS, clock.millis()));
    }

    @Override
    public Future<CacheWrites> load(String kind, int limit) {
      return submit(d -> d.loadCache(kind, limit, clock.millis()));
    }
  };

  private final Batches batches = new Batches() {
    @Override
    public Future<BatchJob> find(String tenant, String idemKey) {
      return submit(d -> SqliteBatches.find(d.connection(), tenant, idemKey));
    }

    @Override
    public Future<JsonObject> create(BatchJob job) {
      return submit(d -> SqliteBatches.create(d.connection(), job));
    }

    @Override
    public Future<Void> append(String jobId, List<JsonObject> rows) {
      return submit(d -> {
        SqliteBatches.append(d.connection(), jobId, rows);
        return null;
      });
    }

    @Override
    public Future<BatchJob> seal(String jobId, long total, JsonArray columns) {
      return submit(d -> SqliteBatches.seal(d.connection(), jobId, total, columns, clock.millis()));
    }

    @Override
    public Future<BatchJob> get(String id) {
      return submit(d -> SqliteBatches.get(d.connection(), id));
    }

    @Override
    public Future<List<BatchJob>> list(String tenant, int limit) {
      return submit(d -> SqliteBatches.list(d.connection(), tenant, limit));
    }

    @Override
    public Future<BatchJob> cancel(String id) {
      return submit(d -> SqliteBatches.cancel(d.connection(), id, clock.millis()));
    }

    @Override
    public Future<JsonObject> lease(String owner, long leaseMs, List<String> skip) {
      return submit(d -> SqliteBatches.lease(d.connection(), owner, leaseMs, skip, clock.millis()));
    }

    @Override
    public Future<Boolean> renew(String owner, String jobId, int slice, long leaseMs) {
      return submit(d -> SqliteBatches.renew(d.connection(), owner, jobId, slice, leaseMs, clock.millis()));
    }

    @Override
    public Future<BatchJob> record(String jobId, List<JsonObject> results) {
      return submit(d -> SqliteBatches.record(d.connection(), jobId, results, clock.millis()));
    }

    @Override
    public Future<Void> finishSlice(String owner, String jobId, int slice) {
      return submit(d -> {
        SqliteBatches.finishSlice(d.connection(), owner, jobId, slice);
        return null;
      });
    }

    @Override
    public Future<List<JsonObject>> page(String jobId, long from, int limit) {
      return submit(d -> SqliteBatches.page(d.connection(), jobId, from, limit));
    }

    @Override
    public Future<Integer> releaseLeases() {
      return submit(d -> SqliteBatches.releaseLeases(d.connection()));
    }
  };

  private final Audit audit = new Audit() {
    @Override
    public Future<JsonObject> append(List<AuditEvent> events) {
      return submit(d -> {
        int[] n = d.appendAudit(events);
        return new JsonObject().put("written", n[0]).put("duplicate", n[1]);
      });
    }

    @Override
    public Future<JsonObject> page(String tenant, String after, long fromMs, long toMs, int limit) {
      long from = after == null || after.isEmpty() ? 0 : Long.parseLong(after);
      return submit(d -> d.pageAudit(tenant, from, fromMs, toMs, limit));
    }

    @Override
    public Future<Integer> retain(long cutoffMs) {
      return submit(d -> d.retainAudit(cutoffMs, clock.millis()));
    }
  };

  @Override
  public Audit audit() {
    return audit;
  }

  @Override
  public Batches batches() {
    return batches;
  }

  @Override
  public Debts debts() {
    return debts;
  }

  @Override
  public Outbox corrections() {
    return outbox;
  }

  @Override
  public Cache cache() {
    return withCache ? cache : Cache.NONE;
  }

  /** Removes expired cache entries and caps each kind at {@code maxEntries}. */
  public Future<SqliteDb.Pruned> prune(long maxEntries, int slice, boolean expired) {
    return submit(d -> d.pruneCache(maxEntries, slice, expired, clock.millis()));
  }

  @Override
  public Future<JsonObject> status() {
    return Future.succeededFuture(new JsonObject()
        .put("store", "sqlite")
        .put("reachable", true)
        .put("persistent", true)
        .put("path", db.path().toString())
        .put("commits", commits));
  }

  @Override
  public Future<Void> close() {
    flush();
    db.close();
    return Future.succeededFuture();
  }
}
