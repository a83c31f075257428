package dev.georesolver.ladder;

import dev.georesolver.bus.Attempt;
import dev.georesolver.bus.Hit;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.TierConfig;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.normalize.AddressKeys;

import java.util.List;

/**
 * The one rule for what a correction writes over a stored answer: the answering rung and its claim,
 * whether it is still below the first rung of the request's ladder (degraded), its notice, the
 * replay lifetime that follows from that, and the cached-index key when the ladder indexes answers.
 * The reconciler (a degraded answer's debt settled) and the shadow verticle (a drift found) both
 * build their {@link Repair} here. Pure and thread-safe.
 */
public final class Repairs {

  private Repairs() {}

  /**
   * The repair of the answer to {@code q} that {@code tier} now gives.
   *
   * @param m the manifest whose idempotency lifetimes and cached-index rung apply
   * @param revision the manifest revision recorded as the one the correction ran on
   * @param ladder the request's ladder (trimmed for its intent, direction and residency)
   * @param tier the rung that answered
   * @param hit its answer, EPSG:4326
   * @param q the request as stored with the answer
   * @param attempts the rung visits that found it
   * @param nowMs when, epoch milliseconds
   */
  public static Repair of(Manifest m, String revision, List<TierConfig> ladder, TierConfig tier, Hit hit, ResolveRequest q,
      List<Attempt> attempts, long nowMs) {
    boolean degraded = Ladders.indexOf(ladder, tier.name()) > 0;
    var idem = m.routing().idempotency();
    long ttlMs = (degraded ? idem.degradedTtlSeconds() : idem.ttlSeconds()) * 1000L;
    return new Repair(tier.name(), tier.claim().wire(), degraded, hit, Notices.opener(tier, hit, nowMs), attempts, nowMs, revision,
        ttlMs, indexKey(m, q, hit), idem.indexTtlSeconds());
  }

  /** The cached-index key of {@code hit} as the answer to {@code q}; null when no rung of {@code m} indexes answers. */
  private static String indexKey(Manifest m, ResolveRequest q, Hit hit) {
    if (m.enabledTiers().stream().noneMatch(TierConfig::isCachedIndex)) {
      return null;
    }
    return AddressKeys.ofAnswer(q.direction() == Direction.FORWARD ? new ForwardQuery(q.text(), q.components(), null, null) : null,
        hit.label());
  }
}
