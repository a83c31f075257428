package dev.georesolver.shadow;

/**
 * A point in EPSG:4326 degrees, as every answer leaves the resolver. Checked on construction.
 *
 * @param lon longitude, [-180, 180]
 * @param lat latitude, [-90, 90]
 */
public record LonLat(double lon, double lat) {

  /** @throws IllegalArgumentException when a coordinate is not finite or out of range */
  public LonLat {
    if (!(lon >= -180 && lon <= 180) || !(lat >= -90 && lat <= 90)) {
      throw new IllegalArgumentException("a point needs lon in [-180, 180] and lat in [-90, 90]");
    }
  }
}
