package dev.georesolver.gazetteer;

/**
 * Cities bucketed into fixed cells of {@value #CELL_DEG}° of latitude by {@value #CELL_DEG}° of
 * longitude, stored as one sorted array of city ids with a start offset per cell (compressed
 * sparse rows: {@code 360 / CELL_DEG × 180 / CELL_DEG + 1} ints of offsets, one int per city).
 *
 * <p>A search visits only the cells that a spherical cap of the asked radius can touch: the rows
 * within the cap's latitude span and, per the cap's exact longitude half-width
 * {@code asin(sin δ / cos φ)}, the columns around the point, wrapping across the antimeridian
 * and taking whole rows near the poles.
 *
 * <p>Immutable and thread-safe once built.
 */
final class GridIndex {

  /** Cell edge, in degrees. */
  static final double CELL_DEG = 0.5;

  private static final int ROWS = (int) Math.round(180 / CELL_DEG);
  private static final int COLS = (int) Math.round(360 / CELL_DEG);

  /** Mean Earth radius used for all distances, in metres (IUGG R1). */
  static final double EARTH_RADIUS_M = 6_371_008.8;

  private final int[] cellStart;
  private final int[] cities;

  private GridIndex(int[] cellStart, int[] cities) {
    this.cellStart = cellStart;
    this.cities = cities;
  }

  /** Buckets cities {@code 0..latE5.length-1}; coordinates in degrees × 1e5. */
  static GridIndex build(int[] latE5, int[] lonE5) {
    int n = latE5.length;
    int[] cellOf = new int[n];
    int[] cellStart = new int[ROWS * COLS + 1];
    for (int i = 0; i < n; i++) {
      cellOf[i] = cell(row(latE5[i] / 1e5), col(lonE5[i] / 1e5));
      cellStart[cellOf[i] + 1]++;
    }
    for (int c = 0; c < ROWS * COLS; c++) {
      cellStart[c + 1] += cellStart[c];
    }
    int[] fill = cellStart.clone();
    int[] cities = new int[n];
    for (int i = 0; i < n; i++) {
      cities[fill[cellOf[i]]++] = i;
    }
    return new GridIndex(cellStart, cities);
  }

  /** Receives each city id found by {@link #visit}. */
  @FunctionalInterface
  interface CityVisitor {
    void visit(int city);
  }

  /**
   * Calls {@code visitor} for every city in the cells that the cap of {@code radiusM} metres
   * around the point touches: a superset of the cities within that distance.
   */
  void visit(double lat, double lon, double radiusM, CityVisitor visitor) {
    double delta = radiusM / EARTH_RADIUS_M;
    double deltaDeg = Math.toDegrees(delta);
    int rowMin = row(Math.max(-90, lat - deltaDeg));
    int rowMax = row(Math.min(90, lat + deltaDeg));
    double cosLat = Math.cos(Math.toRadians(lat));
    boolean allCols = lat + deltaDeg >= 90 || lat - deltaDeg <= -90 || Math.sin(delta) >= cosLat;
    int colMin = 0;
    int colCount = COLS;
    if (!allCols) {
      double halfWidth = Math.toDegrees(Math.asin(Math.sin(delta) / cosLat));
      colMin = (int) Math.floor((lon - halfWidth + 180) / CELL_DEG);
      int colMax = (int) Math.floor((lon + halfWidth + 180) / CELL_DEG);
      colCount = Math.min(COLS, colMax - colMin + 1);
    }
    for (int r = rowMin; r <= rowMax; r++) {
      for (int k = 0; k < colCount; k++) {
        int c = cell(r, Math.floorMod(colMin + k, COLS));
        for (int i = cellStart[c]; i < cellStart[c + 1]; i++) {
          visitor.visit(cities[i]);
        }
      }
    }
  }

  /** Great-circle distance by the haversine formula, in metres; inputs in degrees. */
  static double haversineM(double lat1, double lon1, double lat2, double lon2) {
    double p1 = Math.toRadians(lat1);
    double p2 = Math.toRadians(lat2);
    double dp = p2 - p1;
    double dl = Math.toRadians(lon2 - lon1);
    double a = Math.sin(dp / 2) * Math.sin(dp / 2)
        + Math.cos(p1) * Math.cos(p2) * Math.sin(dl / 2) * Math.sin(dl / 2);
    return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
  }

  /** Bytes held by the arrays, for the cost report. */
  long arrayBytes() {
    return 4L * (cellStart.length + cities.length);
  }

  private static int row(double lat) {
    return Math.min(ROWS - 1, Math.max(0, (int) Math.floor((lat + 90) / CELL_DEG)));
  }

  private static int col(double lon) {
    return Math.floorMod((int) Math.floor((lon + 180) / CELL_DEG), COLS);
  }

  private static int cell(int row, int col) {
    return row * COLS + col;
  }
}
