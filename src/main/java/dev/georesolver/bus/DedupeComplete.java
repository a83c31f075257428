package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * A leader's outcome, chain to dedupe ({@link Addresses#DEDUPE_COMPLETE}). Immutable.
 *
 * @param key the idempotency key
 * @param coalesceKey the in-flight key whose waiters are released
 * @param result the answer (resolved or refused)
 * @param ttlMs how long to keep it for replay; 0 means do not store (refusals)
 */
public record DedupeComplete(String key, String coalesceKey, ResolveResult result, long ttlMs) {

  public JsonObject toJson() {
    return new JsonObject().put("key", key).put("coalesce_key", coalesceKey).put("result", result.toJson())
        .put("ttl_ms", ttlMs);
  }

  public static DedupeComplete fromJson(JsonObject j) {
    return new DedupeComplete(j.getString("key"), j.getString("coalesce_key"),
        ResolveResult.fromJson(j.getJsonObject("result")), j.getLong("ttl_ms"));
  }
}
