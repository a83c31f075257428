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
import java.util.Map;

/**
 * Moves points from a provider's CRS into EPSG:4326 with proj4j.
 *
 * <p><b>Not thread-safe</b>: proj4j transforms keep mutable state, so each instance caches its
 * transforms per source CRS and must stay on one thread (one per verticle context).
 */
public final class CrsNormalizer {

  private static final TransformInfo IDENTITY_4326 = new TransformInfo("EPSG:4326", "", "");
  private static final TransformInfo IDENTITY_CRS84 = new TransformInfo("OGC:CRS84", "", "");

  private final Map<String, String> pinned;
  private final CRSFactory crsFactory = new CRSFactory();
  private final CoordinateTransformFactory ctFactory = new CoordinateTransformFactory();
  private final Map<String, Cached> cache = new HashMap<>();
  private CoordinateReferenceSystem wgs84;

  private record Cached(CoordinateTransform transform, TransformInfo info) {}

  /**
   * @param pinnedDefinitions the manifest's {@code crs_definitions}: canonical CRS ({@code EPSG:n})
   *     to proj4 definition; those win over proj4j's bundled EPSG database
   */
  public CrsNormalizer(Map<String, String> pinnedDefinitions) {
    this.pinned = Map.copyOf(pinnedDefinitions);
  }

  /**
   * Transforms one point.
   *
   * @param crs the source CRS spelling, as {@link CrsId#parse} reads it
   * @param x easting or longitude
   * @param y northing or latitude
   * @throws CrsException when the CRS is unknown or the result is not a finite point on Earth
   */
  public Wgs84Point toWgs84(String crs, double x, double y) throws CrsException {
    return toWgs84(CrsId.parse(crs), x, y);
  }

  /** As {@link #toWgs84(String, double, double)} for a parsed CRS. */
  public Wgs84Point toWgs84(CrsId id, double x, double y) throws CrsException {
    if (!Double.isFinite(x) || !Double.isFinite(y)) {
      throw new CrsException("coordinates are not finite numbers");
    }
    if (id.isWgs84() && !pinned.containsKey(id.canonical())) {
      return checked(x, y, id == CrsId.CRS84 ? IDENTITY_CRS84 : IDENTITY_4326);
    }
    Cached c = transformFor(id);
    ProjCoordinate out = new ProjCoordinate();
    try {
      c.transform().transform(new ProjCoordinate(x, y), out);
    } catch (RuntimeException e) {
      throw new CrsException("transform from " + id.canonical() + " failed: " + e.getMessage());
    }
    return checked(out.x, out.y, c.info());
  }

  private static Wgs84Point checked(double lon, double lat, TransformInfo info) throws CrsException {
    if (!Double.isFinite(lon) || !Double.isFinite(lat) || lon < -180 || lon > 180 || lat < -90 || lat > 90) {
      throw new CrsException("transformed point is off the Earth: " + lon + "," + lat);
    }
    return new Wgs84Point(lon, lat, info);
  }

  private Cached transformFor(CrsId id) throws CrsException {
    Cached c = cache.get(id.canonical());
    if (c == null) {
      c = build(id);
      cache.put(id.canonical(), c);
    }
    return c;
  }

  private Cached build(CrsId id) throws CrsException {
    try {
      if (wgs84 == null) {
        wgs84 = crsFactory.createFromName("EPSG:4326");
      }
      String def = pinned.get(id.canonical());
      CoordinateReferenceSystem src = def != null
          ? crsFactory.createFromParameters(id.canonical(), def)
          : crsFactory.createFromName(id.canonical());
      String applied = def != null ? def : src.getParameterString();
      CoordinateTransform t = ctFactory.createTransform(src, wgs84);
      return new Cached(t, new TransformInfo(id.canonical(), applied, shortHash(applied)));
    } catch (RuntimeException e) {
      throw new CrsException("unknown CRS " + id.canonical() + ": " + e.getMessage());
    }
  }

  /** First 12 hex digits of sha256 of the definition. */
  public static String shortHash(String definition) {
    try {
      byte[] d = MessageDigest.getInstance("SHA-256").digest(definition.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(d).substring(0, 12);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 missing from the JDK", e);
    }
  }
}
