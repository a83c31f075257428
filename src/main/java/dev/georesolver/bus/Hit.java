package dev.georesolver.bus;

import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Address;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;

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
 * @param address the structured address the provider gave; {@link Address#EMPTY} when none, never
 *     null (a null argument is read as empty)
 */
public record Hit(
    double lon,
    double lat,
    double confidence,
    String label,
    String precision,
    Double distanceM,
    Long observedAtMs,
    TransformInfo transform,
    Address address) {

  public Hit {
    address = address == null ? Address.EMPTY : address;
  }

  /** A hit without an address (a source that has none, such as the cached index). */
  public Hit(double lon, double lat, double confidence, String label, String precision, Double distanceM, Long observedAtMs,
      TransformInfo transform) {
    this(lon, lat, confidence, label, precision, distanceM, observedAtMs, transform, Address.EMPTY);
  }

  /** This hit with another address ({@code null} reads as {@link Address#EMPTY}). */
  public Hit withAddress(Address a) {
    return new Hit(lon, lat, confidence, label, precision, distanceM, observedAtMs, transform, a);
  }

  /** The JSON form; {@code address} (components by wire name) only when the hit has one. */
  public JsonObject toJson() {
    JsonObject j = new JsonObject()
        .put("lon", lon)
        .put("lat", lat)
        .put("confidence", confidence)
        .put("label", label)
        .put("precision", precision)
        .put("distance_m", distanceM)
        .put("observed_at_ms", observedAtMs)
        .put("transform", CoreJson.transform(transform));
    if (!address.isEmpty()) {
      j.put("address", new JsonObject(new LinkedHashMap<String, Object>(address.toMap())));
    }
    return j;
  }

  public static Hit fromJson(JsonObject j) {
    JsonObject t = j.getJsonObject("transform");
    return new Hit(j.getDouble("lon"), j.getDouble("lat"), j.getDouble("confidence"), j.getString("label"),
        j.getString("precision"), j.getDouble("distance_m"), j.getLong("observed_at_ms"),
        CoreJson.transform(t), j.getValue("address") instanceof JsonObject a ? Address.fromMap(a.getMap()) : Address.EMPTY);
  }
}
