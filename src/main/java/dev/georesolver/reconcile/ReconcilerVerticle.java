package dev.georesolver.reconcile;

import dev.georesolver.audit.AuditBuffer;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.Hit;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.bus.TierReply;
import dev.georesolver.bus.TierRequest;
import dev.georesolver.ladder.Ladders;
import dev.georesolver.ladder.Repairs;
import dev.georesolver.ladder.Residency;
import dev.georesolver.config.IntentConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ReconcileConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.deadline.Deadline;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Settled;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Pays the debts: re-resolves queued degraded answers (and refusals caused by failing rungs) with
 * the rungs above the one that served them, oldest first, and turns what it finds into corrections.
 *
 * <ul>
 *   <li><b>When</b>: as soon as a breaker transitions to closed (a rung above may have recovered),
 *       and every {@code reconcile.interval_ms} while healthy (backlog of an earlier run). The moment
 *       any breaker opens, the pass stops: the items not yet walked go back to the queue with no
 *       attempt counted.
 *   <li><b>What</b>: items leased from the state store in batches (at most {@code batch}, and no more
 *       than can be walked within half a lease at the rate cap), walked {@code concurrency} at a time.
 *       Each walks only the rungs above its served rung, of the ladder the chain would walk for it
 *       ({@link Ladders}), skipping rungs whose breaker is not closed, by sending {@link TierRequest}s
 *       straight to {@code geocode.tier.<name>} with {@code reconcile.budget_ms} and the item's
 *       original idempotency key (so every upstream call carries the same {@code Idempotency-Key}).
 *   <li><b>How fast</b>: at most {@code rate_per_s} calls a second in all, and at most
 *       {@code max_share × rate_limit_per_s} to each tier that has a rate limit (token buckets):
 *       live traffic keeps the rest.
 *   <li><b>Outcome</b> ({@link Verdict}): a rung answered → correction (atomic with its outbox
 *       record); every rung above found nothing → confirmed; failed again → jittered backoff, and the
 *       dead letter after {@code max_attempts}; nothing called → released.
 * </ul>
 * Leases make a reconciler that dies lose nothing: its items are claimed again once the lease
 * expires (SQLite) or once idle longer than the lease (Redis {@code XAUTOCLAIM}). With several
 * instances on one Redis each item goes to one of them.
 */
public final class ReconcilerVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(ReconcilerVerticle.class);

  /** How often the queue figures are refreshed for {@code /metrics}, milliseconds. */
  static final long STATS_MS = 5000;
  /** Window of the drain rate, milliseconds. */
  static final long RATE_WINDOW_MS = 60_000;

  /** The manifest of the start: what only a restart changes ({@code reconcile:}, the idempotency store, the audit). */
  private final Manifest manifest;
  /**
   * The manifest serving now (a reload swaps it): the tenants, their residency and the ladders an
   * item is walked on are always read from it, never from the start's.
   */
  private final Supplier<Manifest> current;
  /** The ladders of the last manifest seen, rebuilt when a reload replaced it; confined to this verticle's context. */
  private Manifest laddersOf;
  private Ladders ladders;
  private final ReconcileConfig cfg;
  private final Clock clock;
  private final Ticker ticker;
  private final Metrics metrics;
  private final RetryBackoff backoff;
  private final String owner = "reconciler-" + UUID.randomUUID();
  private final Map<String, TierConfig> tiers = new HashMap<>();
  private final Map<String, String> breakers = new HashMap<>();
  private final Map<String, TokenBucket> tierBuckets = new HashMap<>();
  private TokenBucket bucket;
  /** The last token grant handed out: the next waits for it. */
  private Future<Void> granted = Future.succeededFuture();
  private RateWindow rate;
  private boolean draining;
  private boolean again;
  private int generation;
  private QueueStats last = new QueueStats(0, 0, 0, 0, 0);
  /** Each committed correction's audit record, on its way to the tenant's partition. */
  private AuditBuffer audit;

  /** A reconciler whose manifest is never reloaded (deployed alone, in a test). */
  public ReconcilerVerticle(Manifest manifest, Clock clock, Ticker ticker, Supplier<RandomGenerator> random, Metrics metrics) {
    this(manifest, () -> manifest, clock, ticker, random, metrics);
  }

  /**
   * @param manifest the manifest of the start, for the settings only a restart changes
   * @param current the manifest serving at the moment it is asked (the live revision's), for
   *     tenants, residency, intents, tiers and the audit level a correction is recorded at; called
   *     on this verticle's event loop, must not block
   */
  public ReconcilerVerticle(Manifest manifest, Supplier<Manifest> current, Clock clock, Ticker ticker, Supplier<RandomGenerator> random,
      Metrics metrics) {
    this.manifest = manifest;
    this.current = current;
    this.cfg = manifest.reconcile();
    this.clock = clock;
    this.ticker = ticker;
    this.metrics = metrics;
    this.backoff = new RetryBackoff(cfg.backoffBaseMs(), cfg.backoffMaxMs(), random);
  }

  /** Hands the buffered audit records over and closes the audit session (a clean stop leaves no gap). */
  @Override
  public Future<?> stop() {
    return audit == null ? Future.succeededFuture() : audit.close();
  }

  @Override
  public Future<?> start() {
    metrics.reconcile(0, 0, 0, 0, 0, 0);
    bucket = new TokenBucket(cfg.ratePerS(), Math.max(1, cfg.ratePerS() / 20), ticker);
    rate = new RateWindow(RATE_WINDOW_MS, ticker);
    for (TierConfig t : manifest.enabledTiers()) {
      tiers.put(t.name(), t);
      breakers.put(t.name(), "closed");
      if (t.rateLimitPerS() > 0) {
        double r = Math.min(cfg.ratePerS(), cfg.maxShare() * t.rateLimitPerS());
        tierBuckets.put(t.name(), new TokenBucket(r, Math.max(1, r / 20), ticker));
      }
    }
    // The reconciler runs only beside the state store.
    audit = AuditBuffer.create(vertx, manifest.audit(), () -> current.get().audit(), true, clock, metrics);
    var bus = vertx.eventBus();
    Future<?> consumers = Future.all(
        bus.<JsonObject>consumer(Addresses.BREAKER_EVENTS, m -> onBreaker(m.body())).completion(),
        bus.consumer(Addresses.RECONCILE_STATUS, this::onStatus).completion());
    return consumers.compose(v -> initialBreakers()).onSuccess(v -> {
      if (cfg.enabled()) {
        vertx.setPeriodic(cfg.intervalMs(), id -> drain("timer"));
      }
      vertx.setPeriodic(STATS_MS, id -> refreshStats());
    });
  }

  /** Each tier's breaker as it is now (the transitions that follow arrive on the bus). */
  private Future<Void> initialBreakers() {
    List<Future<Void>> fs = new ArrayList<>();
    for (String name : tiers.keySet()) {
      fs.add(vertx.eventBus().<JsonObject>request(Addresses.tierStatus(name), "", Node.of(vertx).to(Addresses.tierStatus(name)).setSendTimeout(2000))
          .map(m -> {
            breakers.put(name, m.body().getString("state", "closed"));
            return (Void) null;
          })
          .otherwise((Void) null));
    }
    return Future.all(fs).mapEmpty();
  }

  private void onBreaker(JsonObject e) {
    String tier = e.getString("tier");
    String to = e.getString("to", "closed");
    // A tier of the start or one a reload added; any other name on the bus is not followed.
    if (tier == null || !tiers.containsKey(tier) && current.get().enabledTiers().stream().noneMatch(t -> t.name().equals(tier))) {
      return;
    }
    breakers.put(tier, to);
    if ("open".equals(to)) {
      if (draining) {
        log.info("reconciler: breaker of {} opened; stopping the drain (leased items go back)", tier);
      }
      generation++;
    } else if ("closed".equals(to) && cfg.enabled()) {
      drain("breaker of " + tier + " closed");
    }
  }

  /** Starts a drain pass unless one is running (then another follows it). */
  private void drain(String why) {
    if (draining) {
      again = true;
      return;
    }
    draining = true;
    again = false;
    int gen = generation;
    log.debug("reconciler: drain ({})", why);
    pass(gen).onComplete(ar -> {
      draining = false;
      if (ar.failed()) {
        log.warn("reconciler: drain stopped: {}", ar.cause().getMessage());
      }
      refreshStats();
      if (again && cfg.enabled()) {
        drain("again");
      }
    });
  }

  private Future<Void> pass(int gen) {
    if (gen != generation) {
      return Future.succeededFuture();
    }
    return lease(leaseSize()).compose(items -> {
      if (items.isEmpty()) {
        return Future.succeededFuture();
      }
      return work(items, gen).compose(progressed -> progressed > 0 && gen == generation ? pass(gen) : Future.succeededFuture());
    });
  }

  /** No more than can be walked within half a lease at the rate cap, and at most {@code batch}. */
  int leaseSize() {
    long walkable = (long) (cfg.ratePerS() * cfg.leaseMs() / 2000.0);
    return (int) Math.max(1, Math.min(cfg.batch(), walkable));
  }

  private Future<List<LeasedDebt>> lease(int max) {
    JsonObject q = new JsonObject().put("owner", owner).put("max", max).put("lease_ms", cfg.leaseMs());
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_DEBTS_LEASE, q, Caller.SYSTEM.on(Node.of(vertx).to(Addresses.STATE_DEBTS_LEASE).setSendTimeout(30_000)))
        .map(m -> {
          JsonArray a = m.body().getJsonArray("items", new JsonArray());
          List<LeasedDebt> out = new ArrayList<>(a.size());
          for (int i = 0; i < a.size(); i++) {
            out.add(LeasedDebt.fromJson(a.getJsonObject(i)));
          }
          return out;
        });
  }

  /** Walks the leased items, {@code concurrency} at a time, in order; the number not released. */
  private Future<Integer> work(List<LeasedDebt> items, int gen) {
    Promise<Integer> done = Promise.promise();
    int[] next = {0};
    int[] running = {0};
    int[] progressed = {0};
    Runnable[] launch = new Runnable[1];
    launch[0] = () -> {
      while (running[0] < cfg.concurrency() && next[0] < items.size()) {
        LeasedDebt item = items.get(next[0]++);
        running[0]++;
        Future<Boolean> f = gen == generation ? process(item, gen) : release(item).map(false);
        f.otherwise(t -> {
          log.warn("reconciler: item {} not settled: {}", item.id(), t.getMessage());
          return false;
        }).onComplete(ar -> {
          running[0]--;
          if (Boolean.TRUE.equals(ar.result())) {
            progressed[0]++;
          }
          if (next[0] >= items.size() && running[0] == 0) {
            done.tryComplete(progressed[0]);
          } else {
            launch[0].run();
          }
        });
      }
    };
    launch[0].run();
    return done.future();
  }

  /** One item: walk the rungs above, settle by the verdict; true when it was settled (not released). */
  private Future<Boolean> process(LeasedDebt item, int gen) {
    Debt d = item.debt();
    Manifest m = current.get();
    IntentConfig intent = m.intent(d.intent()).orElse(null);
    if (intent == null) {
      return settle("confirm", item, new JsonObject()).map(true);
    }
    // The residency of the tenant as the serving manifest says now: a reload that made it strict holds every later walk.
    Residency residency = Residency.of(m, d.tenant());
    if (residency.nowhere()) {
      log.warn("reconciler: tenant {} is no longer configured; its item goes to the dead letter unwalked", d.tenant());
      return settle("dead", item, new JsonObject().put("error", "tenant no longer configured: sent to no tier")).map(true);
    }
    List<TierConfig> ladder = laddersFor(m).ladderFor(intent.name(), d.direction(), residency);
    List<TierConfig> above = Ladders.above(ladder, d.servedRung());
    if (above.isEmpty()) {
      return settle("confirm", item, new JsonObject()).map(true);
    }
    List<Attempt> attempts = new ArrayList<>();
    return walk(item, intent, above, 0, attempts, null, gen).compose(found -> {
      if (gen != generation && found == null) {
        return release(item).map(false);
      }
      Verdict v = found != null ? Verdict.CORRECT : Verdict.of(attempts, above.size());
      return switch (v) {
        case CORRECT -> correct(item, ladder, found, attempts);
        case CONFIRM -> settle("confirm", item, new JsonObject()).map(true);
        case RELEASE -> release(item).map(false);
        case RETRY -> retry(item, attempts);
      };
    });
  }

  /** The ladders of {@code m}, built once per manifest revision. */
  private Ladders laddersFor(Manifest m) {
    if (m != laddersOf) {
      ladders = Ladders.of(m);
      laddersOf = m;
    }
    return ladders;
  }

  /**
   * Whether {@code t} may be sent the item now: asked again at the moment of each call, since a
   * reload may have come while the walk waited for its tokens.
   */
  private boolean stillAllowed(Debt d, TierConfig t) {
    Manifest now = current.get();
    return Residency.of(now, d.tenant()).allows(t, now.routing());
  }

  /** A rung's answer found by the walk. */
  private record Found(TierConfig tier, Hit hit) {}

  private Future<Found> walk(LeasedDebt item, IntentConfig intent, List<TierConfig> above, int i, List<Attempt> attempts,
      Deadline deadline, int gen) {
    if (i >= above.size() || gen != generation) {
      return Future.succeededFuture();
    }
    TierConfig t = above.get(i);
    if (!"closed".equals(breakers.getOrDefault(t.name(), "closed"))) {
      attempts.add(new Attempt(t.name(), "skipped_breaker_open", 0, 0, "reconciler: breaker " + breakers.get(t.name())));
      return walk(item, intent, above, i + 1, attempts, deadline, gen);
    }
    return tokens(t).compose(v -> {
      if (gen != generation) {
        return Future.succeededFuture();
      }
      if (!stillAllowed(item.debt(), t)) {
        attempts.add(new Attempt(t.name(), "skipped_residency", 0, 0, "reconciler: out of the tenant's region under the serving manifest"));
        return walk(item, intent, above, i + 1, attempts, deadline, gen);
      }
      Deadline dl = deadline != null ? deadline : Deadline.in(ticker, cfg.budgetMs());
      long left = dl.remainingMs();
      if (left <= 0) {
        attempts.add(new Attempt(t.name(), "deadline", 0, 0, "reconcile budget spent"));
        return Future.succeededFuture();
      }
      DeliveryOptions o = Node.of(vertx).to(Addresses.tier(t.name())).setSendTimeout(left)
          .addHeader(Addresses.DEADLINE_HEADER, Long.toString(left))
          .addHeader(Addresses.TRACE_HEADER, "reconcile");
      long t0 = ticker.nanoTime();
      return vertx.eventBus().<TierReply>request(Addresses.tier(t.name()), tierRequest(item.debt(), intent), o)
          .map(Message::body)
          .otherwise(e -> TierReply.skipped("unavailable", String.valueOf(e.getMessage()), 0))
          .compose(reply -> {
            attempts.add(new Attempt(t.name(), reply.outcome(), reply.tries(), (ticker.nanoTime() - t0) / 1_000_000L, reply.detail()));
            if (reply.kind() == TierReply.Kind.HIT) {
              return Future.succeededFuture(new Found(t, reply.hit()));
            }
            return walk(item, intent, above, i + 1, attempts, dl, gen);
          });
    });
  }

  /**
   * Waits for a token of the reconciler's own bucket and of the tier's share. Grants are handed out
   * in the order asked for, so items walked side by side still call upstream oldest first.
   */
  private Future<Void> tokens(TierConfig t) {
    Future<Void> mine = granted.compose(v -> nextToken(t));
    granted = mine.otherwise((Void) null);
    return mine;
  }

  private Future<Void> nextToken(TierConfig t) {
    TokenBucket tb = tierBuckets.get(t.name());
    long wait = Math.max(bucket.waitMs(), tb == null ? 0 : tb.waitMs());
    if (wait == 0 && bucket.tryTake() && (tb == null || tb.tryTake())) {
      return Future.succeededFuture();
    }
    return vertx.timer(Math.max(1, wait)).compose(x -> nextToken(t));
  }

  private static TierRequest tierRequest(Debt d, IntentConfig intent) {
    ResolveRequest r = d.request();
    ForwardQuery f = r.direction() == Direction.FORWARD ? new ForwardQuery(r.text(), r.components(), r.bbox(), r.language()) : null;
    ReverseQuery rq = r.direction() == Direction.REVERSE ? new ReverseQuery(r.lat(), r.lon(), r.language()) : null;
    return new TierRequest(r.direction(), f, rq, d.idempotencyKey(), "reconcile", 0, intent.maxCacheAgeMs());
  }

  private Future<Boolean> correct(LeasedDebt item, List<TierConfig> ladder, Found found, List<Attempt> attempts) {
    Debt d = item.debt();
    Repair repair = Repairs.of(manifest, current.get().revision(), ladder, found.tier(), found.hit(), d.request(), attempts,
        clock.millis());
    return settle("correct", item, new JsonObject().put("repair", repair.toJson())).map(s -> {
      if (s.correction() != null) {
        vertx.eventBus().send(Addresses.CORRECTIONS_COMMITTED, s.correction().cursor());
        audit.offer(s.correction(), d.request() == null ? null : d.request().traceId());
      }
      return true;
    }).map(true);
  }

  private Future<Boolean> retry(LeasedDebt item, List<Attempt> attempts) {
    String error = attempts.stream().map(a -> a.tier() + ":" + a.outcome()).reduce((a, b) -> a + " > " + b).orElse("failed");
    int n = item.attempts() + 1;
    if (n >= cfg.maxAttempts()) {
      log.warn("reconciler: {} {} failed {} times; moved to the dead letter ({})", item.debt().intent(),
          item.debt().idempotencyKey().substring(0, Math.min(16, item.debt().idempotencyKey().length())), n, error);
      return settle("dead", item, new JsonObject().put("error", error)).map(true);
    }
    return settle("retry", item, new JsonObject().put("error", error).put("not_before_ms", clock.millis() + backoff.delayMs(n)))
        .map(true);
  }

  /** Back to the queue, due at once and in its place: a pass does not lease it twice (it stops when it made no progress). */
  private Future<Settled> release(LeasedDebt item) {
    return settle("release", item, new JsonObject().put("not_before_ms", clock.millis()));
  }

  private Future<Settled> settle(String op, LeasedDebt item, JsonObject extra) {
    JsonObject body = extra.put("op", op).put("owner", owner).put("item", item.toJson());
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_DEBTS_SETTLE, body, Caller.SYSTEM.on(Node.of(vertx).to(Addresses.STATE_DEBTS_SETTLE).setSendTimeout(30_000)))
        .map(m -> Settled.fromJson(m.body()))
        .onSuccess(s -> {
          String outcome = !s.ok() ? "lease_lost" : switch (op) {
            case "correct" -> "corrected";
            case "confirm" -> "confirmed";
            case "retry" -> "retried";
            case "release" -> "released";
            default -> op;
          };
          metrics.reconciled(outcome);
          if (s.ok() && !"release".equals(op)) {
            rate.record();
          }
        });
  }

  private Future<QueueStats> refreshStats() {
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_DEBTS_STATS, "", Caller.SYSTEM.on(Node.of(vertx).to(Addresses.STATE_DEBTS_STATS).setSendTimeout(5000)))
        .map(m -> QueueStats.fromJson(m.body()))
        .onSuccess(s -> {
          last = s;
          metrics.reconcile(s.pending(), s.inProgress(), s.done(), s.dead(), s.oldestPendingAgeS(), rate.perSecond());
          // The operator's live view (the dashboard's reconcile panel).
          vertx.eventBus().publish(Addresses.RECONCILE_EVENTS, s.toJson().put("type", "reconcile"));
        });
  }

  private void onStatus(Message<Object> m) {
    refreshStats().onComplete(ar -> {
      QueueStats s = ar.succeeded() ? ar.result() : last;
      JsonObject j = s.toJson()
          .put("drain_rate_per_s", Math.round(rate.perSecond() * 100) / 100.0)
          .put("enabled", cfg.enabled())
          .put("draining", draining)
          .put("store_reachable", ar.succeeded());
      m.reply(j);
    });
  }
}
