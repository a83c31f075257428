package dev.georesolver.chain;

import dev.georesolver.config.MarginsConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.deadline.Admission;
import dev.georesolver.tier.TierBreaker;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A chain's view of each tier's typical latency and breaker state, kept from what the tiers publish
 * ({@link dev.georesolver.bus.Addresses#TIER_STATS}, {@link dev.georesolver.bus.Addresses#BREAKER_EVENTS})
 * and seeded from the manifest. The tiers own the truth; this is a cache of their announcements.
 * Not thread-safe: one per chain verticle instance.
 */
final class LadderView {

  private final Map<String, Long> typical = new HashMap<>();
  private final Map<String, TierBreaker.State> state = new HashMap<>();
  private final long floorMs;
  private final long tierReplyMs;
  private final long hopMs;

  /** A view of {@code tiers}, reserving for lower rungs with the figures of {@code margins}. */
  LadderView(List<TierConfig> tiers, MarginsConfig margins) {
    this.floorMs = margins.rungFloorMs();
    this.tierReplyMs = margins.tierReplyMs();
    this.hopMs = margins.hopMs();
    for (TierConfig t : tiers) {
      typical.put(t.name(), t.typicalMs());
      state.put(t.name(), TierBreaker.State.CLOSED);
    }
  }

  /**
   * Follows a reload's ladder: tiers still there keep what was announced for them (their breaker
   * state and median carry over with their verticle), new ones start from the manifest's typical
   * latency and a closed breaker until they announce, removed ones are forgotten.
   */
  void follow(List<TierConfig> tiers) {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (TierConfig t : tiers) {
      names.add(t.name());
      typical.putIfAbsent(t.name(), t.typicalMs());
      state.putIfAbsent(t.name(), TierBreaker.State.CLOSED);
    }
    typical.keySet().retainAll(names);
    state.keySet().retainAll(names);
  }

  /** Applies a {@code TIER_STATS} announcement. */
  void onStats(JsonObject s) {
    String tier = s.getString("tier");
    if (tier != null && typical.containsKey(tier)) {
      Long t = s.getLong("typical_ms");
      if (t != null) {
        typical.put(tier, t);
      }
      TierBreaker.State.fromWire(s.getString("state")).ifPresent(st -> state.put(tier, st));
    }
  }

  /** Applies a {@code BREAKER_EVENTS} transition. */
  void onBreaker(JsonObject e) {
    String tier = e.getString("tier");
    if (tier != null && state.containsKey(tier)) {
      state.put(tier, TierBreaker.State.fromWire(e.getString("to")).orElse(TierBreaker.State.CLOSED));
    }
  }

  /** The tier's typical latency, milliseconds. */
  long typical(TierConfig t) {
    return typical.getOrDefault(t.name(), t.typicalMs());
  }

  /** The breaker state last announced. */
  TierBreaker.State state(TierConfig t) {
    return state.getOrDefault(t.name(), TierBreaker.State.CLOSED);
  }

  /**
   * Milliseconds to keep for the rungs below rung {@code i}: each one's {@link Admission#share}
   * (its typical latency or the floor, whichever is more, its tier's reply margin and its two hops),
   * leaving out rungs whose breaker is open or forced open (they will not be called), plus rung {@code i}'s own
   * {@link Admission#ownVisitMs} when any rung below is kept for. 0 when none is.
   */
  long reserveBelow(List<TierConfig> ladder, int i) {
    long sum = 0;
    for (int j = i + 1; j < ladder.size(); j++) {
      TierConfig t = ladder.get(j);
      if (!state(t).refusesCalls()) {
        sum += Admission.share(typical(t), floorMs, tierReplyMs, hopMs);
      }
    }
    return sum == 0 ? 0 : sum + Admission.ownVisitMs(hopMs);
  }

  /**
   * Milliseconds the rungs below rung {@code i} need at the least to still be admitted: each one's
   * {@link Admission#need} at {@code factor}, open rungs left out. What the walker keeps however
   * late rung {@code i}'s tier answers ({@link Admission#visitWaitMs}).
   */
  long neededBelow(List<TierConfig> ladder, int i, double factor) {
    long sum = 0;
    for (int j = i + 1; j < ladder.size(); j++) {
      TierConfig t = ladder.get(j);
      if (!state(t).refusesCalls()) {
        sum += Admission.need(typical(t), factor, tierReplyMs, hopMs);
      }
    }
    return sum;
  }
}
