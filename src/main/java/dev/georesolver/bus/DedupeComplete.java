package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * A leader's outcome, chain to dedupe ({@link Addresses#DEDUPE_COMPLETE}). Immutable.
 *
 * @param key the idempotency key
 * @param coalesceKey the in-flight key whose waiters are released
 * @param result the answer (resolved or refused), or null when the walk failed: the waiters then
 *     walk on their own
 * @param ttlMs how long to keep it for replay; 0 means do not store (refusals)
 * @param walkedBy the tenant whose request walked (the stored answer remembers it, so a replay to
 *     another tenant shows that tenant's own request, not this walk), or null
 */
public record DedupeComplete(String key, String coalesceKey, ResolveResult result, long ttlMs, String walkedBy) {

  /** A leader's outcome with no tenant named: every replay of it shows the replaying request only. */
  public DedupeComplete(String key, String coalesceKey, ResolveResult result, long ttlMs) {
    this(key, coalesceKey, result, ttlMs, null);
  }

  public JsonObject toJson() {
    return new JsonObject().put("key", key).put("coalesce_key", coalesceKey)
        .put("result", result == null ? null : result.toJson()).put("ttl_ms", ttlMs).put("walked_by", walkedBy);
  }

  public static DedupeComplete fromJson(JsonObject j) {
    JsonObject r = j.getJsonObject("result");
    return new DedupeComplete(j.getString("key"), j.getString("coalesce_key"),
        r == null ? null : ResolveResult.fromJson(r), j.getLong("ttl_ms"), j.getString("walked_by"));
  }
}
