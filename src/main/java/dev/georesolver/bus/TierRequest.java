package dev.georesolver.bus;

import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One rung visit, chain to tier ({@link Addresses#tier}). Immutable. The time left travels in
 * {@link Addresses#DEADLINE_HEADER}.
 *
 * @param direction forward or reverse
 * @param forward the forward query, or null
 * @param reverse the reverse query, or null
 * @param idempotencyKey sent as {@code Idempotency-Key} on every attempt and retry
 * @param traceId for logs
 * @param reserveMs milliseconds of the deadline kept for the rungs below: no attempt or retry may
 *     eat into it
 * @param maxCacheAgeMs for the cached-index rung: the oldest entry this request's intent accepts
 */
public record TierRequest(
    Direction direction,
    ForwardQuery forward,
    ReverseQuery reverse,
    String idempotencyKey,
    String traceId,
    long reserveMs,
    long maxCacheAgeMs) {

  public JsonObject toJson() {
    JsonObject j = new JsonObject()
        .put("direction", direction.name())
        .put("idempotency_key", idempotencyKey)
        .put("trace_id", traceId)
        .put("reserve_ms", reserveMs)
        .put("max_cache_age_ms", maxCacheAgeMs);
    if (forward != null) {
      j.put("forward", new JsonObject()
          .put("text", forward.text())
          .put("components", new JsonObject(Map.copyOf(forward.components())))
          .put("bbox", CoreJson.bbox(forward.bbox()))
          .put("language", forward.language()));
    }
    if (reverse != null) {
      j.put("reverse", new JsonObject().put("lat", reverse.lat()).put("lon", reverse.lon()).put("language", reverse.language()));
    }
    return j;
  }

  public static TierRequest fromJson(JsonObject j) {
    ForwardQuery f = null;
    JsonObject fj = j.getJsonObject("forward");
    if (fj != null) {
      Map<String, String> comps = new LinkedHashMap<>();
      fj.getJsonObject("components", new JsonObject()).forEach(e -> comps.put(e.getKey(), String.valueOf(e.getValue())));
      f = new ForwardQuery(fj.getString("text"), comps,
          CoreJson.bbox(fj.getJsonArray("bbox")),
          fj.getString("language"));
    }
    ReverseQuery r = null;
    JsonObject rj = j.getJsonObject("reverse");
    if (rj != null) {
      r = new ReverseQuery(rj.getDouble("lat"), rj.getDouble("lon"), rj.getString("language"));
    }
    return new TierRequest(Direction.valueOf(j.getString("direction")), f, r, j.getString("idempotency_key"),
        j.getString("trace_id"), j.getLong("reserve_ms"), j.getLong("max_cache_age_ms", 0L));
  }
}
