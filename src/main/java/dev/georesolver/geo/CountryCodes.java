package dev.georesolver.geo;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * ISO 3166-1 country codes as providers write them, read into one form: alpha-2, upper case.
 *
 * <p>Providers disagree: Google and Photon send {@code GB}, Nominatim, OpenCage and Mapbox
 * {@code gb}, Pelias' {@code country_a}, HERE and ArcGIS the alpha-3 {@code GBR}. The alpha-3 codes
 * are mapped through the JDK's own ISO 3166 data (no table of ours), so a code the JDK does not
 * know is not guessed. Two codes outside that data are read as well: {@code UK}, which ISO 3166
 * reserves for the United Kingdom (whose code is {@code GB}), and {@code XKX}, the alpha-3 code
 * providers use for Kosovo ({@code XK}, user-assigned and not in the JDK's list).
 *
 * <p>Stateless and thread-safe; the lookup table is built once from the JDK.
 */
public final class CountryCodes {

  private static final Pattern ALPHA2 = Pattern.compile("[A-Z]{2}");
  private static final Pattern ALPHA3 = Pattern.compile("[A-Z]{3}");
  private static final Map<String, String> BY_ALPHA3 = alpha3ToAlpha2();

  private CountryCodes() {}

  private static Map<String, String> alpha3ToAlpha2() {
    Map<String, String> m = new HashMap<>();
    for (String a2 : Locale.getISOCountries()) {
      String a3 = new Locale("", a2).getISO3Country();
      if (!a3.isEmpty()) {
        m.put(a3, a2);
      }
    }
    m.putIfAbsent("XKX", "XK");
    return Map.copyOf(m);
  }

  /**
   * The ISO 3166-1 alpha-2 code, upper case, for a code a provider sent.
   *
   * @param code an alpha-2 code in any case ({@code gb}, {@code GB}; {@code UK} reads as
   *     {@code GB}), or an alpha-3 code the JDK knows ({@code GBR}, {@code fra}); surrounding
   *     blanks are ignored
   * @return the alpha-2 code, or null when {@code code} is null or neither form
   */
  public static String alpha2(String code) {
    if (code == null) {
      return null;
    }
    String c = code.strip().toUpperCase(Locale.ROOT);
    if (ALPHA2.matcher(c).matches()) {
      return "UK".equals(c) ? "GB" : c;
    }
    return ALPHA3.matcher(c).matches() ? BY_ALPHA3.get(c) : null;
  }
}
