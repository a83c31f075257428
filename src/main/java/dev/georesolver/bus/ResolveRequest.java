package dev.georesolver.bus;

import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

import java.util.Map;

/**
 * A validated resolution request as ingress sends it to the chain ({@link Addresses#RESOLVE},
 * {@link Addresses#REVERSE}). Immutable. Its budget travels in {@link Addresses#DEADLINE_HEADER}.
 *
 * @param direction forward (address to point) or reverse
 * @param text forward: the free-text address, or the structured components joined; else null
 * @param components forward: structured components, or empty
 * @param bbox forward: the area the answer must lie in, or null
 * @param lat reverse: latitude, else null
 * @param lon reverse: longitude, else null
 * @param intent the intent's name (already checked against the manifest)
 * @param language preferred language, or null
 * @param traceId the request's trace id
 */
public record ResolveRequest(
    Direction direction,
    String text,
    Map<String, String> components,
    Bbox bbox,
    Double lat,
    Double lon,
    String intent,
    String language,
    String traceId) {

  public ResolveRequest {
    components = components == null ? Map.of() : Map.copyOf(components);
  }

  /** JSON form for the cluster codec. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("direction", direction.name())
        .put("text", text)
        .put("components", new JsonObject(Map.copyOf(components)))
        .put("bbox", CoreJson.bbox(bbox))
        .put("lat", lat)
        .put("lon", lon)
        .put("intent", intent)
        .put("language", language)
        .put("trace_id", traceId);
  }

  /** Reads {@link #toJson()}. */
  public static ResolveRequest fromJson(JsonObject j) {
    Map<String, String> comps = new java.util.LinkedHashMap<>();
    j.getJsonObject("components", new JsonObject()).forEach(e -> comps.put(e.getKey(), String.valueOf(e.getValue())));
    return new ResolveRequest(
        Direction.valueOf(j.getString("direction")),
        j.getString("text"),
        comps,
        CoreJson.bbox(j.getJsonArray("bbox")),
        j.getDouble("lat"),
        j.getDouble("lon"),
        j.getString("intent"),
        j.getString("language"),
        j.getString("trace_id"));
  }
}
