package dev.georesolver.bus;

import dev.georesolver.crs.TransformInfo;
import io.vertx.core.json.JsonObject;

/**
 * A rung's answer after CRS normalization: a point in EPSG:4326 rounded to 7 decimals.
 *
 * @param lon longitude, degrees
 * @param lat latitude, degrees
 * @param confidence [0, 1]
 * @param label what was matched, or null
 * @param precision rooftop, street, locality…, or null
 * @param distanceM reverse: metres from the asked point, else null
 * @param observedAtMs cached answers: when the entry was resolved (epoch millis), else null
 * @param transform how the point reached EPSG:4326
 */
public record Hit(
    double lon,
    double lat,
    double confidence,
    String label,
    String precision,
    Double distanceM,
    Long observedAtMs,
    TransformInfo transform) {

  public JsonObject toJson() {
    return new JsonObject()
        .put("lon", lon)
        .put("lat", lat)
        .put("confidence", confidence)
        .put("label", label)
        .put("precision", precision)
        .put("distance_m", distanceM)
        .put("observed_at_ms", observedAtMs)
        .put("transform", CoreJson.transform(transform));
  }

  public static Hit fromJson(JsonObject j) {
    JsonObject t = j.getJsonObject("transform");
    return new Hit(j.getDouble("lon"), j.getDouble("lat"), j.getDouble("confidence"), j.getString("label"),
        j.getString("precision"), j.getDouble("distance_m"), j.getLong("observed_at_ms"),
        CoreJson.transform(t));
  }
}
