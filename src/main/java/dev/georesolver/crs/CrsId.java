package dev.georesolver.crs;

import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A source CRS, read from whatever spelling the provider used.
 *
 * <p>Accepted: {@code EPSG:n}, {@code urn:ogc:def:crs:EPSG::n} (optionally with a version),
 * {@code http(s)://www.opengis.net/def/crs/EPSG/0/n}, {@code CRS84} / {@code OGC:CRS84} /
 * {@code urn:ogc:def:crs:OGC:1.3:CRS84}, a bare number (an EPSG code or an Esri wkid), and Esri
 * wkids that alias EPSG codes (102100 and 102113 are EPSG:3857).
 *
 * @param canonical {@code EPSG:n} or {@code OGC:CRS84}
 * @param epsg the EPSG code the transform uses (4326 for CRS84)
 * @param northingFirst whether the authority's axis order puts northing/latitude first (EPSG:4326
 *     does, CRS84 does not); only matters to adapters reading an authority-ordered pair
 */
public record CrsId(String canonical, int epsg, boolean northingFirst) {

  /** EPSG:4326 itself. */
  public static final CrsId WGS84 = new CrsId("EPSG:4326", 4326, true);
  /** OGC:CRS84: WGS 84 with longitude first. */
  public static final CrsId CRS84 = new CrsId("OGC:CRS84", 4326, false);

  private static final Pattern EPSG = Pattern.compile("(?i)^epsg:(\\d+)$");
  private static final Pattern URN = Pattern.compile("(?i)^urn:ogc:def:crs:epsg:[0-9.]*:(\\d+)$");
  private static final Pattern HTTP = Pattern.compile("(?i)^https?://www\\.opengis\\.net/def/crs/epsg/[0-9.]+/(\\d+)$");
  private static final Pattern NUMBER = Pattern.compile("^\\d+$");

  /** Esri wkids that are other names of EPSG codes. */
  private static final Map<Integer, Integer> ESRI_ALIASES = Map.of(102100, 3857, 102113, 3857, 900913, 3857);

  /** Geographic and projected CRSs whose EPSG axis order is northing/latitude first. */
  private static final java.util.Set<Integer> NORTHING_FIRST = java.util.Set.of(4326, 4258, 4269, 4267, 4283, 4167, 3006, 2193, 3035);

  /**
   * Reads a CRS spelling.
   *
   * @throws CrsException when the spelling is not one of the accepted forms
   */
  public static CrsId parse(String text) throws CrsException {
    if (text == null || text.isBlank()) {
      throw new CrsException("no CRS given");
    }
    String t = text.trim();
    String upper = t.toUpperCase(Locale.ROOT);
    if (upper.equals("CRS84") || upper.equals("OGC:CRS84") || upper.matches("URN:OGC:DEF:CRS:OGC:[0-9.]*:CRS84")
        || upper.matches("HTTPS?://WWW\\.OPENGIS\\.NET/DEF/CRS/OGC/[0-9.]+/CRS84")) {
      return CRS84;
    }
    for (Pattern p : new Pattern[] {EPSG, URN, HTTP, NUMBER}) {
      Matcher m = p.matcher(t);
      if (m.matches()) {
        String digits = p == NUMBER ? m.group() : m.group(1);
        return ofCode(Integer.parseInt(digits));
      }
    }
    throw new CrsException("unrecognised CRS: " + t);
  }

  /** The CRS for an EPSG code or Esri wkid. */
  public static CrsId ofCode(int code) {
    int epsg = ESRI_ALIASES.getOrDefault(code, code);
    return new CrsId("EPSG:" + epsg, epsg, NORTHING_FIRST.contains(epsg));
  }

  /** True for EPSG:4326 and CRS84: no transform needed. */
  public boolean isWgs84() {
    return epsg == 4326;
  }
}
