package dev.georesolver.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * What a reconciler found for a leased debt: a rung above the served one answered. The store turns
 * it into the correction, the corrected stored answer and the cached-index entry, in one
 * transaction, from the debt as it holds it then. Immutable.
 *
 * @param tier the tier that answered
 * @param claim that tier's claim (wire name)
 * @param degraded whether that tier is still below the first eligible rung of the item's ladder
 * @param hit its answer, in EPSG:4326
 * @param notice the result notice for that tier
 * @param attempts the reconciler's rung visits, in order
 * @param correctedAtMs when (epoch millis)
 * @param manifestRevision the manifest the reconciler ran on
 * @param ttlMs how long the corrected answer may be replayed, milliseconds
 * @param addrKey the cached-index key to update, or null (the tier's answers are not indexed)
 * @param indexTtlS the cached-index entry's lifetime, seconds
 */
public record Repair(
    String tier,
    String claim,
    boolean degraded,
    Hit hit,
    String notice,
    List<Attempt> attempts,
    long correctedAtMs,
    String manifestRevision,
    long ttlMs,
    String addrKey,
    long indexTtlS) {

  public Repair {
    attempts = List.copyOf(attempts);
  }

  public JsonObject toJson() {
    JsonArray a = new JsonArray();
    attempts.forEach(x -> a.add(x.toJson()));
    return new JsonObject().put("tier", tier).put("claim", claim).put("degraded", degraded).put("hit", hit.toJson())
        .put("notice", notice).put("attempts", a).put("corrected_at_ms", correctedAtMs)
        .put("manifest_revision", manifestRevision).put("ttl_ms", ttlMs).put("addr_key", addrKey)
        .put("index_ttl_s", indexTtlS);
  }

  public static Repair fromJson(JsonObject j) {
    JsonArray a = j.getJsonArray("attempts", new JsonArray());
    List<Attempt> attempts = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      attempts.add(Attempt.fromJson(a.getJsonObject(i)));
    }
    return new Repair(j.getString("tier"), j.getString("claim"), j.getBoolean("degraded", false),
        Hit.fromJson(j.getJsonObject("hit")), j.getString("notice"), attempts, j.getLong("corrected_at_ms"),
        j.getString("manifest_revision"), j.getLong("ttl_ms"), j.getString("addr_key"), j.getLong("index_ttl_s", 0L));
  }
}
