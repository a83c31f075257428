package dev.georesolver.provider;

import io.vertx.core.json.JsonObject;

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
 */
public record RawHit(
    double x,
    double y,
    String crs,
    double confidence,
    String label,
    String precision,
    Double distanceM,
    Long observedAtMs) {

  /** A live provider's hit: no distance, no age. */
  public static RawHit of(double x, double y, String crs, double confidence, String label, String precision) {
    return new RawHit(x, y, crs, confidence, label, precision, null, null);
  }

  /** This hit with a reverse-lookup distance. */
  public RawHit withDistance(double metres) {
    return new RawHit(x, y, crs, confidence, label, precision, metres, observedAtMs);
  }

  /** JSON form used on the wire between nodes. */
  public JsonObject toJson() {
    return new JsonObject()
        .put("x", x)
        .put("y", y)
        .put("crs", crs)
        .put("confidence", confidence)
        .put("label", label)
        .put("precision", precision)
        .put("distance_m", distanceM)
        .put("observed_at_ms", observedAtMs);
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
        j.getLong("observed_at_ms"));
  }
}
