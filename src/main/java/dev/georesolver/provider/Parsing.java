package dev.georesolver.provider;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Set;

/**
 * Field access shared by the adapters' body readers: tolerant of providers that write numbers as
 * strings, of missing members and of members of an unexpected type (all read as absent, never a
 * {@link ClassCastException}). Stateless and thread-safe.
 */
final class Parsing {

  /** The CRS written on hits from providers that always answer in WGS84 longitude/latitude. */
  static final String WGS84 = "EPSG:4326";

  private Parsing() {}

  /**
   * Decodes a body as JSON.
   *
   * @return a {@link JsonObject} or {@link JsonArray}, or null when the body is empty, not JSON, or
   *     a bare JSON scalar
   */
  static Object json(Buffer body) {
    String text = body.toString(StandardCharsets.UTF_8).strip();
    if (text.isEmpty()) {
      return null;
    }
    try {
      return switch (text.charAt(0)) {
        case '{' -> new JsonObject(text);
        case '[' -> new JsonArray(text);
        default -> null;
      };
    } catch (DecodeException | ClassCastException e) {
      return null;
    }
  }

  /** A decoded body as an object, or null when it is an array. */
  static JsonObject object(Object body) {
    return body instanceof JsonObject o ? o : null;
  }

  /** The {@code features} array of a decoded GeoJSON FeatureCollection body, or null when it has none. */
  static JsonArray features(Object body) {
    return array(object(body), "features");
  }

  /** The body as text, for recognising non-JSON error pages; never null. */
  static String text(Buffer body) {
    return body.toString(StandardCharsets.UTF_8);
  }

  /** The member as a finite number, accepting a numeric string ("48.86"); else null. */
  static Double number(JsonObject o, String key) {
    return o == null ? null : number(o.getValue(key));
  }

  /** The element as a finite number, accepting a numeric string; else null. */
  static Double number(JsonArray a, int index) {
    return a == null || index >= a.size() ? null : number(a.getValue(index));
  }

  private static Double number(Object v) {
    double d;
    if (v instanceof Number n) {
      d = n.doubleValue();
    } else if (v instanceof String s && !s.isBlank()) {
      try {
        d = Double.parseDouble(s.strip());
      } catch (NumberFormatException e) {
        return null;
      }
    } else {
      return null;
    }
    return Double.isFinite(d) ? d : null;
  }

  /** The member as a non-blank string (numbers are rendered as text); else null. */
  static String string(JsonObject o, String key) {
    if (o == null) {
      return null;
    }
    Object v = o.getValue(key);
    if (v instanceof String s) {
      return s.isBlank() ? null : s;
    }
    return v instanceof Number n ? n.toString() : null;
  }

  /** The member as an upper-case string, for matching provider enums; else null. */
  static String upper(JsonObject o, String key) {
    String s = string(o, key);
    return s == null ? null : s.toUpperCase(Locale.ROOT);
  }

  /** The member as a whole number (accepting a numeric string), or null. */
  static Integer integer(JsonObject o, String key) {
    Double d = number(o, key);
    return d == null ? null : (int) Math.round(d);
  }

  /** The member as a boolean; false when absent or not a boolean. */
  static boolean flag(JsonObject o, String key) {
    return o != null && o.getValue(key) instanceof Boolean b && b;
  }

  /** The object at {@code path} (each step a member name), or null when any step is missing. */
  static JsonObject object(JsonObject o, String... path) {
    JsonObject at = o;
    for (String step : path) {
      if (at == null || !(at.getValue(step) instanceof JsonObject next)) {
        return null;
      }
      at = next;
    }
    return at;
  }

  /** The member as an array, or null. */
  static JsonArray array(JsonObject o, String key) {
    return o != null && o.getValue(key) instanceof JsonArray a ? a : null;
  }

  /** The array element as an object, or null. */
  static JsonObject object(JsonArray a, int index) {
    return a.getValue(index) instanceof JsonObject o ? o : null;
  }

  /** The first element of a string array member, or null. */
  static String firstString(JsonObject o, String key) {
    JsonArray a = array(o, key);
    return a != null && !a.isEmpty() && a.getValue(0) instanceof String s ? s : null;
  }

  /** The string elements of an array (others skipped); empty for null. */
  static Set<String> strings(JsonArray a) {
    Set<String> out = new LinkedHashSet<>();
    if (a != null) {
      for (Object v : a) {
        if (v instanceof String s) {
          out.add(s);
        }
      }
    }
    return out;
  }

  /**
   * A GeoJSON feature's point as {@code [x, y]} (longitude, latitude for WGS84), or null when
   * {@code geometry.coordinates} does not hold two numbers.
   */
  static double[] geoJsonPoint(JsonObject feature) {
    JsonArray c = array(object(feature, "geometry"), "coordinates");
    return pair(number(c, 0), number(c, 1));
  }

  /** {@code [lon, lat]} from an object's {@code lng} and {@code lat} members, or null when either is missing. */
  static double[] lngLat(JsonObject o) {
    return pair(number(o, "lng"), number(o, "lat"));
  }

  /** {@code [x, y]} when both are present, else null. */
  static double[] pair(Double x, Double y) {
    return x == null || y == null ? null : new double[] {x, y};
  }

  /** Whether the point is a valid WGS84 longitude/latitude. */
  static boolean isWgs84(double lon, double lat) {
    return lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;
  }

  /** Whether {@code value} is one of {@code set}; false for null (immutable sets reject null lookups). */
  static boolean in(Set<String> set, String value) {
    return value != null && set.contains(value);
  }

  /** {@code v} clamped into [0, 1]. */
  static double clamp01(double v) {
    return Math.max(0, Math.min(1, v));
  }

  /**
   * Maps {@code v} from [inLow, inHigh] linearly onto [outLow, outHigh], clamping values outside
   * the input range to its ends: the bounded functions docs/providers.md documents.
   */
  static double scale(double v, double inLow, double inHigh, double outLow, double outHigh) {
    double t = clamp01((v - inLow) / (inHigh - inLow));
    return outLow + t * (outHigh - outLow);
  }
}
