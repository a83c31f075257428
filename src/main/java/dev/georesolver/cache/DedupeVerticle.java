package dev.georesolver.cache;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.DedupeClaim;
import dev.georesolver.bus.DedupeComplete;
import dev.georesolver.bus.DedupeVerdict;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.config.IdempotencyConfig;
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
 * Owns the idempotency store and the in-flight map (DESIGN §1, §7).
 *
 * <p>A claim ({@link Addresses#DEDUPE_CLAIM}) is answered with a replay when a stored answer is
 * young enough for the intent and of a claim it accepts; otherwise, if an identical request (same
 * coalesce key) is being walked, the claim waits — its reply is the leader's answer — until the
 * waiter's own deadline; otherwise it leads. A leader's outcome ({@link Addresses#DEDUPE_COMPLETE})
 * is stored (resolved answers only, for the TTL the chain gives) and released to its waiters. A
 * leader that never reports back is given up at its deadline plus {@link #LEADER_GRACE_MS}; its
 * waiters then walk on their own.
 */
public final class DedupeVerticle extends VerticleBase {

  /** Time past a leader's deadline before its waiters stop waiting for it, milliseconds. */
  static final long LEADER_GRACE_MS = 250;
  /** Time a waiter keeps to walk or reply after giving up on a leader, milliseconds. */
  static final long WAITER_MARGIN_MS = 5;

  private final IdempotencyConfig cfg;
  private final Clock clock;
  private final com.github.benmanes.caffeine.cache.Ticker cacheTicker;
  private final Map<String, Flight> inFlight = new HashMap<>();
  private MemoryStore store;

  private static final class Flight {
    final List<Waiter> waiters = new ArrayList<>(2);
    long leaderTimer;
  }

  private record Waiter(Message<DedupeClaim> msg, long timer) {}

  /**
   * @param cfg the manifest's idempotency settings
   * @param clock wall clock for ages
   * @param cacheTicker the store's expiry clock (nanoseconds)
   */
  public DedupeVerticle(IdempotencyConfig cfg, Clock clock, com.github.benmanes.caffeine.cache.Ticker cacheTicker) {
    this.cfg = cfg;
    this.clock = clock;
    this.cacheTicker = cacheTicker;
  }

  @Override
  public Future<?> start() {
    store = new MemoryStore(cfg.maxEntries(), cacheTicker);
    var bus = vertx.eventBus();
    return Future.all(
        bus.<DedupeClaim>consumer(Addresses.DEDUPE_CLAIM, this::onClaim).completion(),
        bus.<DedupeComplete>consumer(Addresses.DEDUPE_COMPLETE, this::onComplete).completion(),
        bus.consumer(Addresses.DEDUPE_STATUS, m -> m.reply(status())).completion());
  }

  private void onClaim(Message<DedupeClaim> msg) {
    DedupeClaim c = msg.body();
    long budget = parse(msg.headers().get(Addresses.DEADLINE_HEADER));
    MemoryStore.Stored s = c.maxAgeMs() > 0 ? store.get(c.key()) : null;
    if (s != null && replayable(s, c)) {
      msg.reply(new DedupeVerdict(DedupeVerdict.Kind.REPLAY, s.result(), clock.millis() - s.storedAtMs()));
      return;
    }
    Flight flight = inFlight.get(c.coalesceKey());
    if (flight != null) {
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
      return;
    }
    Flight lead = new Flight();
    lead.leaderTimer = vertx.setTimer(Math.max(1, budget) + LEADER_GRACE_MS, id -> release(c.coalesceKey(), null));
    inFlight.put(c.coalesceKey(), lead);
    msg.reply(DedupeVerdict.LEAD);
  }

  private boolean replayable(MemoryStore.Stored s, DedupeClaim c) {
    long age = clock.millis() - s.storedAtMs();
    if (age > c.maxAgeMs()) {
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
    if (d.result() != null && d.result().resolved() && d.ttlMs() > 0) {
      store.put(d.key(), d.result(), clock.millis(), d.ttlMs());
    }
    release(d.coalesceKey(), d.result());
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

  private JsonObject status() {
    return new JsonObject()
        .put("store", "memory")
        .put("reachable", true)
        .put("entries", store.size())
        .put("in_flight", inFlight.size());
  }

  private static long parse(String h) {
    try {
      return h == null ? 0 : Long.parseLong(h);
    } catch (NumberFormatException e) {
      return 0;
    }
  }
}
