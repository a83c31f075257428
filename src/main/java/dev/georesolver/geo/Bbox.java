package dev.georesolver.geo;


import java.util.Locale;

/**
 * A bounding box in EPSG:4326 degrees, {@code minLon,minLat,maxLon,maxLat}.
 *
 * <p>Immutable and thread-safe. A box never crosses the antimeridian: {@code minLon < maxLon}
 * and {@code minLat < maxLat}, both enforced by {@link #of}.
 */
public record Bbox(double minLon, double minLat, double maxLon, double maxLat) {

  /**
   * Builds a box and checks it.
   *
   * @throws IllegalArgumentException naming what is wrong: a value out of range, or min not below max
   */
  public static Bbox of(double minLon, double minLat, double maxLon, double maxLat) {
    checkLon(minLon, "minLon");
    checkLon(maxLon, "maxLon");
    checkLat(minLat, "minLat");
    checkLat(maxLat, "maxLat");
    if (!(minLon < maxLon)) {
      throw new IllegalArgumentException("minLon must be less than maxLon");
    }
    if (!(minLat < maxLat)) {
      throw new IllegalArgumentException("minLat must be less than maxLat");
    }
    return new Bbox(minLon, minLat, maxLon, maxLat);
  }

  private static void checkLon(double v, String name) {
    if (!Double.isFinite(v) || v < -180 || v > 180) {
      throw new IllegalArgumentException(name + " must be a number in [-180, 180]");
    }
  }

  private static void checkLat(double v, String name) {
    if (!Double.isFinite(v) || v < -90 || v > 90) {
      throw new IllegalArgumentException(name + " must be a number in [-90, 90]");
    }
  }

  /** True when the point lies inside or on the edge of the box. */
  public boolean contains(double lon, double lat) {
    return lon >= minLon && lon <= maxLon && lat >= minLat && lat <= maxLat;
  }

  /** The canonical text used in idempotency keys: each value rounded to 6 decimals. */
  public String canonical() {
    return String.format(Locale.ROOT, "%.6f,%.6f,%.6f,%.6f", minLon, minLat, maxLon, maxLat);
  }
}
