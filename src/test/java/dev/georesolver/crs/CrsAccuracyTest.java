package dev.georesolver.crs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * Proves the DESIGN §6 accuracy target: every point of {@code crs/reference-points.csv} (written
 * by {@code scripts/crs/make-reference.py} with PROJ's cs2cs, best grid-free transformation)
 * lands within 0.0001° of PROJ in longitude and in latitude. Prints the worst error per CRS
 * (the larger of the longitude and latitude differences, and that point's distance in metres).
 *
 * <p>The reference is PROJ's best grid-free transformation (see the script): where PROJ would use
 * a grid (OSTN15, rdtrans2018, NADCON5, BETA2007) the resolver promises the EPSG Helmert fallback,
 * which is what proj4j can apply.
 */
class CrsAccuracyTest {

  private static final double TOLERANCE_DEGREES = 1e-4;
  private static final int MIN_POINTS_PER_CRS = 20;
  /** Mean length of a degree of latitude; only for the printed metre figure. */
  private static final double METRES_PER_DEGREE = 111_320;
  private static final List<String> REQUIRED = List.of(
      "EPSG:3857", "EPSG:27700", "EPSG:2154", "EPSG:25832", "EPSG:32633", "EPSG:3035", "EPSG:2263",
      "EPSG:28992", "EPSG:4269", "EPSG:3006", "EPSG:2193", "EPSG:31370", "EPSG:5070");

  private record Reference(String crs, double x, double y, double lon, double lat) {}

  private record Worst(double degrees, double metres, Reference at, int points) {}

  @Test
  @DisplayName("every reference point lands within 0.0001° of PROJ, for each required CRS")
  void everyPointWithinToleranceOfProj() throws Exception {
    List<Reference> points = read();
    CrsNormalizer normalizer = new CrsNormalizer(Map.of());
    Map<String, Worst> worst = new LinkedHashMap<>();
    List<String> failures = new ArrayList<>();
    for (Reference r : points) {
      Wgs84Point p;
      try {
        p = normalizer.toWgs84(r.crs(), r.x(), r.y());
      } catch (CrsException e) {
        failures.add(r + ": " + e.getMessage());
        continue;
      }
      double dLon = Math.abs(p.lon() - r.lon());
      double dLat = Math.abs(p.lat() - r.lat());
      double error = Math.max(dLon, dLat);
      double metres = METRES_PER_DEGREE * Math.hypot(dLon * Math.cos(Math.toRadians(r.lat())), dLat);
      Worst w = worst.get(r.crs());
      int n = w == null ? 1 : w.points() + 1;
      worst.put(r.crs(), w == null || error > w.degrees()
          ? new Worst(error, metres, r, n)
          : new Worst(w.degrees(), w.metres(), w.at(), n));
      if (error > TOLERANCE_DEGREES) {
        failures.add(String.format("%s: got %.10f,%.10f, PROJ %.10f,%.10f", r, p.lon(), p.lat(), r.lon(), r.lat()));
      }
    }
    worst.forEach((crs, w) -> System.out.printf(
        "CRS accuracy %-12s worst %.3e deg (%.3f m) over %d points, at x=%s y=%s%n",
        crs, w.degrees(), w.metres(), w.points(), w.at().x(), w.at().y()));

    assertThat(failures).as("points outside %s° of PROJ", TOLERANCE_DEGREES).isEmpty();
    assertThat(worst.keySet()).containsAll(REQUIRED);
    worst.forEach((crs, w) -> assertThat(w.points()).as(crs).isGreaterThanOrEqualTo(MIN_POINTS_PER_CRS));
  }

  private static List<Reference> read() throws IOException {
    InputStream in = CrsAccuracyTest.class.getResourceAsStream("/crs/reference-points.csv");
    assertThat(in).as("crs/reference-points.csv on the test classpath").isNotNull();
    List<Reference> points = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        if (line.isBlank() || line.startsWith("#") || line.startsWith("crs,")) {
          continue;
        }
        String[] f = line.split(",");
        points.add(new Reference(f[0], Double.parseDouble(f[1]), Double.parseDouble(f[2]),
            Double.parseDouble(f[3]), Double.parseDouble(f[4])));
      }
    }
    return points;
  }
}
