package dev.georesolver.shadow;

import dev.georesolver.geo.GreatCircle;

import java.util.OptionalDouble;

/**
 * Drift of a cached answer: whether a replayed answer is old enough to be asked again of the rung
 * that produced it, and whether the fresh answer moved far enough to correct the cache. Immutable
 * and thread-safe (a new one per reload).
 *
 * @param minAgeMs a replay at least this old (milliseconds since it was first resolved) is due
 * @param movedM a fresh answer more than this many metres (great-circle) from the cached one has moved
 */
public record DriftCheck(long minAgeMs, double movedM) {

  /** @throws IllegalArgumentException for a negative age or a distance that is not finite and &ge; 0 */
  public DriftCheck {
    if (minAgeMs < 0 || !(movedM >= 0) || Double.isInfinite(movedM)) {
      throw new IllegalArgumentException("drift needs min_age >= 0 and moved_m finite and >= 0");
    }
  }

  /** Whether an answer first resolved at {@code resolvedAtMs} is due at {@code nowMs} (epoch milliseconds). */
  public boolean due(long resolvedAtMs, long nowMs) {
    return nowMs - resolvedAtMs >= minAgeMs;
  }

  /**
   * How far the fresh answer moved from the cached one, when that is more than {@link #movedM}.
   *
   * @param fresh the producing rung's answer now; null when it found nothing (not drift: a failed or
   *     empty answer says nothing about where the place is)
   * @return the metres moved, or empty when it did not move past the threshold
   */
  public OptionalDouble moved(LonLat cached, LonLat fresh) {
    if (fresh == null) {
      return OptionalDouble.empty();
    }
    double d = GreatCircle.metres(cached.lat(), cached.lon(), fresh.lat(), fresh.lon());
    return d > movedM ? OptionalDouble.of(d) : OptionalDouble.empty();
  }
}
