package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import io.vertx.core.json.JsonObject;

import java.util.LinkedHashMap;

/**
 * One candidate as a provider gave it, before CRS normalization.
 *
 * <p>{@code x} is always the easting or longitude and {@code y} the northing or latitude, whatever
 * the axis order the provider wrote them in: the adapter that read the body puts them right.
 *
 * @param x easting or longitude, in {@code crs} units
 * @param y northing or latitude, in {@code crs} units
 * @param crs the source CRS as the provider declared it ({@code EPSG:3857}, an OGC URN, an Esri
 *     wkid such as {@code 102100}, {@code CRS84}); {@link dev.georesolver.crs.CrsId#parse} reads it
 * @param confidence the provider's quality signal mapped to [0, 1] (see docs/providers.md)
 * @param label a human-readable name of what was matched, or null
 * @param precision what level the point stands for ({@code rooftop}, {@code street},
 *     {@code locality}, …), or null when the provider does not say
 * @param distanceM for reverse lookups, the distance in metres from the asked point, else null
 * @param observedAtMs for cached answers, the wall-clock epoch millis at which the entry was
 *     resolved, else null
 * @param address the structured address the provider gave for the candidate, in the common
 *     component words (docs/providers.md maps each provider's fields); {@link Address#EMPTY} when it
 *     gave none, never null (a null argument is read as empty)
 */
public record RawHit(
    double x,
    double y,
    String crs,
    double confidence,
    String label,
    String precision,
    Double distanceM,
    Long observedAtMs,
    Address address) {

  public RawHit {
    address = address == null ? Address.EMPTY : address;
  }

  /** A hit without an address (a source that has none, such as the cached index). */
  public RawHit(double x, double y, String crs, double confidence, String label, String precision, Double distanceM,
      Long observedAtMs) {
    this(x, y, crs, confidence, label, precision, distanceM, observedAtMs, Address.EMPTY);
  }

  /** A live provider's hit: no distance, no age, no address (add one with {@link #withAddress}). */
  public static RawHit of(double x, double y, String crs, double confidence, String label, String precision) {
    return new RawHit(x, y, crs, confidence, label, precision, null, null, Address.EMPTY);
  }

  /** This hit with a reverse-lookup distance. */
  public RawHit withDistance(double metres) {
    return new RawHit(x, y, crs, confidence, label, precision, metres, observedAtMs, address);
  }

  /** This hit with its structured address ({@code null} reads as {@link Address#EMPTY}). */
  public RawHit withAddress(Address address) {
    return new RawHit(x, y, crs, confidence, label, precision, distanceM, observedAtMs, address);
  }

  /**
   * JSON form used on the wire between nodes; {@code address} (its components by wire name) is
   * written only when the hit has one.
   */
  public JsonObject toJson() {
    JsonObject j = new JsonObject()
        .put("x", x)
        .put("y", y)
        .put("crs", crs)
        .put("confidence", confidence)
        .put("label", label)
        .put("precision", precision)
        .put("distance_m", distanceM)
        .put("observed_at_ms", observedAtMs);
    if (!address.isEmpty()) {
      j.put("address", new JsonObject(new LinkedHashMap<String, Object>(address.toMap())));
    }
    return j;
  }

  /** Reads what {@link #toJson()} wrote. */
  public static RawHit fromJson(JsonObject j) {
    return new RawHit(
        j.getDouble("x"),
        j.getDouble("y"),
        j.getString("crs"),
        j.getDouble("confidence"),
        j.getString("label"),
        j.getString("precision"),
        j.getDouble("distance_m"),
        j.getLong("observed_at_ms"),
        j.getValue("address") instanceof JsonObject a ? Address.fromMap(a.getMap()) : Address.EMPTY);
  }
}
