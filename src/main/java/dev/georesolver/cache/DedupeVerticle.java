package dev.georesolver.cache;

import dev.georesolver.bus.ReplayView;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.redis.GuardedRedis;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.DedupeClaim;
import dev.georesolver.bus.DedupeComplete;
import dev.georesolver.bus.DedupeVerdict;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.config.IdempotencyConfig;
import dev.georesolver.config.MarginsConfig;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.bus.WriteBuffer;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Promise;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Owns the idempotency store and the in-flight map: a bounded in-process L1, and
 * with {@code deduplication_store: redis} the shared store behind it.
 *
 * <p>A claim ({@link Addresses#DEDUPE_CLAIM}) is answered, in order:
 * <ol>
 *   <li>with a replay, when L1 (then the shared store) holds an answer young enough for the intent
 *       and of a claim it accepts;
 *   <li>by waiting, when an identical request (same coalesce key) is in flight on this instance:
 *       the waiter's reply is the leader's answer, or "bypass" at the waiter's own deadline;
 *   <li>by waiting for another instance, when its claim in the shared store is held there;
 *   <li>otherwise with "lead": walk, then report ({@link Addresses#DEDUPE_COMPLETE}).
 * </ol>
 * A leader's outcome is stored (resolved answers, for the TTL the chain gives) and released to its
 * waiters here and on other instances. A leader that never reports is given up at its deadline plus
 * {@code routing.margins.leader_grace_ms}. The shared store being down degrades this to one-instance behaviour.
 *
 * <p>With the memory store and a state store that keeps a cache (SQLite), stored answers are
 * written behind to it in batches ({@link WriteBuffer}: no bus hop per answer) and loaded back into
 * L1 at start, most recent first, so a restart keeps its replays. Corrections
 * ({@link Addresses#CORRECTIONS}) replace an L1 entry unless it holds a newer answer.
 */
public final class DedupeVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(DedupeVerticle.class);


  private final IdempotencyConfig cfg;
  private final MarginsConfig margins;
  private final String redisUrl;
  private final Clock clock;
  private final com.github.benmanes.caffeine.cache.Ticker cacheTicker;
  private final Map<String, Flight> inFlight = new HashMap<>();
  private final Metrics metrics;
  private MemoryStore l1;
  private SharedStore shared;
  /** Where the chains read L1 without asking (published once started, withdrawn at stop). */
  private ReplayView replays = new ReplayView();
  /** The write-behind to the state store (memory store only), or null. */
  private WriteBuffer<CacheWrites.Idem> behind;

  /** The requests waiting on this instance for one leader's walk. */
  private static final class Flight {
    final List<Waiter> waiters = new ArrayList<>(2);
    long leaderTimer;
  }

  /** One waiting request; also its own give-up timer's handler. */
  private static final class Waiter implements Handler<Long> {
    final Flight flight;
    final Promise<DedupeVerdict> verdict = Promise.promise();
    long timer;

    Waiter(Flight flight) {
      this.flight = flight;
    }

    @Override
    public void handle(Long timerId) {
      flight.waiters.remove(this);
      verdict.tryComplete(DedupeVerdict.BYPASS);
    }
  }

  /**
   * @param cfg the manifest's idempotency settings
   * @param margins the manifest's margins (waiters' and leaders' graces)
   * @param redisUrl the shared store's URL, or null for the in-process store only
   * @param clock wall clock for ages
   * @param cacheTicker L1's expiry clock (nanoseconds)
   * @param metrics the process's meters
   */
  public DedupeVerticle(IdempotencyConfig cfg, MarginsConfig margins, String redisUrl, Clock clock,
      com.github.benmanes.caffeine.cache.Ticker cacheTicker, Metrics metrics) {
    this.metrics = metrics;
    this.cfg = cfg;
    this.margins = margins;
    this.redisUrl = redisUrl;
    this.clock = clock;
    this.cacheTicker = cacheTicker;
  }

  /**
   * Publishes L1 on {@code replays} once started, so the chains answer replays without a claim
   * (a read-only view; this verticle stays its only writer). Call before deploying.
   */
  public DedupeVerticle replays(ReplayView replays) {
    this.replays = replays;
    return this;
  }

  @Override
  public Future<?> start() {
    l1 = new MemoryStore(cfg.maxEntries(), cfg.maxBytes(), Math.max(cfg.ttlSeconds(), cfg.degradedTtlSeconds()) * 1000, cacheTicker);
    shared = redisUrl == null ? SharedStore.NONE
        : new RedisSharedStore(vertx, new GuardedRedis(vertx, "dedupe", redisUrl, cfg.commandTimeoutMs(), metrics), cfg.keyPrefix(), clock);
    var bus = vertx.eventBus();
    return (redisUrl == null ? loadBehind() : Future.succeededFuture()).compose(v -> Future.all(
        bus.<DedupeClaim>localConsumer(Addresses.DEDUPE_CLAIM, this::onClaim).completion(),
        bus.<DedupeComplete>localConsumer(Addresses.DEDUPE_COMPLETE, this::onComplete).completion(),
        bus.<JsonObject>consumer(Addresses.CORRECTIONS, m -> onCorrection(m.body())).completion(),
        bus.localConsumer(Addresses.DEDUPE_STATUS, m -> status().onSuccess(m::reply)).completion()))
        .onSuccess(v -> replays.publish(l1::peek));
  }

  /**
   * Loads what the state store kept of the memory store (nothing when it keeps no cache: then no
   * write-behind either), and starts writing behind.
   */
  private Future<Void> loadBehind() {
    return vertx.eventBus().<CacheWrites>request(Addresses.STATE_CACHE_LOAD,
            new JsonObject().put("kind", "idem").put("limit", cfg.maxEntries()), new DeliveryOptions().setSendTimeout(60_000))
        .map(m -> {
          List<CacheWrites.Idem> kept = m.body().idem();
          for (int i = kept.size() - 1; i >= 0; i--) {
            CacheWrites.Idem e = kept.get(i);
            l1.put(e.key(), new StoredEntry(e.answer(), e.storedAtMs(), e.ttlMs()));
          }
          log.info("dedupe: {} stored answers loaded from the state store", kept.size());
          behind = WriteBehind.buffer(vertx, "cache", m.headers(), batch -> new CacheWrites(batch, List.of()),
              CacheWrites.Idem::key, n -> metrics.stateRefused("cache", n));
          return (Void) null;
        })
        .otherwise(t -> {
          log.debug("dedupe: no state store keeps the memory store ({})", t.getMessage());
          return null;
        });
  }

  /** A correction replaces the L1 entry of its key unless L1 holds a newer answer. */
  private void onCorrection(JsonObject c) {
    try {
      String key = c.getString("idempotency_key");
      long degradedAt = c.getJsonObject("before").getLong("resolved_at_ms", 0L);
      StoredAnswer answer = StoredAnswer.fromJson(c.getJsonObject("answer"));
      StoredEntry held = l1.get(key);
      if (held != null && held.answer().resolvedAtMs() > degradedAt) {
        return;
      }
      long ttl = (answer.degraded() ? cfg.degradedTtlSeconds() : cfg.ttlSeconds()) * 1000L;
      l1.put(key, new StoredEntry(answer, c.getLong("corrected_at_ms", clock.millis()), ttl));
    } catch (RuntimeException e) {
      log.warn("dedupe: unreadable correction ignored: {}", e.getMessage());
    }
  }

  @Override
  public Future<?> stop() {
    replays.withdraw();
    return shared.close();
  }

  /**
   * Answers a claim, replying once: from L1 at once (the hot path, no future), otherwise once the
   * composed steps have decided.
   */
  private void onClaim(Message<DedupeClaim> msg) {
    DedupeClaim c = msg.body();
    DedupeVerdict remembered = fromMemory(c);
    if (remembered != null) {
      msg.reply(remembered);
    } else {
      coalesce(c, Addresses.deadlineMs(msg.headers())).onSuccess(msg::reply);
    }
  }

  /** A replay from L1, or null. */
  private DedupeVerdict fromMemory(DedupeClaim c) {
    if (c.maxAgeMs() <= 0) {
      return null;
    }
    StoredEntry e = l1.get(c.key());
    long now = clock.millis();
    return e != null && e.replayableTo(c, now) ? e.replay(now) : null;
  }

  /** Waits for the identical request in flight on this instance, or leads it. */
  private Future<DedupeVerdict> coalesce(DedupeClaim c, long budget) {
    Flight flight = inFlight.get(c.coalesceKey());
    return flight != null ? join(flight, budget) : lead(c, budget);
  }

  /** The leader's answer when it comes, or bypass at this waiter's own deadline. */
  private Future<DedupeVerdict> join(Flight flight, long budget) {
    long wait = budget - margins.waiterMs();
    if (wait <= 0) {
      return Future.succeededFuture(DedupeVerdict.BYPASS);
    }
    Waiter w = new Waiter(flight);
    w.timer = vertx.setTimer(wait, w);
    flight.waiters.add(w);
    return w.verdict.future();
  }

  /**
   * Leads on this instance (identical requests arriving now wait for this one), then looks across
   * instances: a stored answer in the shared store, the shared claim, or another instance's outcome.
   * Any failure in these steps releases the local waiters and bypasses.
   */
  private Future<DedupeVerdict> lead(DedupeClaim c, long budget) {
    String flightKey = c.coalesceKey();
    Flight f = new Flight();
    f.leaderTimer = vertx.setTimer(Math.max(1, budget) + margins.leaderGraceMs(), id -> release(flightKey, DedupeVerdict.BYPASS));
    inFlight.put(flightKey, f);
    return fromShared(c)
        .compose(replay -> replay != null ? Future.succeededFuture(replay) : claimShared(c, budget))
        .recover(t -> {
          log.warn("claim on {} bypassed: {}", flightKey, t.toString());
          release(flightKey, DedupeVerdict.BYPASS);
          return Future.succeededFuture(DedupeVerdict.BYPASS);
        });
  }

  /**
   * A replay from the shared store, or null. The entry goes into L1 as read — its own stored-at and
   * TTL, so its age is counted once — and the local waiters get its answer.
   */
  private Future<DedupeVerdict> fromShared(DedupeClaim c) {
    if (c.maxAgeMs() <= 0) {
      return Future.succeededFuture();
    }
    return shared.lookup(c.key()).map(e -> {
      long now = clock.millis();
      if (e == null || !e.replayableTo(c, now)) {
        return null;
      }
      l1.put(c.key(), e);
      release(c.coalesceKey(), DedupeVerdict.joined(e.answer()));
      return e.replay(now);
    });
  }

  /** Lead when this instance takes the shared claim, else wait for the instance holding it. */
  private Future<DedupeVerdict> claimShared(DedupeClaim c, long budget) {
    return shared.claim(c.coalesceKey(), budget + margins.leaderGraceMs())
        .compose(mine -> mine ? Future.succeededFuture(DedupeVerdict.LEAD) : awaitOther(c, budget));
  }

  /**
   * The other instance's outcome, shared with the local waiters too; lead when there is none (its
   * holder gave up or died): this claimant walks, and leads its local waiters.
   */
  private Future<DedupeVerdict> awaitOther(DedupeClaim c, long budget) {
    return shared.awaitOther(c.coalesceKey(), budget - margins.waiterMs()).map(other -> {
      if (other == null) {
        return DedupeVerdict.LEAD;
      }
      DedupeVerdict joined = DedupeVerdict.joined(other);
      release(c.coalesceKey(), joined);
      return joined;
    });
  }

  private void onComplete(Message<DedupeComplete> msg) {
    DedupeComplete d = msg.body();
    // Encoded once here: every replay and coalesced delivery of it appends these bytes.
    StoredAnswer answer = d.result() == null ? null : StoredAnswer.of(d.result(), d.walkedBy());
    boolean store = answer != null && answer.resolved() && d.ttlMs() > 0;
    if (store) {
      StoredEntry e = new StoredEntry(answer, clock.millis(), d.ttlMs());
      l1.put(d.key(), e);
      if (behind != null) {
        behind.add(new CacheWrites.Idem(d.key(), e.storedAtMs(), e.ttlMs(), answer));
      }
    }
    shared.complete(d.key(), d.coalesceKey(), answer, store ? d.ttlMs() : 0);
    release(d.coalesceKey(), answer == null ? DedupeVerdict.BYPASS : DedupeVerdict.joined(answer));
  }

  /** Ends a flight: its waiters get {@code v} (the answer, or bypass: walk on their own). */
  private void release(String coalesceKey, DedupeVerdict v) {
    Flight f = inFlight.remove(coalesceKey);
    if (f == null) {
      return;
    }
    vertx.cancelTimer(f.leaderTimer);
    for (Waiter w : f.waiters) {
      vertx.cancelTimer(w.timer);
      w.verdict.tryComplete(v);
    }
  }

  private Future<JsonObject> status() {
    return shared.status().map(s -> s.put("l1_entries", l1.size()).put("in_flight", inFlight.size()));
  }

}
