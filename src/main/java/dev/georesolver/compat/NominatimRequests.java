package dev.georesolver.compat;

import dev.georesolver.bus.FieldProblem;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Nominatim's {@code /search} and {@code /reverse} parameters translated to the public request.
 * Pure and thread-safe.
 *
 * <p>Honoured: {@code q}, or structured {@code street}, {@code city}, {@code county},
 * {@code state}, {@code postalcode}, {@code country} ({@code amenity} turns the parts into one
 * free-text query, since the request has no component for it); {@code format}; {@code limit}
 * (checked and clamped to [1, 50] as Nominatim does; the chain answers with one place);
 * {@code addressdetails} (search default 0, reverse default 1; any value but {@code 0} is true);
 * {@code viewbox} with {@code bounded=1} as the area the answer must lie in; {@code countrycodes}
 * with one code, added to the query as that country; {@code accept-language} (parameter, else the
 * header; a list yields its first tag, {@code *} none); {@code lat}, {@code lon}; {@code zoom}
 * (checked, 0–18). Ignored: a viewbox without {@code bounded} (a preference the ladder cannot
 * express), several country codes, and every other parameter (clients send their own, such as
 * {@code osmServer} or {@code email}). georesolver's own {@code intent} and {@code budget_ms} pass
 * through.
 *
 * <p>Errors read as Nominatim's: "Parameter 'lat' missing.", "Parameter 'zoom' must be a number.".
 * An empty query is an empty result, as in Nominatim, not an error.
 */
public final class NominatimRequests {

  /** The most places Nominatim returns for one search. */
  public static final int MAX_LIMIT = 50;
  /** Nominatim's default {@code limit}. */
  public static final int DEFAULT_LIMIT = 10;

  private static final List<String> STRUCTURED = List.of("amenity", "street", "city", "county", "state", "postalcode", "country");

  /** Request fields as Nominatim's parameters, for error messages. */
  private static final Map<String, String> PARAMS = Map.of(
      "address.house_number", "street",
      "address.street", "street",
      "address.locality", "city",
      "address.region", "state",
      "address.postcode", "postalcode",
      "address.country", "country",
      "address", "street",
      "bbox", "viewbox",
      "language", "accept-language");

  private NominatimRequests() {}

  /**
   * How to render the answer.
   *
   * @param format the output format
   * @param addressDetails whether places carry an {@code address} object
   * @param limit the places asked for, in [1, {@value #MAX_LIMIT}]
   * @param query the question as text: the {@code display_name} of a place whose rung gave no
   *     label, and geocodejson's {@code query}
   */
  public record Options(NominatimFormat format, boolean addressDetails, int limit, String query) {}

  /** {@code /search}. */
  public static Translation<Options> search(Params p, String acceptLanguageHeader) {
    Options fallback = new Options(NominatimFormat.JSONV2, false, DEFAULT_LIMIT, "");
    NominatimFormat format = NominatimFormat.JSONV2;
    if (p.get("format") != null) {
      format = NominatimFormat.fromWire(p.get("format")).orElse(null);
      if (format == null) {
        return Translation.answer(Direction.FORWARD, formatError(), fallback);
      }
    }
    int limit = DEFAULT_LIMIT;
    if (p.get("limit") != null) {
      Integer l = Dialects.integer(p.get("limit"));
      if (l == null) {
        return Translation.answer(Direction.FORWARD, notANumber("limit"), fallback);
      }
      limit = Math.max(1, Math.min(MAX_LIMIT, l));
    }
    boolean details = bool(p.get("addressdetails"), false);
    String q = p.get("q");
    Map<String, String> parts = new LinkedHashMap<>();
    for (String k : STRUCTURED) {
      String v = Dialects.nonBlank(p.get(k));
      if (v != null) {
        parts.put(k, v);
      }
    }
    Options base = new Options(format, details, limit, "");
    if (q != null && !parts.isEmpty()) {
      return Translation.answer(Direction.FORWARD, new Outcome.Invalid("q", "Structured query parameters "
          + "(amenity, street, city, county, state, postalcode, country) cannot be used together with 'q' parameter."), base);
    }
    String country = singleCountry(p.get("countrycodes"));
    JsonObject fields = new JsonObject();
    String query;
    if (q != null) {
      query = q.strip();
      if (query.isEmpty()) {
        return Translation.answer(Direction.FORWARD, new Outcome.NotFound(null), base);
      }
      fields.put("q", country == null ? query : query + ", " + Dialects.countryText(country));
    } else if (parts.isEmpty()) {
      return Translation.answer(Direction.FORWARD, new Outcome.NotFound(null), base);
    } else {
      if (country != null && !parts.containsKey("country")) {
        parts.put("country", country);
      }
      query = String.join(", ", parts.values());
      if (parts.containsKey("amenity")) {
        parts.computeIfPresent("country", (k, v) -> Dialects.countryText(v));
        fields.put("q", String.join(", ", parts.values()));
      } else {
        fields.put("address", components(parts));
      }
    }
    String viewbox = p.get("viewbox") != null ? p.get("viewbox") : p.get("viewboxlbrt");
    if (viewbox != null) {
      String bbox = box(viewbox);
      if (bbox == null) {
        return Translation.answer(Direction.FORWARD, new Outcome.Invalid("viewbox",
            "Parameter 'viewbox' must be four numbers x1,y1,x2,y2 (longitude, latitude of two corners)."), base);
      }
      if (bool(p.get("bounded"), false)) {
        fields.put("bbox", bbox);
      }
    }
    language(p, acceptLanguageHeader, fields);
    extensions(p, fields);
    return Translation.ask(Direction.FORWARD, fields, new Options(format, details, limit, query));
  }

  /** {@code /reverse}. Without {@code format} the answer is jsonv2 (Nominatim's default is XML, not served). */
  public static Translation<Options> reverse(Params p, String acceptLanguageHeader) {
    Options fallback = new Options(NominatimFormat.JSONV2, true, 1, "");
    NominatimFormat format = NominatimFormat.JSONV2;
    if (p.get("format") != null) {
      format = NominatimFormat.fromWire(p.get("format")).orElse(null);
      if (format == null) {
        return Translation.answer(Direction.REVERSE, formatError(), fallback);
      }
    }
    Options base = new Options(format, bool(p.get("addressdetails"), true), 1, "");
    for (String k : List.of("lat", "lon")) {
      if (p.get(k) == null || p.get(k).isBlank()) {
        return Translation.answer(Direction.REVERSE, new Outcome.Invalid(k, "Parameter '" + k + "' missing."), base);
      }
      if (Dialects.number(p.get(k)) == null) {
        return Translation.answer(Direction.REVERSE, notANumber(k), base);
      }
    }
    if (p.get("zoom") != null && Dialects.integer(p.get("zoom")) == null) {
      return Translation.answer(Direction.REVERSE, notANumber("zoom"), base);
    }
    JsonObject fields = new JsonObject().put("lat", p.get("lat").strip()).put("lon", p.get("lon").strip());
    language(p, acceptLanguageHeader, fields);
    extensions(p, fields);
    return Translation.ask(Direction.REVERSE, fields, new Options(format, base.addressDetails(), 1,
        p.get("lat").strip() + ", " + p.get("lon").strip()));
  }

  /** The outcome for the problems the request validator found, named with Nominatim's parameters. */
  public static Outcome invalid(List<FieldProblem> problems) {
    FieldProblem first = problems.get(0);
    String param = Dialects.param(first, PARAMS);
    return new Outcome.Invalid(param, "Parameter '" + param + "' " + first.message() + ".");
  }

  private static Outcome.Invalid formatError() {
    return new Outcome.Invalid("format", "Parameter 'format' must be one of: " + NominatimFormat.list() + ".");
  }

  private static Outcome.Invalid notANumber(String param) {
    return new Outcome.Invalid(param, "Parameter '" + param + "' must be a number.");
  }

  /** Nominatim's booleans: absent gives the default, {@code 0} is false, anything else true. */
  static boolean bool(String v, boolean dflt) {
    return v == null ? dflt : !v.strip().equals("0");
  }

  /** The one country of {@code countrycodes}, lower case, or null when none or several. */
  static String singleCountry(String countrycodes) {
    if (countrycodes == null) {
      return null;
    }
    List<String> codes = new ArrayList<>();
    for (String c : countrycodes.split(",")) {
      String t = c.strip();
      if (Dialects.isCountryCode(t)) {
        codes.add(t.toLowerCase(Locale.ROOT));
      }
    }
    return codes.size() == 1 ? codes.get(0) : null;
  }

  private static JsonObject components(Map<String, String> parts) {
    JsonObject a = new JsonObject();
    if (parts.containsKey("street")) {
      a.put("street", parts.get("street"));
    }
    if (parts.containsKey("city")) {
      a.put("locality", parts.get("city"));
    }
    List<String> region = new ArrayList<>();
    if (parts.containsKey("county")) {
      region.add(parts.get("county"));
    }
    if (parts.containsKey("state")) {
      region.add(parts.get("state"));
    }
    if (!region.isEmpty()) {
      a.put("region", String.join(", ", region));
    }
    if (parts.containsKey("postalcode")) {
      a.put("postcode", parts.get("postalcode"));
    }
    if (parts.containsKey("country")) {
      a.put("country", parts.get("country"));
    }
    return a;
  }

  /** A viewbox (any two opposite corners, lon,lat) as {@code minLon,minLat,maxLon,maxLat}, or null. */
  static String box(String viewbox) {
    String[] v = viewbox.split(",", -1);
    if (v.length != 4) {
      return null;
    }
    double[] d = new double[4];
    for (int i = 0; i < 4; i++) {
      Double n = Dialects.number(v[i]);
      if (n == null) {
        return null;
      }
      d[i] = n;
    }
    return num(Math.min(d[0], d[2])) + "," + num(Math.min(d[1], d[3])) + "," + num(Math.max(d[0], d[2])) + ","
        + num(Math.max(d[1], d[3]));
  }

  private static String num(double d) {
    return java.math.BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
  }

  private static void language(Params p, String header, JsonObject fields) {
    String lang = Dialects.firstLanguage(p.get("accept-language") != null ? p.get("accept-language") : header);
    if (lang != null) {
      fields.put("language", lang);
    }
  }

  static void extensions(Params p, JsonObject fields) {
    for (String k : Dialects.EXTENSIONS) {
      if (p.get(k) != null) {
        fields.put(k, p.get(k));
      }
    }
  }
}
