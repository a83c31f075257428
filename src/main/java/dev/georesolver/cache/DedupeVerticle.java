package dev.georesolver.cache;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.DedupeClaim;
import dev.georesolver.bus.DedupeComplete;
import dev.georesolver.bus.DedupeVerdict;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.config.IdempotencyConfig;
import dev.georesolver.metrics.Metrics;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;

import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Owns the idempotency store and the in-flight map (DESIGN §1, §7): a bounded in-process L1, and
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
 * {@link #LEADER_GRACE_MS}. The shared store being down degrades this to one-instance behaviour.
 */
public final class DedupeVerticle extends VerticleBase {

  /** Time past a leader's deadline before its waiters stop waiting for it, milliseconds. */
  static final long LEADER_GRACE_MS = 250;
  /** Time a waiter keeps to walk or reply after giving up on a leader, milliseconds. */
  static final long WAITER_MARGIN_MS = 5;

  private final IdempotencyConfig cfg;
  private final String redisUrl;
  private final Clock clock;
  private final com.github.benmanes.caffeine.cache.Ticker cacheTicker;
  private final Map<String, Flight> inFlight = new HashMap<>();
  private final Metrics metrics;
  private MemoryStore l1;
  private SharedStore shared;

  private static final class Flight {
    final List<Waiter> waiters = new ArrayList<>(2);
    long leaderTimer;
  }

  private record Waiter(Message<DedupeClaim> msg, long timer) {}

  /**
   * @param cfg the manifest's idempotency settings
   * @param redisUrl the shared store's URL, or null for the in-process store only
   * @param clock wall clock for ages
   * @param cacheTicker L1's expiry clock (nanoseconds)
   * @param metrics the process's meters
   */
  public DedupeVerticle(IdempotencyConfig cfg, String redisUrl, Clock clock, com.github.benmanes.caffeine.cache.Ticker cacheTicker,
      Metrics metrics) {
    this.metrics = metrics;
    this.cfg = cfg;
    this.redisUrl = redisUrl;
    this.clock = clock;
    this.cacheTicker = cacheTicker;
  }

  @Override
  public Future<?> start() {
    l1 = new MemoryStore(cfg.maxEntries(), Math.max(cfg.ttlSeconds(), cfg.degradedTtlSeconds()) * 1000, cacheTicker);
    shared = redisUrl == null ? SharedStore.NONE
        : new RedisSharedStore(vertx, new GuardedRedis(vertx, "dedupe", redisUrl, cfg.commandTimeoutMs(), metrics), cfg.keyPrefix(), clock);
    var bus = vertx.eventBus();
    return Future.all(
        bus.<DedupeClaim>consumer(Addresses.DEDUPE_CLAIM, this::onClaim).completion(),
        bus.<DedupeComplete>consumer(Addresses.DEDUPE_COMPLETE, this::onComplete).completion(),
        bus.consumer(Addresses.DEDUPE_STATUS, m -> status().onSuccess(m::reply)).completion());
  }

  @Override
  public Future<?> stop() {
    return shared.close();
  }

  private void onClaim(Message<DedupeClaim> msg) {
    DedupeClaim c = msg.body();
    long budget = Addresses.deadlineMs(msg.headers());
    MemoryStore.Stored s = c.maxAgeMs() > 0 ? l1.get(c.key()) : null;
    if (s != null && replayable(s, c)) {
      msg.reply(replay(s));
      return;
    }
    Flight flight = inFlight.get(c.coalesceKey());
    if (flight != null) {
      await(flight, msg, budget);
      return;
    }
    Flight lead = new Flight();
    lead.leaderTimer = vertx.setTimer(Math.max(1, budget) + LEADER_GRACE_MS, id -> release(c.coalesceKey(), null));
    inFlight.put(c.coalesceKey(), lead);
    sharedReplay(c).compose(stored -> {
      if (stored != null) {
        stored = new MemoryStore.Stored(stored.result().stored(), stored.storedAtMs(), stored.ttlMs());
        l1.put(c.key(), stored.result(), stored.storedAtMs(), Math.max(1, stored.ttlMs() - (clock.millis() - stored.storedAtMs())));
        msg.reply(replay(stored));
        release(c.coalesceKey(), stored.result());
        return Future.succeededFuture();
      }
      return shared.claim(c.coalesceKey(), budget + LEADER_GRACE_MS).compose(mine -> {
        if (mine) {
          msg.reply(DedupeVerdict.LEAD);
          return Future.succeededFuture();
        }
        return shared.awaitOther(c.coalesceKey(), budget - WAITER_MARGIN_MS).map(other -> {
          if (other == null) {
            // The other instance gave up or died: this claimant walks, and leads its local waiters.
            msg.reply(DedupeVerdict.LEAD);
          } else {
            ResolveResult shared = other.stored();
            msg.reply(new DedupeVerdict(DedupeVerdict.Kind.JOINED, shared, 0));
            release(c.coalesceKey(), shared);
          }
          return null;
        });
      });
    });
  }

  private Future<MemoryStore.Stored> sharedReplay(DedupeClaim c) {
    if (c.maxAgeMs() <= 0) {
      return Future.succeededFuture();
    }
    return shared.lookup(c.key()).map(s -> s != null && replayable(s, c) ? s : null);
  }

  private void await(Flight flight, Message<DedupeClaim> msg, long budget) {
    long wait = budget - WAITER_MARGIN_MS;
    if (wait <= 0) {
      msg.reply(DedupeVerdict.BYPASS);
      return;
    }
    Waiter[] self = new Waiter[1];
    long timer = vertx.setTimer(wait, id -> {
      flight.waiters.remove(self[0]);
      msg.reply(DedupeVerdict.BYPASS);
    });
    self[0] = new Waiter(msg, timer);
    flight.waiters.add(self[0]);
  }

  private DedupeVerdict replay(MemoryStore.Stored s) {
    return new DedupeVerdict(DedupeVerdict.Kind.REPLAY, s.result(), clock.millis() - s.storedAtMs());
  }

  private boolean replayable(MemoryStore.Stored s, DedupeClaim c) {
    long age = clock.millis() - s.storedAtMs();
    if (age > c.maxAgeMs() || age > s.ttlMs()) {
      return false;
    }
    String accepted = c.acceptedClaims();
    if (accepted == null || accepted.isEmpty() || s.result().claim() == null) {
      return true;
    }
    for (String claim : accepted.split(",")) {
      if (claim.equals(s.result().claim().wire())) {
        return true;
      }
    }
    return false;
  }

  private void onComplete(Message<DedupeComplete> msg) {
    DedupeComplete d = msg.body();
    // Encoded once here, every replay and coalesced delivery of it appends these bytes.
    ResolveResult result = d.result() == null ? null : d.result().stored();
    boolean store = result != null && result.resolved() && d.ttlMs() > 0;
    if (store) {
      l1.put(d.key(), result, clock.millis(), d.ttlMs());
    }
    shared.complete(d.key(), d.coalesceKey(), result, store ? d.ttlMs() : 0);
    release(d.coalesceKey(), result);
  }

  /** Ends a flight: waiters get the answer, or walk on their own when there is none. */
  private void release(String coalesceKey, ResolveResult result) {
    Flight f = inFlight.remove(coalesceKey);
    if (f == null) {
      return;
    }
    vertx.cancelTimer(f.leaderTimer);
    DedupeVerdict v = result == null ? DedupeVerdict.BYPASS : new DedupeVerdict(DedupeVerdict.Kind.JOINED, result, 0);
    for (Waiter w : f.waiters) {
      vertx.cancelTimer(w.timer());
      w.msg().reply(v);
    }
  }

  private Future<JsonObject> status() {
    return shared.status().map(s -> s.put("l1_entries", l1.size()).put("in_flight", inFlight.size()));
  }

}
