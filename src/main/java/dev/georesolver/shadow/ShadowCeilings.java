package dev.georesolver.shadow;

import dev.georesolver.deadline.Ticker;
import dev.georesolver.tenant.TokenBucket;

import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The ceiling of shadow calls per second, per tier: one {@link TokenBucket} each, holding one
 * second's worth of calls (at least one), full at the start. A shadow call goes ahead only when
 * {@link #tryAcquire} says so; one refused is dropped (and the caller counts it), never queued
 * here. Time comes from the injected {@link Ticker}.
 *
 * <p>Thread-safe (each bucket is). Immutable in its set of tiers: a reload builds a new one.
 */
public final class ShadowCeilings {

  private final double perS;
  private final Map<String, TokenBucket> buckets;

  /**
   * @param tiers the tiers shadow calls may go to
   * @param maxPerS the most shadow calls per second each may receive, &gt; 0
   * @param ticker the clock
   * @throws IllegalArgumentException when the rate is not &gt; 0 (sampling off needs no ceilings)
   */
  public ShadowCeilings(Collection<String> tiers, double maxPerS, Ticker ticker) {
    Objects.requireNonNull(ticker, "ticker");
    if (!(maxPerS > 0) || Double.isInfinite(maxPerS)) {
      throw new IllegalArgumentException("a shadow ceiling needs a finite rate > 0 per second");
    }
    this.perS = maxPerS;
    int burst = (int) Math.max(1, Math.min(Integer.MAX_VALUE, Math.ceil(maxPerS)));
    Map<String, TokenBucket> m = new LinkedHashMap<>();
    for (String tier : tiers) {
      m.put(tier, new TokenBucket(maxPerS, burst, ticker));
    }
    this.buckets = Map.copyOf(m);
  }

  /** The ceiling per tier, calls per second. */
  public double maxPerS() {
    return perS;
  }

  /**
   * Takes one shadow call's place at {@code tier} if there is one.
   *
   * @return false when the tier is over its ceiling now, or is not one of this ceiling's tiers
   */
  public boolean tryAcquire(String tier) {
    TokenBucket b = buckets.get(tier);
    return b != null && b.tryTake() == 0;
  }
}
