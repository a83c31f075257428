package dev.georesolver.crs;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A source CRS, read from whatever spelling the provider used.
 *
 * <p>Accepted spellings (case-insensitive, surrounding blanks ignored):
 *
 * <ul>
 *   <li>{@code EPSG:n}, {@code ESRI:n} and a bare number {@code n};
 *   <li>{@code urn:ogc:def:crs:EPSG::n}, with a version ({@code urn:ogc:def:crs:EPSG:9.9.1:n}) or
 *       without the version slot ({@code urn:ogc:def:crs:EPSG:n}), the older
 *       {@code urn:x-ogc:def:crs:EPSG:n}, and the same with {@code ESRI};
 *   <li>{@code http(s)://www.opengis.net/def/crs/EPSG/0/n} (and {@code /ESRI/});
 *   <li>{@code CRS84}, {@code OGC:CRS84}, WMS 1.3's {@code CRS:84},
 *       {@code urn:ogc:def:crs:OGC:1.3:CRS84} (any or no version) and
 *       {@code http(s)://www.opengis.net/def/crs/OGC/1.3/CRS84}.
 * </ul>
 *
 * <p>Numbers are resolved in this order: an Esri wkid that Esri maps to an EPSG code (its
 * {@code latestWkid}, e.g. 102100 and 102113 → EPSG:3857, 102718 → EPSG:2263; also Google's
 * 900913) becomes that EPSG code, whatever the prefix; a number up to {@value #MAX_EPSG_CODE}
 * is an EPSG code (Esri reuses EPSG codes as wkids); a larger one is an Esri-only wkid,
 * canonical {@code ESRI:n}, which transforms only if the resolver bundles a reviewed
 * definition for it (102003, 102004, 102008, 102009, 102039) or the manifest pins one. Anything else is rejected with a
 * {@link CrsException}. Whether an EPSG code exists is checked when a point is transformed.
 *
 * <p>The Esri alias table and the axis-order table are generated from PROJ's database by
 * {@code scripts/crs/make-crs-tables.py} and bundled under {@code crs/}.
 *
 * <p>Immutable and thread-safe.
 *
 * @param canonical {@code EPSG:n}, {@code ESRI:n} (an Esri-only wkid) or {@code OGC:CRS84}
 * @param epsg the EPSG code (4326 for CRS84), or 0 for an Esri-only wkid
 * @param northingFirst whether the authority's axis order puts northing/latitude first (EPSG:4326
 *     and most EPSG geographic CRSs do, as do e.g. EPSG:3006, 2193, 3035; CRS84 and Esri wkids do
 *     not); only matters to adapters reading an authority-ordered pair, see {@link
 *     #toEastingNorthing}
 */
public record CrsId(String canonical, int epsg, boolean northingFirst) {

  /** EPSG:4326 itself: latitude first by its authority. */
  public static final CrsId WGS84 = new CrsId("EPSG:4326", 4326, true);
  /** OGC:CRS84: WGS 84 with longitude first. */
  public static final CrsId CRS84 = new CrsId("OGC:CRS84", 4326, false);

  /** Largest code EPSG assigns to a CRS; larger numbers are Esri wkids (or Google's 900913). */
  public static final int MAX_EPSG_CODE = 32767;

  private static final Pattern CRS84_FORM = Pattern.compile(
      "(?i)(?:(?:ogc:)?crs84|crs:84"
          + "|urn:ogc:def:crs:ogc:(?:[0-9.]*:)?crs84"
          + "|https?://www\\.opengis\\.net/def/crs/ogc/[0-9.]+/crs84)");
  private static final Pattern CODED_FORM = Pattern.compile(
      "(?i)(?:(?:epsg|esri):"
          + "|urn:(?:x-)?ogc:def:crs:(?:epsg|esri):(?:[0-9.]*:)?"
          + "|https?://www\\.opengis\\.net/def/crs/(?:epsg|esri)/[0-9.]+/"
          + ")?(\\d{1,9})");

  private static final Map<Integer, Integer> ESRI_ALIASES = loadAliases("crs/esri-wkid-to-epsg.csv");
  private static final BitSet NORTHING_FIRST = loadRanges("crs/epsg-northing-first.txt");

  /** Codes written in the wild as if they were EPSG codes, and the EPSG code they mean. */
  private static final Map<Integer, Integer> UNOFFICIAL_ALIASES = Map.of(900913, 3857);

  /** A coordinate pair in the resolver's order: x = easting/longitude, y = northing/latitude. */
  public record EastingNorthing(double x, double y) {}

  /**
   * Reads a CRS spelling.
   *
   * @throws CrsException when the spelling is not one of the accepted forms
   */
  public static CrsId parse(String text) throws CrsException {
    if (text == null || text.isBlank()) {
      throw new CrsException("no CRS given");
    }
    String t = text.strip();
    if (CRS84_FORM.matcher(t).matches()) {
      return CRS84;
    }
    Matcher m = CODED_FORM.matcher(t);
    if (!m.matches() || Integer.parseInt(m.group(1)) == 0) {
      throw new CrsException("unrecognised CRS: " + excerpt(t));
    }
    int code = Integer.parseInt(m.group(1));
    return ofCode(code);
  }

  /**
   * The CRS for an EPSG code or an Esri wkid, as {@link #parse} reads the number of any accepted
   * spelling (the {@code EPSG}/{@code ESRI} prefix does not change the meaning: Esri wkids below
   * {@value #MAX_EPSG_CODE} are EPSG codes, and Esri aliases are accepted under either prefix).
   *
   * @throws IllegalArgumentException for a code that is not positive
   */
  public static CrsId ofCode(int code) {
    if (code <= 0) {
      throw new IllegalArgumentException("CRS code must be positive: " + code);
    }
    Integer alias = UNOFFICIAL_ALIASES.getOrDefault(code, ESRI_ALIASES.get(code));
    if (alias != null) {
      return epsg(alias);
    }
    return code <= MAX_EPSG_CODE ? epsg(code) : new CrsId("ESRI:" + code, 0, false);
  }

  /** A provider's text, cut short enough for an error message. */
  private static String excerpt(String text) {
    return text.length() <= 64 ? text : text.substring(0, 64) + "...";
  }

  private static CrsId epsg(int code) {
    if (code == 4326) {
      return WGS84;
    }
    return new CrsId("EPSG:" + code, code, NORTHING_FIRST.get(code));
  }

  /** True for EPSG:4326 and CRS84: no transform needed. */
  public boolean isWgs84() {
    return epsg == 4326;
  }

  /**
   * Puts a pair read in this CRS's authority axis order into the resolver's order (x =
   * easting/longitude, y = northing/latitude): swapped when the authority puts northing first.
   * For adapters whose provider follows the authority order (GML, WFS 2, OGC API with a
   * {@code crs} other than CRS84); not for GeoJSON or Esri JSON, which are always x/y.
   */
  public EastingNorthing toEastingNorthing(double first, double second) {
    return northingFirst ? new EastingNorthing(second, first) : new EastingNorthing(first, second);
  }

  private static Map<Integer, Integer> loadAliases(String resource) {
    Map<Integer, Integer> aliases = new HashMap<>();
    for (String line : dataLines(resource)) {
      int comma = line.indexOf(',');
      aliases.put(Integer.parseInt(line.substring(0, comma)), Integer.parseInt(line.substring(comma + 1)));
    }
    return Map.copyOf(aliases);
  }

  private static BitSet loadRanges(String resource) {
    BitSet codes = new BitSet(MAX_EPSG_CODE + 1);
    for (String line : dataLines(resource)) {
      int dash = line.indexOf('-');
      int from = Integer.parseInt(dash < 0 ? line : line.substring(0, dash));
      int to = dash < 0 ? from : Integer.parseInt(line.substring(dash + 1));
      codes.set(from, to + 1);
    }
    return codes;
  }

  /** The non-blank, non-comment lines of a bundled table; a missing table is a packaging bug. */
  static List<String> dataLines(String resource) {
    InputStream in = CrsId.class.getClassLoader().getResourceAsStream(resource);
    if (in == null) {
      throw new IllegalStateException("bundled resource missing: " + resource);
    }
    List<String> lines = new ArrayList<>();
    try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
      for (String line = r.readLine(); line != null; line = r.readLine()) {
        String s = line.strip();
        if (!s.isEmpty() && !s.startsWith("#")) {
          lines.add(s);
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return lines;
  }
}
