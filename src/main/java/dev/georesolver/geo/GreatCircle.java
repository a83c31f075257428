package dev.georesolver.geo;

/** Great-circle distance on a sphere of the mean Earth radius (haversine). Pure and thread-safe. */
public final class GreatCircle {

  /** Mean Earth radius, metres (IUGG). */
  public static final double EARTH_RADIUS_M = 6_371_008.8;
  /** Metres per degree of latitude on that sphere. */
  public static final double METRES_PER_DEGREE = Math.PI * EARTH_RADIUS_M / 180;

  private GreatCircle() {}

  /** Distance in metres between two points given in degrees. */
  public static double metres(double lat1, double lon1, double lat2, double lon2) {
    double p1 = Math.toRadians(lat1);
    double p2 = Math.toRadians(lat2);
    double dp = p2 - p1;
    double dl = Math.toRadians(lon2 - lon1);
    double a = Math.sin(dp / 2) * Math.sin(dp / 2) + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2);
    return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
  }
}
