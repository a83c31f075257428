package dev.georesolver.chain;

import dev.georesolver.config.MarginsConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.deadline.Admission;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.tier.TierBreaker;
import io.vertx.core.json.JsonObject;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A chain's view of each tier's typical latency and breaker state, kept from what the tiers publish
 * ({@link dev.georesolver.bus.Addresses#TIER_STATS}, {@link dev.georesolver.bus.Addresses#BREAKER_EVENTS})
 * and seeded from the manifest. The tiers own the truth; this is a cache of their announcements.
 *
 * <p>On a clustered bus several nodes may run the same tier, each with its own breaker, and each
 * announcement names its node ({@code "node"}). A chain whose node runs the tiers asks only its
 * own ({@code localNode}), so it follows only their announcements; a chain without tiers of its own
 * may be answered by any tier node, so it follows them all: a tier refuses calls only when every
 * node heard from refuses them, and its typical latency is the lowest among the nodes that take
 * calls. An announcement without a node (a bus that is not clustered) is the local tier's.
 *
 * <p>Node ids are random per process, so a node that left the cluster (stopped, killed, cut off)
 * would otherwise speak for its tiers forever with its last word: a "closed" breaker and a low
 * median steering admission towards a node that is gone. Each node's word therefore lasts
 * {@link #STALE_MS}: every tier node announces itself at least every
 * {@code TierVerticle.HEARTBEAT_MS}, and a node not heard from for longer is forgotten (when every
 * node of a tier is, the manifest's seed speaks for it again). Not thread-safe: one per chain
 * verticle instance.
 */
public final class LadderView {

  /** How long a tier node's word lasts without a new one, milliseconds (three of its heartbeats). */
  public static final long STALE_MS = 15_000;

  /** What one node said of one tier. */
  private static final class Said {
    long typicalMs;
    TierBreaker.State state = TierBreaker.State.CLOSED;
    long heardNs;

    Said(long typicalMs) {
      this.typicalMs = typicalMs;
    }
  }

  /** Tier → node → what it said; the manifest's seed is the entry of node {@link #SEED}. */
  private final Map<String, Map<String, Said>> said = new HashMap<>();
  /** Tier → the manifest's typical latency, for a tier whose every node went quiet. */
  private final Map<String, Long> seeds = new HashMap<>();
  private final Ticker ticker;
  private final String localNode;
  private final long floorMs;
  private final long tierReplyMs;
  private final long hopMs;

  private static final String SEED = "";

  /** A view of {@code tiers} on a node of its own: every announcement is the local tier's. */
  LadderView(List<TierConfig> tiers, MarginsConfig margins) {
    this(tiers, margins, null);
  }

  /**
   * A view of {@code tiers}, reserving for lower rungs with the figures of {@code margins}.
   *
   * @param localNode the node whose tiers this chain asks (only its announcements count), or null
   *     when any tier node may answer
   */
  LadderView(List<TierConfig> tiers, MarginsConfig margins, String localNode) {
    this(tiers, margins, localNode, Ticker.SYSTEM);
  }

  /** As above, with the time a node's word is dated by. */
  public LadderView(List<TierConfig> tiers, MarginsConfig margins, String localNode, Ticker ticker) {
    this.ticker = ticker;
    this.localNode = localNode;
    this.floorMs = margins.rungFloorMs();
    this.tierReplyMs = margins.tierReplyMs();
    this.hopMs = margins.hopMs();
    for (TierConfig t : tiers) {
      Map<String, Said> byNode = new HashMap<>(2);
      byNode.put(SEED, new Said(t.typicalMs()));
      said.put(t.name(), byNode);
      seeds.put(t.name(), t.typicalMs());
    }
  }

  /**
   * Follows a reload's ladder: tiers still there keep what was announced for them (their breaker
   * state and median carry over with their verticle), new ones start from the manifest's typical
   * latency and a closed breaker until they announce, removed ones are forgotten.
   */
  public void follow(List<TierConfig> tiers) {
    java.util.Set<String> names = new java.util.HashSet<>();
    for (TierConfig t : tiers) {
      names.add(t.name());
      seeds.put(t.name(), t.typicalMs());
      said.computeIfAbsent(t.name(), n -> {
        Map<String, Said> byNode = new HashMap<>(2);
        byNode.put(SEED, new Said(t.typicalMs()));
        return byNode;
      });
    }
    said.keySet().retainAll(names);
    seeds.keySet().retainAll(names);
  }

  /** What the announcing node said of {@code tier}, or null when the announcement is not this view's to follow. */
  private Said entry(JsonObject announcement, String tier) {
    Map<String, Said> byNode = tier == null ? null : said.get(tier);
    if (byNode == null) {
      return null;
    }
    String from = announcement.getString("node");
    if (from == null || localNode != null) {
      if (from != null && !from.equals(localNode)) {
        return null;
      }
      return byNode.get(SEED);
    }
    Said seed = byNode.get(SEED);
    // The first word of a node replaces the manifest's seed, so a tier open on its only node reads as open.
    byNode.remove(SEED);
    Said e = byNode.computeIfAbsent(from, n -> new Said(seed != null ? seed.typicalMs : seeds.getOrDefault(tier, 0L)));
    e.heardNs = ticker.nanoTime();
    return e;
  }

  /** Forgets the nodes of {@code tier} not heard from for {@link #STALE_MS}; the seed speaks when none is left. */
  private void forgetQuiet(String tier, Map<String, Said> byNode) {
    if (byNode.containsKey(SEED)) {
      return;
    }
    long now = ticker.nanoTime();
    byNode.values().removeIf(e -> now - e.heardNs > STALE_MS * 1_000_000L);
    if (byNode.isEmpty()) {
      byNode.put(SEED, new Said(seeds.getOrDefault(tier, 0L)));
    }
  }

  /** Applies a {@code TIER_STATS} announcement. */
  public void onStats(JsonObject s) {
    Said e = entry(s, s.getString("tier"));
    if (e != null) {
      Long t = s.getLong("typical_ms");
      if (t != null) {
        e.typicalMs = t;
      }
      TierBreaker.State.fromWire(s.getString("state")).ifPresent(st -> e.state = st);
    }
  }

  /** Applies a {@code BREAKER_EVENTS} transition. */
  public void onBreaker(JsonObject ev) {
    Said e = entry(ev, ev.getString("tier"));
    if (e != null) {
      e.state = TierBreaker.State.fromWire(ev.getString("to")).orElse(TierBreaker.State.CLOSED);
    }
  }

  /** The node entry that speaks for the tier: the fastest that takes calls, else any. */
  private Said best(TierConfig t) {
    Map<String, Said> byNode = said.get(t.name());
    Said best = null;
    if (byNode != null) {
      forgetQuiet(t.name(), byNode);
      for (Said e : byNode.values()) {
        if (best == null || better(e, best)) {
          best = e;
        }
      }
    }
    return best;
  }

  private static boolean better(Said a, Said b) {
    boolean aCalls = !a.state.refusesCalls();
    boolean bCalls = !b.state.refusesCalls();
    return aCalls != bCalls ? aCalls : a.typicalMs < b.typicalMs;
  }

  /** The tier's typical latency, milliseconds. */
  public long typical(TierConfig t) {
    Said b = best(t);
    return b != null ? b.typicalMs : t.typicalMs();
  }

  /** The breaker state last announced (on a chain without tiers: the best of the tier nodes'). */
  public TierBreaker.State state(TierConfig t) {
    Said b = best(t);
    return b != null ? b.state : TierBreaker.State.CLOSED;
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
