package dev.georesolver.config;

import dev.georesolver.geo.Claim;
import io.vertx.core.json.JsonArray;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * What a request of this intent may be answered with (manifest {@code intents.<name>}). Immutable
 * and thread-safe.
 */
public final class IntentConfig extends Settings {

  /** The keys of one {@code intents:} entry. */
  public static final Section<IntentConfig> SECTION = new Section<>(IntentConfig::new);

  /**
   * The oldest stored answer it accepts, seconds, from the cached tier and from idempotency
   * replays; {@code 0} means never from a store; default 604,800 s (7 days).
   */
  public static final Field<Long> MAX_CACHE_AGE_S = SECTION.longs("max_cache_age_s", 0, Long.MAX_VALUE).byDefault(604_800L);

  /** The claims it accepts; default all (shown as all of them in the effective configuration). */
  public static final Field<Set<Claim>> CLAIMS = SECTION.setOf("claims", List.of(Claim.values()), Claim::wire,
      x -> "has unknown claim '" + x + "'").byDefault(Set.of())
      .shownAs(c -> new JsonArray((c.isEmpty() ? EnumSet.allOf(Claim.class) : c).stream().map(Claim::wire).toList()));

  private IntentConfig(Settings read) {
    super(read);
  }

  /** The intent's name ({@code describe}, {@code measure}, {@code contain}, …): its key under {@code intents:}. */
  public String name() {
    return entryKey();
  }

  /** See {@link #MAX_CACHE_AGE_S}. */
  public long maxCacheAgeS() {
    return get(MAX_CACHE_AGE_S);
  }

  /** See {@link #CLAIMS}; empty means all; unmodifiable. */
  public Set<Claim> claims() {
    return get(CLAIMS);
  }

  /** Whether an answer with this claim may serve this intent. */
  public boolean accepts(Claim c) {
    Set<Claim> claims = claims();
    return claims.isEmpty() || claims.contains(c);
  }

  /** {@link #maxCacheAgeS} in milliseconds. */
  public long maxCacheAgeMs() {
    return maxCacheAgeS() * 1000L;
  }
}
