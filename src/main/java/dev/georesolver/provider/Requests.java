package dev.georesolver.provider;

import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Bbox;

import java.math.BigDecimal;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Request-building pieces the adapters share: plain number rendering, bounding boxes, structured
 * address components and language tags. Stateless and thread-safe.
 */
final class Requests {

  /** Component keys of {@link ForwardQuery#components()}. */
  static final String HOUSE_NUMBER = "house_number";
  static final String STREET = "street";
  static final String UNIT = "unit";
  static final String LOCALITY = "locality";
  static final String REGION = "region";
  static final String POSTCODE = "postcode";
  static final String COUNTRY = "country";

  private Requests() {}

  /** A coordinate as plain decimal text (never scientific notation such as {@code 1.0E-5}). */
  static String num(double v) {
    return BigDecimal.valueOf(v).stripTrailingZeros().toPlainString();
  }

  /** {@code minLon,minLat,maxLon,maxLat}, or null without a box. */
  static String lonLatBox(Bbox b) {
    return b == null ? null : num(b.minLon()) + "," + num(b.minLat()) + "," + num(b.maxLon()) + "," + num(b.maxLat());
  }

  /**
   * Whether the query should go to the provider's structured form: it has components, and every
   * one of them is a key the provider can place (so nothing the caller said is silently dropped).
   */
  static boolean structuredFits(ForwardQuery q, Set<String> supported) {
    return !q.components().isEmpty() && supported.containsAll(q.components().keySet());
  }

  /** House number and street joined as one street line ("10 Downing Street"), or null. */
  static String streetLine(Map<String, String> c) {
    String number = c.get(HOUSE_NUMBER);
    String street = c.get(STREET);
    if (street == null) {
      return number;
    }
    return number == null ? street : number + " " + street;
  }

  /** The primary language subtag ("en" for "en-GB"), for providers that take ISO 639-1 codes. */
  static String primaryLanguage(String bcp47) {
    if (bcp47 == null || bcp47.isBlank()) {
      return null;
    }
    int dash = bcp47.indexOf('-');
    return (dash < 0 ? bcp47 : bcp47.substring(0, dash)).toLowerCase(Locale.ROOT);
  }

  /** The language tag as given, or null when blank. */
  static String language(String bcp47) {
    return bcp47 == null || bcp47.isBlank() ? null : bcp47;
  }
}
