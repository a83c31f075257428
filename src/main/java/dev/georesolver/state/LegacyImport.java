package dev.georesolver.state;

import dev.georesolver.bus.BatchJob;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import dev.georesolver.state.tables.Table;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Moves an earlier release's layout of the durable state ({@link Legacy}) into the current one, at
 * start, before the store serves: the reconcile queue (every item with its state, attempts, lease and
 * times), the outbox (every entry under the number consumers know it by, and the answers corrected),
 * the delivery cursors, every tenant's audit chain (its anchor and its records with their numbers
 * and hashes, so it verifies as before and grows on), batch jobs (figures, rows, results, slices)
 * and the SQLite write-behind logs (their entries in order). Everything goes through the modules'
 * {@code import*} methods, which write what is not there and check what is, so:
 *
 * <ul>
 *   <li><b>Idempotent</b>: an import cut short (a crash, a lost connection) and run again at the next
 *       start writes the rest and duplicates nothing; two resolvers starting together on one Redis
 *       may both run it.
 *   <li><b>Counted</b>: before anything is removed, every kind the earlier layout counts
 *       ({@link Legacy#counts}) must have been handled in full; otherwise the start fails
 *       ({@link StateStoreException}) and the earlier layout stays as it was.
 *   <li><b>Then removed</b>: once counted, a marker row says so, the earlier layout is removed, and
 *       the marker goes; a removal cut short is finished at the next start without counting again.
 *   <li><b>Paged</b>: {@link #PAGE} records per read and per transaction; nothing is loaded whole.
 * </ul>
 *
 * One INFO line says what moved. Use from the state verticle's context.
 */
final class LegacyImport {

  private static final Logger log = LoggerFactory.getLogger(LegacyImport.class);

  /** Records read and imported per step. */
  static final int PAGE = 500;
  /** How long a shared store that could not be reached waits before the import is tried again, milliseconds. */
  static final long RETRY_MS = 5_000;
  /** How long the earlier layout must hold still before it is moved (one an earlier resolver may write), milliseconds. */
  static final long QUIET_MS = 1_000;
  /** Marks that the counts were checked and removal began ({@code removing}); its own group. */
  static final Table MARKER = Table.of("migration", "legacy");

  /**
   * The earlier layout holds something the import could not account for: nothing is removed, and
   * the start fails with the reason.
   */
  static final class Unaccounted extends RuntimeException {
    Unaccounted(String message) {
      super(message, null, false, false);
    }
  }

  /**
   * The earlier layout changed while it was read: an earlier resolver still writes it. Nothing is
   * removed; what was moved is moved again (a record an import wrote is brought up to date) once
   * it holds still.
   */
  static final class Busy extends RuntimeException {
    Busy(String message) {
      super(message, null, false, false);
    }
  }

  private final TablesStore store;
  private final Legacy legacy;
  private final Clock clock;
  private final long quietMs;
  private final Context context;
  /** Records handled (written or found there), by kind. */
  private final Map<String, Long> handled = new LinkedHashMap<>();
  /** Records written, by kind. */
  private final Map<String, Long> moved = new LinkedHashMap<>();
  /** Records the reader could not read, by kind. */
  private final Map<String, Long> unreadable = new LinkedHashMap<>();
  private long tenants;

  private LegacyImport(TablesStore store, Legacy legacy, Clock clock, long quietMs) {
    this.store = store;
    this.legacy = legacy;
    this.clock = clock;
    this.quietMs = quietMs;
    this.context = Vertx.currentContext();
  }

  /**
   * Imports the earlier layout into {@code store} when it is there, then opens {@code gate}. A
   * failure to account for it fails with a {@link StateStoreException} (nothing removed). A shared
   * store (Redis) that cannot be reached now is not a reason to stop: the gate stays closed (the
   * store answers "unavailable", as while Redis is down) and the import is tried again every
   * {@link #RETRY_MS}; a local file that fails fails the start.
   *
   * @param store the store over the backend itself (not through the gate)
   */
  static Future<Void> start(Vertx vertx, TablesStore store, Legacy legacy, Gate gate, Clock clock) {
    return run(store, legacy, clock).map(v -> {
      gate.open();
      return (Void) null;
    }).recover(t -> {
      if (t instanceof Unaccounted) {
        return Future.failedFuture(new StateStoreException(t.getMessage()));
      }
      if (!store.tables().shared()) {
        return Future.failedFuture(t instanceof StateStoreException ? t
            : new StateStoreException("cannot move " + legacy.describe() + " into the current layout: " + t.getMessage(), t));
      }
      waiting(legacy, gate, t);
      retry(vertx, store, legacy, gate, clock);
      return Future.succeededFuture();
    });
  }

  /** Says (once per reason) why the store stays closed, and keeps the reason for its status. */
  private static void waiting(Legacy legacy, Gate gate, Throwable t) {
    String why = Legacy.printable(String.valueOf(t.getMessage()), 400);
    if (!why.equals(gate.lastError)) {
      log.warn("state store: {} is not moved yet ({}); the store answers unavailable until it is, tried again every {} s",
          legacy.describe(), why, RETRY_MS / 1000);
    }
    gate.failed(t);
  }

  private static void retry(Vertx vertx, TablesStore store, Legacy legacy, Gate gate, Clock clock) {
    vertx.setTimer(RETRY_MS, id -> run(store, legacy, clock).onSuccess(v -> {
      log.info("state store: open, {} has moved", legacy.describe());
      gate.open();
    }).onFailure(t -> {
      if (t instanceof Unaccounted) {
        log.error("state store: {}; the earlier layout is kept and the store stays unavailable: restart once it is resolved",
            t.getMessage());
        gate.failed(t);
        return;
      }
      waiting(legacy, gate, t);
      retry(vertx, store, legacy, gate, clock);
    }));
  }

  /**
   * One import: nothing when the earlier layout is not there; else all of it, counted, then
   * removed. Fails with {@link Unaccounted} when the counts do not add up.
   *
   * @return what was written, by kind (empty when there was nothing to move)
   */
  static Future<Map<String, Long>> run(TablesStore store, Legacy legacy, Clock clock) {
    return run(store, legacy, clock, QUIET_MS);
  }

  /** {@link #run(TablesStore, Legacy, Clock)}, the earlier layout holding still for {@code quietMs} before it is read. */
  static Future<Map<String, Long>> run(TablesStore store, Legacy legacy, Clock clock, long quietMs) {
    return legacy.present().compose(there -> there ? new LegacyImport(store, legacy, clock, quietMs).all()
        : Future.succeededFuture(Map.of()));
  }

  private Future<Map<String, Long>> all() {
    return legacy.fingerprint().compose(this::quiet).compose(before -> legacy.counts().compose(counts -> queue()
        .compose(v -> outbox())
        .compose(v -> cursors())
        .compose(v -> audit())
        .compose(v -> batches())
        .compose(v -> cache("idem"))
        .compose(v -> cache("index"))
        .compose(v -> legacy.fingerprint())
        .compose(after -> after.equals(before) ? checked(counts) : Future.failedFuture(busy()))
        .compose(go -> go ? remove(counts) : Future.succeededFuture(moved))));
  }

  private Busy busy() {
    return new Busy(legacy.describe() + " changed while it was read: a resolver of the earlier release still writes it. Nothing of it "
        + "is removed; stop every earlier resolver that shares it");
  }

  /** {@code before} once the earlier layout held still for {@link #quietMs}; at once when nothing else can write it. */
  private Future<String> quiet(String before) {
    if (before.isEmpty() || context == null) {
      return Future.succeededFuture(before);
    }
    Promise<String> p = Promise.promise();
    context.owner().setTimer(Math.max(1, quietMs), id -> legacy.fingerprint().onComplete(ar -> {
      if (ar.failed()) {
        p.fail(ar.cause());
      } else if (!ar.result().equals(before)) {
        p.fail(busy());
      } else {
        p.complete(before);
      }
    }));
    return p.future();
  }

  private void add(Map<String, Long> m, String kind, long n) {
    m.merge(kind, n, Long::sum);
  }

  private void tally(String kind, int handledN, int movedN, int unreadableN) {
    add(handled, kind, handledN);
    add(moved, kind, movedN);
    if (unreadableN > 0) {
      add(unreadable, kind, unreadableN);
    }
  }

  /**
   * Reads {@code read} page after page and hands each to {@code each}, one page at a time, each on a
   * fresh turn of the context (a backend that completes at once must not nest a million pages).
   */
  private <T> Future<Void> pages(Function<String, Future<Legacy.Page<T>>> read, Function<Legacy.Page<T>, Future<?>> each) {
    Promise<Void> done = Promise.promise();
    step(null, read, each, done);
    return done.future();
  }

  private <T> void step(String after, Function<String, Future<Legacy.Page<T>>> read, Function<Legacy.Page<T>, Future<?>> each,
      Promise<Void> done) {
    read.apply(after).compose(p -> each.apply(p).map(v -> p.next())).onComplete(ar -> {
      if (ar.failed()) {
        done.fail(ar.cause());
      } else if (ar.result() == null) {
        done.complete();
      } else if (context != null) {
        context.runOnContext(v -> step(ar.result(), read, each, done));
      } else {
        step(ar.result(), read, each, done);
      }
    });
  }

  private Future<Void> queue() {
    long now = clock.millis();
    return pages(after -> legacy.queue(after, PAGE, now), p -> store.queueStore().importItems(p.items()).map(n -> {
      tally("queue", p.items().size(), n, p.unreadable());
      for (QueueItem i : p.items()) {
        if (QueueRules.DEAD.equals(i.state())) {
          add(handled, "queue.dead", 1);
        } else if (QueueRules.PENDING.equals(i.state()) && i.notBeforeMs() > 0) {
          add(handled, "queue.delayed", 1);
        }
      }
      return n;
    }));
  }

  private Future<Void> outbox() {
    long now = clock.millis();
    return pages(after -> legacy.outbox(after, PAGE), p -> store.outboxStore().importEntries(p.items(), now)
        .map(n -> {
          tally("outbox", p.items().size(), n, p.unreadable());
          return n;
        }));
  }

  private Future<Void> cursors() {
    return legacy.cursors().compose(cs -> {
      Future<Void> all = Future.succeededFuture();
      for (Legacy.DeliveryCursor c : cs) {
        all = all.compose(v -> c.cursor() == null ? Future.succeededFuture(false) : store.outboxStore().importCursor(c.name(), c.cursor()))
            .map(written -> {
              tally("cursors", 1, written ? 1 : 0, 0);
              return null;
            });
      }
      return all;
    });
  }

  private Future<Void> audit() {
    return legacy.auditTenants().compose(ts -> {
      Future<Void> all = Future.succeededFuture();
      for (String t : ts) {
        all = all.compose(v -> tenant(t));
      }
      return all;
    });
  }

  private Future<Void> tenant(String tenant) {
    tenants++;
    AuditStore audit = store.auditStore();
    return legacy.auditAnchor(tenant).compose(a -> audit.importAnchor(tenant, a))
        .compose(v -> pages(after -> legacy.audit(tenant, after, PAGE), p -> audit.importLinks(tenant, p.items()).map(n -> {
          tally("audit", p.items().size(), n, 0);
          return n;
        })));
  }

  private Future<Void> batches() {
    return pages(after -> legacy.jobs(after, PAGE), p -> {
      tally("jobs", 0, 0, p.unreadable());
      Future<Void> all = Future.succeededFuture();
      for (BatchJob j : p.items()) {
        all = all.compose(v -> job(j));
      }
      return all;
    });
  }

  /** A job's rows, then its slices, then the job itself: the job list, which workers read, comes last. */
  private Future<Void> job(BatchJob j) {
    BatchStore batches = store.batchStore();
    return pages(after -> legacy.batchRows(j, after, PAGE), p -> batches.importRows(j.id(), p.items()).map(n -> {
      tally("batch_rows", p.items().size(), n, p.unreadable());
      return n;
    })).compose(v -> slices(j, 0)).compose(v -> batches.importJob(j)).map(written -> {
      tally("jobs", 1, written ? 1 : 0, 0);
      return null;
    });
  }

  private Future<Void> slices(BatchJob j, long from) {
    long n = BatchRules.slices(j.total(), j.sliceRows());
    if (from >= n) {
      return Future.succeededFuture();
    }
    return legacy.slices(j, from, PAGE).compose(s -> store.batchStore().importSlices(j.id(), s))
        .compose(v -> slices(j, from + PAGE));
  }

  private Future<Void> cache(String kind) {
    CacheStore cache = store.cacheStore();
    return pages(after -> legacy.cache(kind, after, PAGE), p -> cache.importEntries(kind, p.items()).map(n -> {
      tally("cache." + kind, p.items().size(), n, 0);
      return n;
    }));
  }

  /**
   * Whether the earlier layout may be removed: every kind it counts was handled in full, or an
   * earlier run counted it already and began removing it. When the figures fall short and the
   * earlier layout is gone meanwhile, another resolver moved and removed it: nothing is left to do.
   */
  private Future<Boolean> checked(Map<String, Long> counts) {
    Tables tables = store.tables();
    return tables.read(x -> x.get(MARKER, "removing")).compose(marker -> {
      if (marker.exists()) {
        return Future.succeededFuture(true);
      }
      List<String> short_ = new ArrayList<>();
      counts.forEach((kind, n) -> {
        long seen = handled.getOrDefault(kind, 0L) + unreadable.getOrDefault(kind.startsWith("queue.") ? "queue" : kind, 0L);
        if (seen < n) {
          short_.add(kind + " " + seen + " of " + n);
        }
      });
      if (short_.isEmpty()) {
        return tables.transact(x -> {
          x.put(MARKER, "removing", new JsonObject().put("counts", new JsonObject(new LinkedHashMap<>(counts)))
              .put("at_ms", clock.millis()).toBuffer().getBytes(), Map.of());
          return Future.succeededFuture(true);
        });
      }
      return legacy.present().compose(still -> {
        if (!still) {
          log.info("state store: {} was moved and removed by another resolver meanwhile", legacy.describe());
          return Future.succeededFuture(false);
        }
        return Future.failedFuture(new Unaccounted("the import of " + legacy.describe() + " did not account for everything it holds ("
            + String.join(", ", short_) + "); nothing of it was removed: see the log above, then start again"));
      });
    });
  }

  private Future<Map<String, Long>> remove(Map<String, Long> counts) {
    return legacy.remove()
        .compose(v -> store.tables().transact((Txn x) -> {
          x.delete(MARKER, "removing");
          return Future.succeededFuture();
        }))
        .map(v -> {
          log.info("state store: moved {} into the current layout and removed it: {}", legacy.describe(), summary());
          return moved;
        });
  }

  /** What moved, for the one log line. */
  private String summary() {
    StringBuilder sb = new StringBuilder();
    sb.append(n("queue")).append(" queue items, ").append(n("outbox")).append(" corrections, ").append(n("cursors"))
        .append(" delivery cursors, ").append(n("audit")).append(" audit records of ").append(tenants).append(" tenants, ")
        .append(n("jobs")).append(" batch jobs with ").append(n("batch_rows")).append(" rows, ").append(n("cache.idem"))
        .append(" stored answers and ").append(n("cache.index")).append(" cached-index entries of the write-behind");
    long again = 0;
    for (Map.Entry<String, Long> h : handled.entrySet()) {
      if (!h.getKey().contains(".") || h.getKey().startsWith("cache.")) {
        again += h.getValue() - moved.getOrDefault(h.getKey(), 0L);
      }
    }
    if (again > 0) {
      sb.append("; ").append(again).append(" were there already (an earlier run)");
    }
    long bad = unreadable.values().stream().mapToLong(Long::longValue).sum();
    if (bad > 0) {
      sb.append("; ").append(bad).append(" unreadable left out (named above)");
    }
    if (store.tables().shared()) {
      sb.append("; the all-time count of done items restarts from the done items kept (each kept a week from now)");
    }
    return sb.toString();
  }

  private long n(String kind) {
    return moved.getOrDefault(kind, 0L);
  }

  /**
   * The backend as the serving store sees it: closed (every transaction and read fails as
   * unavailable) until the import has run, so nothing is written over an earlier layout not yet
   * moved. Its status says {@code migrating} while closed. Use from one context.
   */
  static final class Gate implements Tables {
    private final Tables tables;
    private volatile boolean open;
    private volatile String lastError;

    Gate(Tables tables) {
      this.tables = tables;
    }

    void open() {
      open = true;
      lastError = null;
    }

    void failed(Throwable t) {
      lastError = Legacy.printable(String.valueOf(t.getMessage()), 400);
    }

    private <T> Future<T> closed() {
      return Future.failedFuture(new StateStoreException("the state store is still moving an earlier release's layout into this one"
          + (lastError == null ? "" : " (last try: " + lastError + ")")));
    }

    @Override
    public String kind() {
      return tables.kind();
    }

    @Override
    public boolean shared() {
      return tables.shared();
    }

    @Override
    public <T> Future<T> transact(Function<Txn, Future<T>> body) {
      return open ? tables.transact(body) : closed();
    }

    @Override
    public <T> Future<T> read(Function<Txn, Future<T>> body) {
      return open ? tables.read(body) : closed();
    }

    @Override
    public Future<JsonObject> status() {
      return tables.status().map(s -> open ? s : s.put("migrating", true).put("migration_error", lastError));
    }

    @Override
    public Future<Void> close() {
      return tables.close();
    }
  }
}
