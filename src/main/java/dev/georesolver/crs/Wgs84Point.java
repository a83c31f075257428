package dev.georesolver.crs;

/**
 * A point in EPSG:4326, longitude and latitude in degrees, with how it got there.
 *
 * @param lon longitude, degrees east
 * @param lat latitude, degrees north
 * @param transform the source CRS and the definition applied
 */
public record Wgs84Point(double lon, double lat, TransformInfo transform) {

  /** Rounds a degree value to the 7 decimals every answer carries (about 1 cm). */
  public static double round7(double v) {
    return Math.round(v * 1e7) / 1e7;
  }

  /** This point rounded to 7 decimals. */
  public Wgs84Point rounded() {
    return new Wgs84Point(round7(lon), round7(lat), transform);
  }
}
