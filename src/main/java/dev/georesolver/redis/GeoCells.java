package dev.georesolver.redis;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Geohash cells of the sharded cached index: a point is written to the GEO set of its cell, and a
 * radius lookup reads the cells the radius circle touches, nearest first, and merges what they hold.
 * Standard geohash (base 32, longitude bit first), so {@code GEOHASH} in redis-cli shows the same
 * prefixes.
 *
 * <p>Pure and thread-safe.
 */
public final class GeoCells {

  private static final String BASE32 = "0123456789bcdefghjkmnpqrstuvwxyz";
  /** Metres per degree of latitude (and of longitude at the equator), on the mean Earth radius. */
  static final double M_PER_DEG = 111_195.0;

  private final int precision;
  private final double cellLonDeg;
  private final double cellLatDeg;
  private final int maxCells;

  /**
   * @param precision geohash characters per cell, 1..12
   * @param maxCells the most cells one lookup reads; a radius that would touch more reads the nearest
   *     {@code maxCells} only (so a huge configured radius costs a bounded number of commands)
   */
  public GeoCells(int precision, int maxCells) {
    if (precision < 1 || precision > 12 || maxCells < 1) {
      throw new IllegalArgumentException("precision 1..12 and maxCells >= 1");
    }
    this.precision = precision;
    this.maxCells = maxCells;
    int bits = precision * 5;
    int lonBits = (bits + 1) / 2;
    int latBits = bits / 2;
    this.cellLonDeg = 360.0 / (1L << lonBits);
    this.cellLatDeg = 180.0 / (1L << latBits);
  }

  /** The geohash of ({@code lat}, {@code lon}) at this precision. */
  public String cell(double lat, double lon) {
    return encode(lat, lon, precision);
  }

  /** The geohash of a point with {@code precision} characters. */
  public static String encode(double lat, double lon, int precision) {
    double[] la = {-90, 90};
    double[] lo = {-180, 180};
    StringBuilder b = new StringBuilder(precision);
    boolean even = true;
    int bit = 0;
    int ch = 0;
    while (b.length() < precision) {
      double[] r = even ? lo : la;
      double v = even ? lon : lat;
      double mid = (r[0] + r[1]) / 2;
      ch <<= 1;
      if (v >= mid) {
        ch |= 1;
        r[0] = mid;
      } else {
        r[1] = mid;
      }
      even = !even;
      if (++bit == 5) {
        b.append(BASE32.charAt(ch));
        bit = 0;
        ch = 0;
      }
    }
    return b.toString();
  }

  /**
   * The cells a circle of {@code radiusM} metres around ({@code lat}, {@code lon}) touches, the
   * point's own cell first and the rest by distance of their centres, at most {@code maxCells}.
   * Crosses the antimeridian; near a pole the circle's bounding box is clamped to the pole.
   */
  public List<String> covering(double lat, double lon, double radiusM) {
    double dLat = radiusM / M_PER_DEG;
    double cos = Math.cos(Math.toRadians(Math.min(89.9, Math.abs(lat) + dLat)));
    double dLon = Math.min(180, radiusM / (M_PER_DEG * Math.max(cos, 1e-6)));
    double south = Math.max(-90, lat - dLat);
    double north = Math.min(90 - 1e-9, lat + dLat);
    long row0 = (long) Math.floor((south + 90) / cellLatDeg);
    long row1 = (long) Math.floor((north + 90) / cellLatDeg);
    long col0 = (long) Math.floor((lon - dLon + 180) / cellLonDeg);
    long col1 = (long) Math.floor((lon + dLon + 180) / cellLonDeg);
    long cols = Math.round(360 / cellLonDeg);
    // The nearest maxCells cells lie within this many rows and columns of the point's own cell.
    long half = (long) Math.ceil(Math.sqrt(maxCells)) / 2 + 1;
    long row = (long) Math.floor((lat + 90) / cellLatDeg);
    long col = (long) Math.floor((lon + 180) / cellLonDeg);
    row0 = Math.max(row0, row - half);
    row1 = Math.min(row1, row + half);
    col0 = Math.max(col0, col - half);
    col1 = Math.min(col1, col + half);
    record Candidate(String cell, double d2) {}
    List<Candidate> all = new ArrayList<>();
    for (long r = row0; r <= row1; r++) {
      double cLat = -90 + (r + 0.5) * cellLatDeg;
      for (long c = col0; c <= col1 && c - col0 < cols; c++) {
        double cLon = -180 + (Math.floorMod(c, cols) + 0.5) * cellLonDeg;
        double dy = cLat - lat;
        double dx = ((c + 0.5) * cellLonDeg - 180 - lon) * Math.cos(Math.toRadians(lat));
        all.add(new Candidate(encode(cLat, cLon, precision), dx * dx + dy * dy));
      }
    }
    all.sort(Comparator.comparingDouble(Candidate::d2));
    Set<String> out = new LinkedHashSet<>();
    out.add(cell(lat, lon));
    for (Candidate c : all) {
      if (out.size() >= maxCells) {
        break;
      }
      out.add(c.cell());
    }
    return List.copyOf(out);
  }
}
