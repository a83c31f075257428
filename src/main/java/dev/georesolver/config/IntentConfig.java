package dev.georesolver.config;

import dev.georesolver.geo.Claim;

import java.util.Set;

/**
 * What a request of this intent may be answered with (DESIGN §4).
 *
 * @param name the intent's name ({@code describe}, {@code measure}, {@code contain}, …)
 * @param maxCacheAgeS the oldest stored answer it accepts, in seconds, from the cached tier and from
 *     idempotency replays; {@code 0} means never from a store
 * @param claims the claims it accepts; empty means all
 */
public record IntentConfig(String name, long maxCacheAgeS, Set<Claim> claims) {

  public IntentConfig {
    claims = Set.copyOf(claims);
  }

  /** Whether an answer with this claim may serve this intent. */
  public boolean accepts(Claim c) {
    return claims.isEmpty() || claims.contains(c);
  }

  /** {@link #maxCacheAgeS} in milliseconds. */
  public long maxCacheAgeMs() {
    return maxCacheAgeS * 1000L;
  }
}
