package dev.georesolver.state;

import dev.georesolver.state.rules.AuditGaps;
import dev.georesolver.bus.Page;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Settled;
import dev.georesolver.bus.WriteBuffer;
import dev.georesolver.state.redis.RedisLegacy;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.state.redis.SharedCacheCorrection;
import dev.georesolver.state.rules.Cursors;
import dev.georesolver.state.sqlite.SqliteLegacy;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.AuditBatch;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.BatchQuota;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.DebtBatch;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.Repair;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.StateConfig;
import dev.georesolver.metrics.Metrics;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

/**
 * Owns the durable store and answers for it on the {@code geocode.state.*} addresses
 * ({@link Addresses}): nothing else touches the file or the state keys. With SQLite it is deployed
 * as a <b>worker</b> verticle, so every JDBC call runs on a worker thread, never on an event loop;
 * with Redis it is an ordinary one.
 *
 * <p>It also watches the disk under the SQLite file: below {@code state.min_free_mb} new durable work
 * (debts, write-behind, new batch jobs and their rows) is refused loudly — a log line naming the
 * keys, the {@code georesolver_state_refused_total} counter, {@code refusing} in its status — and
 * batch work pauses: no slice is leased and results are not written (the worker keeps them and
 * tries again), so a job neither fails nor loses a row and goes on once there is room again.
 * Everything else goes on.
 *
 * <p>Its housekeeping also removes batch jobs that ended more than {@code batch.keep_days} ago,
 * with their rows and results.
 *
 * <p>Every request but the status and the node-local cache names its {@link Caller} in its
 * headers, and is answered only with what that caller may see: one tenant's audit records,
 * batches and corrections to that tenant's caller; the work across tenants (debts, appends, the
 * batch worker's leases, the delivery's cursors) to an admin's or the resolver's own. A request
 * naming no caller, or another tenant's data, is {@link FailureCode#FORBIDDEN}; a job of another
 * tenant reads as absent.
 */
public final class StateVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(StateVerticle.class);

  /** How often the free disk space is checked, milliseconds. */
  static final long DISK_CHECK_MS = 10_000;
  /** How often done items and long-corrected answers are pruned, milliseconds. */
  static final long HOUSEKEEPING_MS = 60_000;
  /** How often the cache logs are brought back to their bound, milliseconds. */
  static final long BOUND_MS = 1_000;
  /** The most rows of each cache log one pruning step deletes; a step that deletes this many is followed by another at once. */
  static final int PRUNE_SLICE = 5_000;
  /** The largest page of the outbox served at once ({@link Addresses#MAX_PAGE}). */
  static final int MAX_PAGE = Addresses.MAX_PAGE;

  /** How the free space under the state file is read: {@link #FILE_STORE}, or a test's stand-in. */
  @FunctionalInterface
  public interface FreeSpace {
    /** Megabytes usable under {@code dir}. */
    long freeMb(Path dir) throws IOException;
  }

  /** The file system's own figure. */
  public static final FreeSpace FILE_STORE = d -> Files.getFileStore(d).getUsableSpace() / (1024 * 1024);

  private final Manifest manifest;
  private FreeSpace freeSpace = FILE_STORE;
  private long diskCheckMs = DISK_CHECK_MS;
  private long housekeepingMs = HOUSEKEEPING_MS;
  private final String backend;
  private final String redisUrl;
  private final boolean withCache;
  private final Clock clock;
  private final Metrics metrics;
  private TablesStore store;
  /** How corrections reach a shared cache (Redis), or null. */
  private CacheCorrection correction;
  private Path dir;
  private volatile boolean refusing;
  private volatile long freeMb = -1;
  private long refusedTotal;
  private boolean pruning;

  /**
   * @param backend {@code sqlite} or {@code redis}
   * @param redisUrl the Redis URL (the redis backend)
   * @param withCache whether the memory store writes behind to this store (sqlite with the memory store)
   */
  public StateVerticle(Manifest manifest, String backend, String redisUrl, boolean withCache, Clock clock, Metrics metrics) {
    this.manifest = manifest;
    this.backend = backend;
    this.redisUrl = redisUrl;
    this.withCache = withCache;
    this.clock = clock;
    this.metrics = metrics;
  }

  /**
   * Reads the free space with {@code probe} every {@code diskCheckMs} and runs housekeeping every
   * {@code housekeepingMs} (defaults {@value #DISK_CHECK_MS} and {@value #HOUSEKEEPING_MS} ms): a
   * test moves the disk and the clock without waiting. Before deploying.
   */
  public StateVerticle upkeep(FreeSpace probe, long diskCheckMs, long housekeepingMs) {
    this.freeSpace = probe;
    this.diskCheckMs = diskCheckMs;
    this.housekeepingMs = housekeepingMs;
    return this;
  }

  /**
   * Keeps the cache logs within their bound in small steps, one after another while a step finds
   * more over it, each a transaction of its own, so that other writes interleave with them. At most
   * one run at a time.
   */
  private void pruneSteps(long bound) {
    if (pruning) {
      return;
    }
    pruning = true;
    pruneStep(bound);
  }

  private void pruneStep(long bound) {
    store.pruneCache(bound, PRUNE_SLICE).onComplete(ar -> {
      if (ar.succeeded() && ar.result()) {
        pruneStep(bound);
      } else {
        pruning = false;
      }
    });
  }

  /** Why a job left loading is failed. */
  static final String STALE_REASON = "loading stopped before every row was stored (the process stopped, or lost its store); "
      + "nothing of it will run: submit the file again for a fresh job";

  /**
   * Fails batch jobs left loading with no loader, visibly (state failed, the reason in the job):
   * at start every one on a store only this process uses; on a shared store, at start and at each
   * housekeeping, those that stored nothing for ten leases.
   */
  private void failStaleLoading() {
    store.batches().failStaleLoading(manifest.batch().leaseMs() * 10, STALE_REASON).onComplete(ar -> {
      if (ar.succeeded() && ar.result() > 0) {
        log.warn("state store: {} batch job(s) were left loading with no loader; failed (their owners see why, and "
            + "submitting the same file again starts a fresh job)", ar.result());
      } else if (ar.failed()) {
        log.warn("state store: looking for batch jobs left loading failed: {}", String.valueOf(ar.cause().getMessage()));
      }
    });
  }

  /** Removes done items past their keep and long-corrected answers, a slice at a time; and expired batch jobs. */
  private void housekeeping() {
    if (store.tables().shared()) {
      failStaleLoading();
    }
    expireBatches();
    store.housekeeping().onComplete(ar -> {
      if (ar.succeeded() && ar.result() >= TablesStore.PRUNE_SLICE) {
        housekeeping();
      } else if (ar.failed()) {
        log.warn("state store: housekeeping failed (tried again at the next interval): {}", String.valueOf(ar.cause().getMessage()));
      }
    });
  }

  /**
   * Removes batch jobs that ended more than {@code batch.keep_days} ago with their rows and results,
   * a bounded step at a time, one after another while a step finds more. At most one run at a time.
   */
  private void expireBatches() {
    if (expiring) {
      return;
    }
    expiring = true;
    expireStep(0);
  }

  private void expireStep(long removed) {
    store.batches().expire(manifest.batch().keepMs(), TablesStore.PRUNE_SLICE).onComplete(ar -> {
      if (ar.succeeded() && ar.result() >= TablesStore.PRUNE_SLICE) {
        expireStep(removed + ar.result());
        return;
      }
      expiring = false;
      if (ar.failed()) {
        log.warn("batch expiry failed (tried again at the next housekeeping): {}", String.valueOf(ar.cause().getMessage()));
      } else if (removed + ar.result() > 0) {
        log.info("batch expiry: removed {} row key(s) of jobs that ended more than {} days ago (batch.keep_days)",
            removed + ar.result(), manifest.batch().keepDays());
      }
    });
  }

  private boolean expiring;

  /** Whether this backend needs the worker threading model (blocking JDBC). */
  public static boolean needsWorker(String backend) {
    return "sqlite".equals(backend);
  }

  @Override
  public Future<?> start() {
    StateConfig cfg = manifest.state();
    var idem = manifest.routing().idempotency();
    Future<Tables> opened;
    Legacy legacy;
    if ("redis".equals(backend)) {
      if (redisUrl == null) {
        return Future.failedFuture(new StateStoreException("state.store is redis but no Redis is configured (give --redis "
            + "or GEO_REDIS_URL, or set state.store: sqlite)"));
      }
      GuardedRedis redis = new GuardedRedis(vertx, "state", redisUrl, Math.max(1000, idem.commandTimeoutMs()), metrics);
      RedisTables r = new RedisTables(redis, idem.keyPrefix());
      legacy = new RedisLegacy(redis, idem.keyPrefix());
      opened = r.start().map(v -> (Tables) r);
      correction = new SharedCacheCorrection(redis, r.keys(), clock);
    } else {
      try {
        SqliteTables sq = SqliteTables.open(vertx, Path.of(cfg.path()), cfg.commitIntervalMs(), cfg.commitMaxWrites());
        dir = sq.path().getParent();
        legacy = new SqliteLegacy(sq);
        opened = Future.succeededFuture(sq);
        log.info("state store: SQLite file {} (WAL, group commit every {} ms)", sq.path(), cfg.commitIntervalMs());
      } catch (StateStoreException e) {
        return Future.failedFuture(e);
      }
    }
    // The store serves through a gate that opens once an earlier release's layout, if any, has moved.
    return opened.compose(tables -> auditKey(tables.shared()).compose(key -> {
      LegacyImport.Gate gate = new LegacyImport.Gate(tables);
      boolean keepsCache = withCache && "sqlite".equals(backend);
      TablesStore raw = TablesStore.over(tables, clock, keepsCache, correction, idem.indexTtlSeconds(), key);
      TablesStore served = TablesStore.over(gate, clock, keepsCache, correction, idem.indexTtlSeconds(), key);
      return LegacyImport.start(vertx, raw, legacy, gate, clock).map(served);
    })).compose(s -> {
      store = s;
      openTrails();
      if (dir != null) {
        checkDisk();
        vertx.setPeriodic(diskCheckMs, id -> checkDisk());
        if (withCache) {
          long bound = idem.maxEntries();
          vertx.setPeriodic(BOUND_MS, id -> pruneSteps(bound));
        }
      }
      // Whatever the level (a reload may turn it on), records already kept expire.
      vertx.setPeriodic(manifest.audit().retentionIntervalMs(), id -> retainAudit());
      vertx.setPeriodic(housekeepingMs, id -> housekeeping());
      vertx.setPeriodic(AuditGaps.RENEW_MS * 3, id -> sweepAuditSessions());
      // Jobs that ended before expiry existed are indexed by when they ended, once; then expiry sees them.
      s.batches().indexEnded().onSuccess(n -> {
        if (n > 0) {
          log.info("state store: {} ended batch job(s) indexed for expiry (batch.keep_days)", n);
        }
      });
      if (!s.tables().shared()) {
        // This process alone holds the state: a killed predecessor's slice leases are free at once.
        s.batches().releaseLeases().onSuccess(n -> {
          if (n > 0) {
            log.info("state store: {} batch slice(s) left leased by a stopped process taken back", n);
          }
        });
      }
      failStaleLoading();
      metrics.stateRefused("debts", 0);
      metrics.stateRefused("cache", 0);
      metrics.stateRefused("batches", 0);
      return routes();
    });
  }

  /**
   * Marks the configured tenants' audit trails as opened, once the store serves (an earlier layout
   * may still be moving); tried again every {@value #OPEN_RETRY_MS} ms until it is done.
   */
  private void openTrails() {
    store.audit().open(AuditReader.trailsOf(manifest)).onFailure(t -> {
      log.debug("audit: trails not marked opened yet ({}); trying again", t.getMessage());
      vertx.setTimer(OPEN_RETRY_MS, id -> openTrails());
    });
  }

  /** How long after a failed attempt the trails' opened markers are written again, ms. */
  private static final long OPEN_RETRY_MS = 5_000;

  /**
   * The audit trail's keys (file I/O on a worker): the configured deployment secret, else the one
   * generated beside the state file. Several resolvers sharing a store must be given the same secret.
   */
  private Future<AuditKey> auditKey(boolean shared) {
    return vertx.executeBlocking(() -> AuditKey.forServe(manifest), false).onSuccess(k -> {
      if (manifest.auditKey().isEmpty()) {
        if (shared) {
          log.warn("audit: no deployment secret configured ({}); using the one generated in {}: every resolver sharing this store "
              + "must be given the same secret, or their anchors will not verify", manifest.audit().keyEnv(), k.source());
        } else {
          log.info("audit: anchors are signed with the secret generated in {} (set {} to keep it elsewhere)", k.source(),
              manifest.audit().keyEnv());
        }
      }
    });
  }

  @Override
  public Future<?> stop() {
    return store == null ? Future.succeededFuture() : store.close();
  }

  private Future<?> routes() {
    List<MessageConsumer<?>> cs = new ArrayList<>();
    var bus = vertx.eventBus();
    cs.add(bus.<DebtBatch>consumer(Addresses.STATE_DEBTS_ENQUEUE, acrossTenants(this::onEnqueue)));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_DEBTS_LEASE, acrossTenants(m -> reply(m, store.debts()
        .lease(m.body().getString("owner"), m.body().getInteger("max", 1), m.body().getLong("lease_ms", 60_000L))
        .map(items -> {
          JsonArray a = new JsonArray();
          items.forEach(i -> a.add(i.toJson()));
          return new JsonObject().put("items", a);
        })))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_DEBTS_SETTLE, acrossTenants(m -> reply(m, settle(m.body()).map(Settled::toJson)))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_DRIFT_CORRECT, acrossTenants(m -> reply(m, store.debts()
        .drift(dev.georesolver.bus.Debt.fromJson(m.body().getJsonObject("basis")), Repair.fromJson(m.body().getJsonObject("repair")))
        .map(c -> c == null ? new JsonObject() : new JsonObject().put("correction", c.toJson()))))));
    cs.add(bus.consumer(Addresses.STATE_DEBTS_STATS, acrossTenants(m -> reply(m, store.debts().stats().map(QueueStats::toJson)))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_DEBTS_DEAD, acrossTenants(m -> reply(m, store.debts()
        .deadLetters(Math.max(1, Math.min(MAX_PAGE, m.body().getInteger("limit", 100)))).map(d -> new JsonObject().put("dead", d))))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_CORRECTIONS_PAGE, this::onPage));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_CORRECTIONS_CURSOR, acrossTenants(this::onCursor)));
    if (store.cache().enabled()) {
      cs.add(bus.<CacheWrites>localConsumer(Addresses.STATE_CACHE_WRITE, this::onCacheWrite));
      cs.add(bus.<JsonObject>localConsumer(Addresses.STATE_CACHE_LOAD, m -> store.cache()
          .load(m.body().getString("kind", "idem"), m.body().getInteger("limit", 100_000))
          .onSuccess(w -> m.reply(w, new DeliveryOptions()
              .addHeader(Addresses.CACHE_FLUSH_HEADER, Long.toString(manifest.state().cacheFlushIntervalMs()))
              .addHeader(Addresses.CACHE_BUFFER_HEADER, Integer.toString(manifest.state().bufferMax()))))
          .onFailure(t -> m.fail(FailureCode.STORE_UNAVAILABLE.code(), String.valueOf(t.getMessage())))));
    }
    cs.add(bus.<AuditBatch>consumer(Addresses.STATE_AUDIT_APPEND, acrossTenants(this::onAuditAppend)));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_AUDIT_SESSION, acrossTenants(this::onAuditSession)));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_AUDIT_PAGE, this::onAuditPage));
    batchRoutes(cs);
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_SHADOW_MERGE, m -> reply(m, shadowDelta(m.body())
        .compose(d -> store.shadow().merge(d)).map(t -> new JsonObject().put("pairs", t.size())))));
    cs.add(bus.consumer(Addresses.STATE_SHADOW_READ, m -> reply(m, store.shadow().read()
        .map(t -> new JsonObject().put("table", t.encodeToString())))));
    cs.add(bus.consumer(Addresses.STATE_STATUS, m -> reply(m, status())));
    return Future.all(cs.stream().map(MessageConsumer::completion).toList());
  }

  /** The batches module: one consumer per address. */
  private void batchRoutes(List<MessageConsumer<?>> cs) {
    var bus = vertx.eventBus();
    StateStore.Batches b = store.batches();
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_FIND, forTenant(m -> m.body().getString("tenant"),
        m -> reply(m, b.find(m.body().getString("tenant"), m.body().getString("idem_key")).map(StateVerticle::jobJson)))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_CREATE, forTenant(m -> m.body().getString("tenant"), m -> {
      if (!refuseBatch(m)) {
        b.create(BatchJob.fromJson(m.body()), BatchQuota.fromJson(m.body().getJsonObject("quota"))).onComplete(ar -> {
          if (ar.failed() && ar.cause() instanceof BatchQuotaExceeded q) {
            m.fail(FailureCode.REFUSED.code(), new JsonObject().put("title", "Quota exceeded").put("status", 429)
                .put("detail", q.getMessage()).put("retry_after_s", 60).encode());
            return;
          }
          reply(m, ar.succeeded() ? Future.succeededFuture(ar.result()) : Future.failedFuture(ar.cause()));
        });
      }
    })));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_APPEND, acrossTenants(m -> {
      if (!refuseBatch(m)) {
        reply(m, b.append(m.body().getString("job"), objects(m.body().getJsonArray("rows"))).map(v -> new JsonObject()));
      }
    })));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_SEAL, acrossTenants(m -> reply(m, b.seal(m.body().getString("job"),
        m.body().getLong("total"), m.body().getJsonArray("columns", new JsonArray())).map(StateVerticle::jobJson)))));
    // Another tenant's job reads as no job: the caller learns nothing of it, not even that it exists.
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_GET, m -> ownJob(m, b, (c, j) -> reply(m,
        Future.succeededFuture(jobJson(j))))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_LIST, m -> listJobs(m, b)));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_CANCEL, m -> ownJob(m, b, (c, j) -> reply(m,
        j == null ? Future.succeededFuture(null) : b.cancel(j.id()).map(StateVerticle::jobJson)))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_FAIL, acrossTenants(m -> reply(m, b.fail(m.body().getString("job"),
        String.valueOf(m.body().getString("reason", "failed"))).map(StateVerticle::jobJson)))));
    // Disk nearly full: batch work pauses (no slice leased, no result written; the worker keeps its results).
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_LEASE, acrossTenants(m -> reply(m, refusing
        ? Future.succeededFuture(null) : b.lease(m.body().getString("owner"), m.body().getLong("lease_ms", 30_000L))))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_RENEW, acrossTenants(m -> reply(m, b.renew(m.body().getString("owner"),
        m.body().getString("job"), m.body().getInteger("slice"), m.body().getLong("lease_ms", 30_000L))
        .map(held -> new JsonObject().put("held", held))))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_RECORD, acrossTenants(m -> {
      if (refusing) {
        // Not counted as refused: the results are not lost; the worker keeps them and writes them once there is room.
        m.fail(FailureCode.STORE_UNAVAILABLE.code(), "disk nearly full (below state.min_free_mb): batch results are kept by the "
            + "worker and written once there is room");
        return;
      }
      reply(m, b.record(m.body().getString("job"), objects(m.body().getJsonArray("results"))).map(StateVerticle::jobJson));
    })));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_FINISH, acrossTenants(m -> reply(m, b.finishSlice(m.body().getString("owner"),
        m.body().getString("job"), m.body().getInteger("slice")).map(v -> new JsonObject())))));
    cs.add(bus.<JsonObject>consumer(Addresses.STATE_BATCHES_PAGE, m -> ownJob(m, b, (c, j) -> {
      if (j == null) {
        m.fail(FailureCode.FORBIDDEN.code(), "no such job for this caller");
        return;
      }
      reply(m, b.page(j.id(), m.body().getLong("from", 0L), Math.max(1, Math.min(10_000, m.body().getInteger("limit", 1000))))
          .map(rows -> new JsonObject().put("rows", new JsonArray(new ArrayList<>(rows)))));
    })));
  }

  /** The caller a request names, or null after refusing it. */
  private static Caller caller(Message<?> m) {
    Caller c = Caller.of(m.headers());
    if (c == null) {
      m.fail(FailureCode.FORBIDDEN.code(), "a state request must name its caller (" + Addresses.TENANT_HEADER + ", or "
          + Addresses.ADMIN_HEADER + " for work across tenants)");
    }
    return c;
  }

  /** {@code h} for an admin's or the resolver's own requests; anyone else's is refused. */
  private static <T> Handler<Message<T>> acrossTenants(Handler<Message<T>> h) {
    return m -> {
      Caller c = caller(m);
      if (c == null) {
        return;
      }
      if (!c.admin()) {
        m.fail(FailureCode.FORBIDDEN.code(), m.address() + " acts across tenants: an admin's or the resolver's own request only");
        return;
      }
      h.handle(m);
    };
  }

  /** {@code h} for a caller who may read the tenant {@code tenantOf} names in the request; anyone else's is refused. */
  private static Handler<Message<JsonObject>> forTenant(java.util.function.Function<Message<JsonObject>, String> tenantOf,
      Handler<Message<JsonObject>> h) {
    return m -> {
      Caller c = caller(m);
      if (c == null) {
        return;
      }
      if (!c.mayRead(tenantOf.apply(m))) {
        m.fail(FailureCode.FORBIDDEN.code(), "another tenant's data");
        return;
      }
      h.handle(m);
    };
  }

  /** Looks up the request's job and hands it on, or null when there is none or it is another tenant's. */
  private void ownJob(Message<JsonObject> m, StateStore.Batches b, java.util.function.BiConsumer<Caller, BatchJob> then) {
    Caller c = caller(m);
    if (c == null) {
      return;
    }
    String id = m.body().getString("job");
    if (id == null) {
      m.fail(FailureCode.BAD_REQUEST.code(), "job is required");
      return;
    }
    b.get(id).onComplete(ar -> {
      if (ar.failed()) {
        reply(m, Future.failedFuture(ar.cause()));
        return;
      }
      BatchJob j = ar.result();
      then.accept(c, j != null && c.mayRead(j.tenant()) ? j : null);
    });
  }

  /** A tenant's caller lists its own jobs only; an admin's any tenant's, or every one's. */
  private void listJobs(Message<JsonObject> m, StateStore.Batches b) {
    Caller c = caller(m);
    if (c == null) {
      return;
    }
    String asked = m.body().getString("tenant");
    if (asked != null && !c.mayRead(asked)) {
      m.fail(FailureCode.FORBIDDEN.code(), "another tenant's data");
      return;
    }
    String tenant = c.admin() ? asked : c.tenant();
    reply(m, b.list(tenant, Math.max(1, Math.min(MAX_PAGE, m.body().getInteger("limit", 100)))).map(jobs -> {
      JsonArray a = new JsonArray();
      jobs.forEach(j -> a.add(j.toJson()));
      return new JsonObject().put("batches", a);
    }));
  }

  /**
   * New batch jobs and their rows are durable work like debts: below {@code state.min_free_mb} they
   * are refused (507 with Retry-After for the upload; a job loading fails with its reason). Jobs
   * already accepted pause instead (see the lease and record consumers).
   */
  private boolean refuseBatch(Message<JsonObject> m) {
    if (!refusing) {
      return false;
    }
    refuse("batches", List.of(String.valueOf(m.body().getString(m.address().equals(Addresses.STATE_BATCHES_CREATE) ? "id" : "job"))));
    m.fail(FailureCode.REFUSED.code(), new JsonObject().put("title", "Insufficient storage").put("status", 507)
        .put("detail", "the state store's disk is nearly full (below state.min_free_mb): no new batch is stored now; try again later")
        .put("retry_after_s", 60).encode());
    return true;
  }

  private static JsonObject jobJson(BatchJob j) {
    return j == null ? null : j.toJson();
  }

  private static List<JsonObject> objects(JsonArray a) {
    List<JsonObject> out = new ArrayList<>(a == null ? 0 : a.size());
    if (a != null) {
      a.forEach(o -> out.add((JsonObject) o));
    }
    return out;
  }

  private Future<Settled> settle(JsonObject b) {
    String owner = b.getString("owner");
    LeasedDebt item = LeasedDebt.fromJson(b.getJsonObject("item"));
    StateStore.Debts d = store.debts();
    return switch (b.getString("op", "")) {
      case "correct" -> d.correct(owner, item, Repair.fromJson(b.getJsonObject("repair")));
      case "confirm" -> d.confirm(owner, item);
      case "retry" -> d.retry(owner, item, b.getLong("not_before_ms", 0L), b.getString("error"));
      case "dead" -> d.dead(owner, item, b.getString("error"));
      case "release" -> d.release(owner, item, b.getLong("not_before_ms", 0L));
      default -> Future.failedFuture(new IllegalArgumentException("unknown op " + b.getString("op")));
    };
  }

  private void onEnqueue(Message<DebtBatch> m) {
    List<dev.georesolver.bus.Debt> debts = m.body().debts();
    if (refusing) {
      refuse("debts", debts.stream().map(dev.georesolver.bus.Debt::idempotencyKey).toList());
      m.reply(new JsonObject().put("accepted", 0).put("duplicate", 0).put("refused", debts.size()));
      return;
    }
    reply(m, store.debts().enqueue(debts).map(j -> j.put("refused", 0)));
  }

  /**
   * Audit records are never refused for good: while the disk is nearly full the write fails, so each
   * sender keeps its batch and retries it (and counts what its buffer cannot hold).
   */
  private void onAuditAppend(Message<AuditBatch> m) {
    List<dev.georesolver.bus.AuditEvent> events = m.body().events();
    if (refusing) {
      // Not counted as refused: the records are not lost; each sender counts its retries (and any drop).
      m.fail(FailureCode.STORE_UNAVAILABLE.code(), "disk nearly full: audit records are kept by their senders and retried");
      return;
    }
    reply(m, store.audit().append(events));
  }

  private void onAuditSession(Message<JsonObject> m) {
    String session = m.body().getString("session");
    if (session == null || !session.matches("[0-9a-f]{8,64}")) {
      m.fail(FailureCode.BAD_REQUEST.code(), "session must be 8 to 64 lower-case hex digits");
      return;
    }
    String op = m.body().getString("op", "");
    switch (op) {
      case "renew" -> reply(m, store.audit().renew(session, Math.max(0, m.body().getLong("at_most", 0L))).map(v -> new JsonObject()));
      case "close" -> reply(m, store.audit().close(session).map(v -> new JsonObject()));
      default -> m.fail(FailureCode.BAD_REQUEST.code(), "op must be renew or close");
    }
  }

  /** Declares the audit writers that stopped without closing lost (a gap record in every chain). */
  private void sweepAuditSessions() {
    store.audit().sweep().onSuccess(n -> {
      if (n > 0) {
        log.warn("audit: {} writer(s) stopped without handing over their records (a crash or a kill); each tenant's chain "
            + "records the gap", n);
      }
    }).onFailure(t -> log.warn("audit: declaring lost writers failed (tried again at the next interval): {}",
        String.valueOf(t.getMessage())));
  }

  private void onAuditPage(Message<JsonObject> m) {
    Caller c = caller(m);
    if (c == null) {
      return;
    }
    JsonObject b = m.body();
    String tenant = b.getString("tenant");
    String after = b.getString("after");
    if (tenant == null || tenant.isEmpty()) {
      m.fail(FailureCode.BAD_REQUEST.code(), "tenant is required");
      return;
    }
    if (!c.mayRead(tenant)) {
      m.fail(FailureCode.FORBIDDEN.code(), "another tenant's audit partition");
      return;
    }
    if (after != null && !after.isEmpty() && !after.matches("\\d{1,18}")) {
      m.fail(FailureCode.BAD_REQUEST.code(), "after must be a cursor from an earlier page");
      return;
    }
    int limit = Math.max(1, Math.min(MAX_PAGE, b.getInteger("limit", 100)));
    reply(m, store.audit().page(tenant, after, b.getLong("from_ms", Long.MIN_VALUE), b.getLong("to_ms", Long.MAX_VALUE), limit)
        .map(p -> {
          if (p.getString("next") == null) {
            p.put("next", after == null || after.isEmpty() ? "0" : after);
          }
          return p;
        }));
  }

  /** Removes the audit records older than {@code audit.retention_days}, whole prefixes only. */
  private void retainAudit() {
    long cutoff = clock.millis() - manifest.audit().retentionDays() * 86_400_000L;
    store.audit().retain(cutoff)
        .onSuccess(n -> {
          if (n > 0) {
            log.info("audit retention: removed {} record(s) older than {} days; each tenant's chain anchor moved to its last removed record",
                n, manifest.audit().retentionDays());
          }
        })
        .onFailure(t -> log.warn("audit retention failed (retried at the next interval): {}", String.valueOf(t.getMessage())));
  }

  private void onCacheWrite(Message<CacheWrites> m) {
    CacheWrites w = m.body();
    if (refusing) {
      List<String> keys = new ArrayList<>();
      w.idem().forEach(e -> keys.add(e.key()));
      w.index().forEach(e -> keys.add(e.addrKey()));
      refuse("cache", keys);
      m.reply(new JsonObject().put("written", 0).put("refused", keys.size()));
      return;
    }
    reply(m, store.cache().write(w).map(n -> new JsonObject().put("written", n)));
  }

  private void refuse(String module, List<String> keys) {
    refusedTotal += keys.size();
    metrics.stateRefused(module, keys.size());
    log.warn("state store refused {} new {} record(s): disk nearly full ({} MB free < state.min_free_mb {}); resolution goes on; keys {}{}",
        keys.size(), module, freeMb, manifest.state().minFreeMb(),
        keys.stream().limit(10).map(k -> k.length() > 16 ? k.substring(0, 16) : k).toList(), keys.size() > 10 ? " …" : "");
  }

  /**
   * A page of the outbox; a tenant's caller gets only its own corrections in it, with the page's
   * cursor unchanged (the next page starts after the last entry read, whoever's it was).
   */
  private void onPage(Message<JsonObject> m) {
    Caller c = caller(m);
    if (c == null) {
      return;
    }
    String after = m.body().getString("after");
    int limit = Math.max(1, Math.min(MAX_PAGE, m.body().getInteger("limit", 100)));
    if (after != null && !after.isEmpty() && !Cursors.valid(after)) {
      m.fail(FailureCode.BAD_REQUEST.code(), "after must be a cursor from an earlier page");
      return;
    }
    reply(m, store.corrections().page(after == null || after.isEmpty() ? null : after, limit).map(p -> {
      JsonObject j = p.toJson();
      if (!c.admin()) {
        JsonArray own = new JsonArray();
        j.getJsonArray("corrections", new JsonArray()).forEach(o -> {
          if (c.mayRead(((JsonObject) o).getString("tenant", dev.georesolver.state.rules.Debts.PUBLIC_TENANT))) {
            own.add(o);
          }
        });
        // How many entries the page read, so a reader paging for a full page knows the outbox goes on.
        j.put("corrections", own).put("scanned", p.corrections().size());
      }
      return j;
    }));
  }

  private void onCursor(Message<JsonObject> m) {
    String name = m.body().getString("name");
    String set = m.body().getString("cursor");
    StateStore.Outbox o = store.corrections();
    Future<Void> write = set == null ? Future.succeededFuture() : o.saveCursor(name, set);
    reply(m, write.compose(v -> Future.all(o.cursor(name), o.head()))
        .map(all -> new JsonObject().put("cursor", (String) all.resultAt(0)).put("head", (String) all.resultAt(1))));
  }

  private Future<JsonObject> status() {
    return store.status().map(s -> {
      s.put("refusing", refusing).put("refused_total", refusedTotal);
      if (dir != null) {
        s.put("disk_free_mb", freeMb).put("min_free_mb", manifest.state().minFreeMb());
      }
      return s;
    }).otherwise(t -> new JsonObject().put("store", backend).put("reachable", false).put("detail", String.valueOf(t.getMessage())));
  }

  private void checkDisk() {
    try {
      freeMb = freeSpace.freeMb(dir);
    } catch (IOException e) {
      log.warn("state store: cannot read the free space under {}: {}", dir, e.getMessage());
      return;
    }
    boolean low = manifest.state().minFreeMb() > 0 && freeMb < manifest.state().minFreeMb();
    if (low != refusing) {
      refusing = low;
      if (low) {
        log.error("state store: disk nearly full under {} ({} MB free < state.min_free_mb {}): new debts, write-behind and batch "
            + "jobs are REFUSED and running batch jobs pause; resolution goes on", dir, freeMb, manifest.state().minFreeMb());
      } else {
        log.info("state store: disk space back ({} MB free): accepting new durable work again", freeMb);
      }
    }
  }

  /** A node's shadow figures as sent; a body that is not a table fails as a bad request. */
  private static Future<dev.georesolver.shadow.ShadowTable> shadowDelta(JsonObject body) {
    String text = body == null ? null : body.getString("table");
    if (text == null) {
      return Future.failedFuture(new IllegalArgumentException("table is required"));
    }
    try {
      return Future.succeededFuture(dev.georesolver.shadow.ShadowTable.decode(text));
    } catch (dev.georesolver.shadow.ShadowFormatException e) {
      return Future.failedFuture(new IllegalArgumentException("table: " + e.getMessage()));
    }
  }

  private <T> void reply(Message<?> m, Future<T> f) {
    f.onComplete(ar -> {
      if (ar.succeeded()) {
        m.reply(ar.result());
      } else {
        log.warn("state store: {} failed: {}", m.address(), String.valueOf(ar.cause().getMessage()));
        m.fail(ar.cause() instanceof IllegalArgumentException ? FailureCode.BAD_REQUEST.code()
            : FailureCode.STORE_UNAVAILABLE.code(), String.valueOf(ar.cause().getMessage()));
      }
    });
  }
}
