package dev.georesolver.crs;

import org.locationtech.proj4j.CRSFactory;
import org.locationtech.proj4j.CoordinateReferenceSystem;
import org.locationtech.proj4j.CoordinateTransform;
import org.locationtech.proj4j.CoordinateTransformFactory;
import org.locationtech.proj4j.ProjCoordinate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Moves points from a provider's CRS into EPSG:4326 (longitude, latitude in degrees) with proj4j.
 *
 * <p>Where the definition of a source CRS comes from, first match wins:
 *
 * <ol>
 *   <li>the manifest's {@code crs_definitions} (the constructor's map), so a datum change is a
 *       reviewed commit of the manifest;
 *   <li>the resolver's reviewed defaults in {@code crs/definitions.txt} (each with the reason it
 *       exists: proj4j-epsg lacks the CRS, or its datum shift differs from the one PROJ applies);
 *   <li>proj4j-epsg's bundled EPSG database (EPSG codes only; Esri-only wkids need 1 or 2).
 * </ol>
 *
 * <p>Every result carries a {@link TransformInfo} naming the source CRS, the definition applied
 * and a short hash of it. Accuracy: within 0.0001° of PROJ's best grid-free transformation on the
 * CRSs in {@code src/test/resources/crs/reference-points.csv}; definitions naming grid files are
 * refused (the resolver ships none, and proj4j would look them up in the working directory).
 *
 * <p>A result is rejected with a {@link CrsException} when the CRS is unknown, an input is not a
 * finite number (or, for a geographic source, not a longitude/latitude), the result is not on the
 * Earth, or the point does not survive a round trip back into the source CRS (a projection far
 * outside its domain, often an axis-order mistake, yields such garbage).
 *
 * <p><b>Not thread-safe</b>: proj4j transforms keep mutable scratch state, and this instance
 * caches one forward and one inverse transform per source CRS and reuses scratch coordinates.
 * Give each thread (each verticle context) its own instance; instances share no transform, CRS
 * or projection object (only proj4j's immutable datum and ellipsoid constants and this class's
 * immutable definition tables).
 */
public final class CrsNormalizer {

  /** Largest round-trip discrepancy accepted, in source CRS units (metres or feet). */
  static final double ROUND_TRIP_TOLERANCE = 0.01;
  /** Largest round-trip discrepancy accepted for a geographic source, in degrees. */
  static final double ROUND_TRIP_TOLERANCE_DEGREES = 1e-7;

  private static final String WGS84_DEFINITION = "+proj=longlat +datum=WGS84 +no_defs";
  private static final TransformInfo IDENTITY_4326 = new TransformInfo("EPSG:4326", "", "");
  private static final TransformInfo IDENTITY_CRS84 = new TransformInfo("OGC:CRS84", "", "");
  private static final Map<String, String> BUNDLED = loadBundled();
  private static final Pattern GRID_PARAMETER = Pattern.compile("\\+nadgrids=(?!@null(?:\\s|$))\\S*");

  private final Map<String, String> pinned;
  private final CRSFactory crsFactory = new CRSFactory();
  private final CoordinateTransformFactory ctFactory = new CoordinateTransformFactory();
  private final Map<String, Cached> cache = new HashMap<>();
  private final ProjCoordinate in = new ProjCoordinate();
  private final ProjCoordinate out = new ProjCoordinate();
  private final ProjCoordinate back = new ProjCoordinate();
  private CoordinateReferenceSystem wgs84;

  private record Cached(
      CoordinateTransform forward, CoordinateTransform inverse, boolean geographic, TransformInfo info) {}

  /**
   * @param pinnedDefinitions the manifest's {@code crs_definitions}: source CRS (any spelling
   *     {@link CrsId#parse} accepts) to proj4 definition; these win over the bundled ones
   * @throws IllegalArgumentException when a key is not a CRS spelling or a definition is empty,
   *     unreadable by proj4j or names a grid file; {@link #problems} lists every such problem at
   *     once for manifest validation
   */
  public CrsNormalizer(Map<String, String> pinnedDefinitions) {
    List<String> problems = problems(pinnedDefinitions);
    if (!problems.isEmpty()) {
      throw new IllegalArgumentException(String.join("; ", problems));
    }
    this.pinned = canonicalKeys(pinnedDefinitions);
  }

  /**
   * Everything wrong with a {@code crs_definitions} map, one message per problem, empty when it
   * is usable: keys that are not CRS spellings, definitions proj4j cannot read, grid files.
   */
  public static List<String> problems(Map<String, String> definitions) {
    List<String> problems = keyProblems(definitions);
    CRSFactory factory = new CRSFactory();
    definitions.forEach((key, definition) -> {
      try {
        if (definition != null && !definition.isBlank() && !GRID_PARAMETER.matcher(definition).find()) {
          factory.createFromParameters(key, definition);
        }
      } catch (RuntimeException e) {
        problems.add("crs_definitions." + key + ": proj4j cannot read the definition: " + e.getMessage());
      }
    });
    return problems;
  }

  private static List<String> keyProblems(Map<String, String> definitions) {
    List<String> problems = new ArrayList<>();
    Map<String, String> seen = new HashMap<>();
    definitions.forEach((key, definition) -> {
      try {
        String canonical = CrsId.parse(key).canonical();
        String twin = seen.put(canonical, key);
        if (twin != null) {
          problems.add("crs_definitions: " + twin + " and " + key + " both define " + canonical);
        }
      } catch (CrsException e) {
        problems.add("crs_definitions." + key + ": " + e.getMessage());
      }
      if (definition == null || definition.isBlank()) {
        problems.add("crs_definitions." + key + ": empty definition");
      } else if (GRID_PARAMETER.matcher(definition).find()) {
        problems.add("crs_definitions." + key + ": grid files are not supported (only +nadgrids=@null)");
      }
    });
    return problems;
  }

  private static Map<String, String> canonicalKeys(Map<String, String> definitions) {
    Map<String, String> canonical = new HashMap<>();
    definitions.forEach((key, definition) -> {
      try {
        canonical.put(CrsId.parse(key).canonical(), definition.strip());
      } catch (CrsException e) {
        throw new IllegalStateException("validated key no longer parses: " + key, e);
      }
    });
    return Map.copyOf(canonical);
  }

  /**
   * Transforms one point.
   *
   * @param crs the source CRS spelling, as {@link CrsId#parse} reads it
   * @param x easting or longitude, in the CRS's units, whatever the CRS's authority axis order
   * @param y northing or latitude, in the CRS's units
   * @return longitude and latitude in degrees, unrounded
   * @throws CrsException when the CRS is unknown, the input is not a point in it, or the result
   *     is not a finite point on Earth
   */
  public Wgs84Point toWgs84(String crs, double x, double y) throws CrsException {
    return toWgs84(CrsId.parse(crs), x, y);
  }

  /** As {@link #toWgs84(String, double, double)} for a parsed CRS. */
  public Wgs84Point toWgs84(CrsId id, double x, double y) throws CrsException {
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      throw new CrsException("coordinates are not finite numbers: " + x + "," + y);
    }
    if (id.isWgs84() && !pinned.containsKey(id.canonical())) {
      requireLonLat(id, x, y);
      return new Wgs84Point(x, y, id.equals(CrsId.CRS84) ? IDENTITY_CRS84 : IDENTITY_4326);
    }
    Cached c = cached(id);
    if (c.geographic()) {
      requireLonLat(id, x, y);
    }
    in.setValue(x, y);
    try {
      c.forward().transform(in, out);
    } catch (RuntimeException e) {
      throw new CrsException("transform from " + id.canonical() + " failed: " + e.getMessage());
    }
    double lon = out.x;
    double lat = out.y;
    if (!Double.isFinite(lon) || !Double.isFinite(lat) || Math.abs(lon) > 180 || Math.abs(lat) > 90) {
      throw new CrsException("point " + x + "," + y + " in " + id.canonical() + " is off the Earth: " + lon + "," + lat);
    }
    requireRoundTrip(id, c, x, y);
    return new Wgs84Point(lon, lat, c.info());
  }

  private static void requireLonLat(CrsId id, double lon, double lat) throws CrsException {
    if (Math.abs(lon) > 180 || Math.abs(lat) > 90) {
      throw new CrsException("not a longitude,latitude in " + id.canonical() + ": " + lon + "," + lat);
    }
  }

  private void requireRoundTrip(CrsId id, Cached c, double x, double y) throws CrsException {
    try {
      c.inverse().transform(out, back);
    } catch (RuntimeException e) {
      throw new CrsException("point " + x + "," + y + " is outside the domain of " + id.canonical());
    }
    double tolerance = c.geographic() ? ROUND_TRIP_TOLERANCE_DEGREES : ROUND_TRIP_TOLERANCE;
    if (!(Math.abs(back.x - x) <= tolerance && Math.abs(back.y - y) <= tolerance)) {
      throw new CrsException("point " + x + "," + y + " is outside the domain of " + id.canonical()
          + " (it does not transform back)");
    }
  }

  /** The forward transform this instance uses for a CRS; package-private for tests. */
  CoordinateTransform transformFor(CrsId id) throws CrsException {
    return cached(id).forward();
  }

  private Cached cached(CrsId id) throws CrsException {
    Cached c = cache.get(id.canonical());
    if (c == null) {
      c = build(id);
      cache.put(id.canonical(), c);
    }
    return c;
  }

  private Cached build(CrsId id) throws CrsException {
    String definition = definitionOf(id);
    try {
      if (wgs84 == null) {
        wgs84 = crsFactory.createFromParameters("EPSG:4326", WGS84_DEFINITION);
      }
      CoordinateReferenceSystem src = definition != null
          ? crsFactory.createFromParameters(id.canonical(), definition)
          : crsFactory.createFromName(id.canonical());
      String applied = definition != null ? definition : src.getParameterString().strip();
      return new Cached(
          ctFactory.createTransform(src, wgs84),
          ctFactory.createTransform(wgs84, src),
          Boolean.TRUE.equals(src.isGeographic()),
          new TransformInfo(id.canonical(), applied, shortHash(applied)));
    } catch (RuntimeException e) {
      throw new CrsException("unknown CRS " + id.canonical() + ": " + e.getMessage());
    }
  }

  /** The pinned or bundled definition, or null to use proj4j-epsg's. */
  private String definitionOf(CrsId id) throws CrsException {
    String definition = pinned.getOrDefault(id.canonical(), BUNDLED.get(id.canonical()));
    if (definition == null && id.epsg() == 0) {
      throw new CrsException("unknown CRS " + id.canonical() + ": no reviewed definition; pin one in crs_definitions");
    }
    return definition;
  }

  /** The resolver's reviewed default definitions, canonical CRS to proj4 string. */
  static Map<String, String> bundledDefinitions() {
    return BUNDLED;
  }

  private static Map<String, String> loadBundled() {
    Map<String, String> definitions = new LinkedHashMap<>();
    for (String line : CrsId.dataLines("crs/definitions.txt")) {
      int space = line.indexOf(' ');
      definitions.put(line.substring(0, space), line.substring(space + 1).strip());
    }
    return Map.copyOf(definitions);
  }

  /** First 12 hex digits of the SHA-256 of a definition string (UTF-8). */
  public static String shortHash(String definition) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(definition.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 missing from the JDK", e);
    }
  }
}
