package dev.georesolver.crs;

import org.locationtech.proj4j.CRSFactory;
import org.locationtech.proj4j.CoordinateReferenceSystem;
import org.locationtech.proj4j.CoordinateTransform;
import org.locationtech.proj4j.CoordinateTransformFactory;
import org.locationtech.proj4j.ProjCoordinate;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * Moves points from a provider's CRS into EPSG:4326 (longitude, latitude in degrees) with proj4j,
 * applying the definitions of a {@link CrsCatalog} (pinned, then bundled, then proj4j-epsg's).
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
 * <p>A normalizer made with {@link #nonBlocking} never reads the EPSG database: a CRS the catalog
 * has not looked up yet is a {@link CrsNotLoadedException}, and its owner looks it up on a worker
 * ({@link CrsCatalog#lookUp}) and asks again. One made with the constructor looks it up itself,
 * blocking; use it off the event loop only (tools, tests).
 *
 * <p><b>Not thread-safe</b>: proj4j transforms keep mutable scratch state, and this instance
 * caches one forward and one inverse transform per source CRS and reuses scratch coordinates.
 * Give each thread (each verticle context) its own instance; instances share no transform, CRS
 * or projection object (only proj4j's immutable datum and ellipsoid constants and the catalog's
 * immutable definitions).
 */
public final class CrsNormalizer {

  /** Largest round-trip discrepancy accepted, in source CRS units (metres or feet). */
  static final double ROUND_TRIP_TOLERANCE = 0.01;
  /** Largest round-trip discrepancy accepted for a geographic source, in degrees. */
  static final double ROUND_TRIP_TOLERANCE_DEGREES = 1e-7;

  static final String WGS84_DEFINITION = "+proj=longlat +datum=WGS84 +no_defs";
  private static final TransformInfo IDENTITY_4326 = new TransformInfo("EPSG:4326", "", "");
  private static final TransformInfo IDENTITY_CRS84 = new TransformInfo("OGC:CRS84", "", "");

  private final CrsCatalog catalog;
  private final boolean mayBlock;
  private final CRSFactory crsFactory = new CRSFactory();
  private final CoordinateTransformFactory ctFactory = new CoordinateTransformFactory();
  private final Map<String, Cached> cache = new HashMap<>();
  private final ProjCoordinate in = new ProjCoordinate();
  private final ProjCoordinate out = new ProjCoordinate();
  private final ProjCoordinate back = new ProjCoordinate();
  private CoordinateReferenceSystem wgs84;

  /** A built transform pair, or (problem non-null) why a found definition could not be built. */
  private record Cached(
      CoordinateTransform forward, CoordinateTransform inverse, boolean geographic, TransformInfo info, String problem) {}

  /**
   * A normalizer that looks definitions up itself, blocking on the EPSG database the first time a
   * code is asked: for tools and tests, never for an event loop.
   *
   * @param pinnedDefinitions the manifest's {@code crs_definitions}: source CRS (any spelling
   *     {@link CrsId#parse} accepts) to proj4 definition; these win over the bundled ones
   * @throws IllegalArgumentException when a key is not a CRS spelling or a definition is empty,
   *     unreadable by proj4j or names a grid file; {@link #problems} lists every such problem at
   *     once for manifest validation
   */
  public CrsNormalizer(Map<String, String> pinnedDefinitions) {
    this(CrsCatalog.of(pinnedDefinitions), true);
  }

  private CrsNormalizer(CrsCatalog catalog, boolean mayBlock) {
    this.catalog = catalog;
    this.mayBlock = mayBlock;
  }

  /**
   * A normalizer over {@code catalog} that never blocks: a CRS whose definition the catalog has not
   * looked up yet fails with {@link CrsNotLoadedException}. For a verticle's event loop.
   */
  public static CrsNormalizer nonBlocking(CrsCatalog catalog) {
    return new CrsNormalizer(catalog, false);
  }

  /**
   * Everything wrong with a {@code crs_definitions} map, one message per problem, empty when it
   * is usable: keys that are not CRS spellings, definitions proj4j cannot read, grid files.
   */
  public static List<String> problems(Map<String, String> definitions) {
    return CrsCatalog.problems(definitions);
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
    if (id.isWgs84() && !catalog.pinned(id)) {
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
      CrsCatalog.Entry e = catalog.known(id);
      if (e == null) {
        if (!mayBlock) {
          throw new CrsNotLoadedException(id);
        }
        e = catalog.lookUp(id);
      }
      if (!e.found()) {
        throw new CrsException(e.problem());
      }
      c = build(id, e.definition());
      cache.put(id.canonical(), c);
    }
    if (c.problem() != null) {
      throw new CrsException(c.problem());
    }
    return c;
  }

  /** The transforms for a found definition; a definition proj4j cannot build is remembered as such. */
  private Cached build(CrsId id, String definition) {
    try {
      if (wgs84 == null) {
        wgs84 = crsFactory.createFromParameters("EPSG:4326", WGS84_DEFINITION);
      }
      CoordinateReferenceSystem src = crsFactory.createFromParameters(id.canonical(), definition);
      return new Cached(
          ctFactory.createTransform(src, wgs84),
          ctFactory.createTransform(wgs84, src),
          Boolean.TRUE.equals(src.isGeographic()),
          new TransformInfo(id.canonical(), definition, shortHash(definition)),
          null);
    } catch (RuntimeException e) {
      return new Cached(null, null, false, null, "unknown CRS " + id.canonical() + ": " + e.getMessage());
    }
  }

  /** The resolver's reviewed default definitions, canonical CRS to proj4 string. */
  static Map<String, String> bundledDefinitions() {
    return CrsCatalog.bundledDefinitions();
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
