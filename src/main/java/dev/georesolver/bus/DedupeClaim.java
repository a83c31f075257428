package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * Chain to dedupe ({@link Addresses#DEDUPE_CLAIM}): "has this been answered, or is it being
 * answered now?" Immutable. The waiter's deadline travels in {@link Addresses#DEADLINE_HEADER}.
 *
 * @param key the idempotency key (the replay store's key)
 * @param coalesceKey the in-flight key: the idempotency key plus what changes the walk (intent,
 *     direction), so only requests that would walk the same ladder share one walk
 * @param maxAgeMs the oldest stored answer the intent accepts; 0 means no replay
 * @param acceptedClaims claims the intent accepts, as wire names joined with commas; empty = all
 */
public record DedupeClaim(String key, String coalesceKey, long maxAgeMs, String acceptedClaims) {

  public JsonObject toJson() {
    return new JsonObject().put("key", key).put("coalesce_key", coalesceKey).put("max_age_ms", maxAgeMs)
        .put("accepted_claims", acceptedClaims);
  }

  public static DedupeClaim fromJson(JsonObject j) {
    return new DedupeClaim(j.getString("key"), j.getString("coalesce_key"), j.getLong("max_age_ms"),
        j.getString("accepted_claims"));
  }
}
