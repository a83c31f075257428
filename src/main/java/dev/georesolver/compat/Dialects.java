package dev.georesolver.compat;

import dev.georesolver.bus.FieldProblem;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** Parameter reading that both dialects share. Pure and thread-safe. */
final class Dialects {

  /** The georesolver parameters a compatible request may add: passed to the chain as on {@code /v1}. */
  static final List<String> EXTENSIONS = List.of("intent", "budget_ms");

  private static final Pattern TAG = Pattern.compile("[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*");
  private static final Pattern COUNTRY_CODE = Pattern.compile("[A-Za-z]{2}");
  private static final Pattern INTEGER = Pattern.compile("[+-]?\\d{1,9}");

  private Dialects() {}

  /**
   * The first language of an Accept-Language style list ({@code en-GB,en;q=0.9} gives
   * {@code en-GB}); null for {@code *}, an empty list, or a first entry that is not a language tag
   * (an unusable preference is ignored, as Nominatim and Google do, never an error).
   */
  static String firstLanguage(String list) {
    if (list == null) {
      return null;
    }
    String first = list.split(",", 2)[0];
    int q = first.indexOf(';');
    String tag = (q >= 0 ? first.substring(0, q) : first).strip().replace('_', '-');
    return TAG.matcher(tag).matches() ? tag : null;
  }

  /** Whether {@code s} is a two-letter country code. */
  static boolean isCountryCode(String s) {
    return s != null && COUNTRY_CODE.matcher(s).matches();
  }

  /**
   * A country as text for a free-text query: the English name of a two-letter code ("GB" gives
   * "United Kingdom"), else the value as given.
   */
  static String countryText(String value) {
    if (isCountryCode(value)) {
      String name = new Locale("", value.toUpperCase(Locale.ROOT)).getDisplayCountry(Locale.ENGLISH);
      if (!name.isEmpty() && !name.equalsIgnoreCase(value)) {
        return name;
      }
    }
    return value;
  }

  /** An integer parameter, or null when it is not one. */
  static Integer integer(String s) {
    if (s == null) {
      return null;
    }
    String t = s.strip();
    return INTEGER.matcher(t).matches() ? Integer.valueOf(Integer.parseInt(t)) : null;
  }

  /** A number parameter (finite), or null when it is not one. */
  static Double number(String s) {
    if (s == null) {
      return null;
    }
    try {
      double d = Double.parseDouble(s.strip());
      return Double.isFinite(d) ? d : null;
    } catch (NumberFormatException e) {
      return null;
    }
  }

  /** Null for null or blank, else the value stripped. */
  static String nonBlank(String s) {
    if (s == null) {
      return null;
    }
    String t = s.strip();
    return t.isEmpty() ? null : t;
  }

  /**
   * The dialect's name for a request field that a problem names ({@code address.locality} is
   * Nominatim's {@code city}); the field itself when the map has none.
   */
  static String param(FieldProblem p, Map<String, String> names) {
    String f = p.field();
    String direct = names.get(f);
    if (direct != null) {
      return direct;
    }
    return f.startsWith("address.") && names.containsKey("address.*") ? names.get("address.*") : f;
  }
}
