package dev.georesolver.compat;

import dev.georesolver.bus.FieldProblem;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Nominatim's {@code /search} and {@code /reverse} parameters translated to the public request.
 * Pure and thread-safe.
 *
 * <p>Honoured: {@code q}, or structured {@code street}, {@code city}, {@code county},
 * {@code state}, {@code postalcode}, {@code country} ({@code amenity} turns the parts into one
 * free-text query, since the request has no component for it); {@code format} (search default
 * jsonv2, reverse default xml, as in Nominatim); {@code limit} (checked and clamped to [1, 50] as
 * Nominatim does; the chain answers with one place); {@code addressdetails} (search default 0,
 * reverse default 1; any value but {@code 0} is true); {@code viewbox} with {@code bounded=1} as
 * the area the answer must lie in; {@code countrycodes} with one code, added to the query as that
 * country; {@code exclude_place_ids} (a place whose id is listed is not returned, so following an
 * XML answer's {@code more_url} ends in an empty result, as "no more places" should);
 * {@code accept-language} (parameter, else the header; a list yields its first tag, {@code *}
 * none); {@code lat}, {@code lon}; {@code zoom} (checked, 0–18). Ignored: a viewbox without
 * {@code bounded} (a preference the ladder cannot express), several country codes, the
 * {@code polygon_*} options (the answer is a point), and every other parameter (clients send their
 * own, such as {@code osmServer} or {@code email}). georesolver's own {@code intent} and
 * {@code budget_ms} pass through.
 *
 * <p>Errors read as Nominatim's: "Parameter 'lat' missing.", "Parameter 'zoom' must be a number.".
 * An empty query is an empty result, as in Nominatim, not an error.
 */
public final class NominatimRequests {

  /** The most places Nominatim returns for one search. */
  public static final int MAX_LIMIT = 50;
  /** Nominatim's default {@code limit}. */
  public static final int DEFAULT_LIMIT = 10;

  /** A host name, IPv4 address or bracketed IPv6 address as a Host header may carry it. */
  private static final Pattern HOST = Pattern.compile("[A-Za-z0-9](?:[A-Za-z0-9.-]{0,251}[A-Za-z0-9])?|\\[[0-9A-Fa-f:.]{2,45}\\]");
  /** A place id: what {@link NominatimShapes} issues, up to 18 digits. */
  private static final Pattern PLACE_ID = Pattern.compile("\\d{1,18}");

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
   * How to render the answer. Compared by value: it is part of the key of a replay's cached
   * rendering, so it holds only what the body depends on.
   *
   * @param format the output format
   * @param addressDetails whether places carry an {@code address} object ({@code addressparts} in
   *     reverse XML)
   * @param limit the places asked for, in [1, {@value #MAX_LIMIT}]
   * @param query the question as text: the {@code display_name} of a place whose rung gave no
   *     label, and geocodejson's {@code query}
   * @param excluded the place ids of {@code exclude_place_ids} (search): a place with one of them is
   *     not returned; never null, unmodifiable
   * @param xml what an XML root element repeats of the request; {@link XmlContext#NONE} for the
   *     JSON formats
   */
  public record Options(NominatimFormat format, boolean addressDetails, int limit, String query, List<Long> excluded,
                        XmlContext xml) {

    public Options {
      excluded = List.copyOf(excluded);
    }

    /** Options without exclusions, the XML root repeating {@code query} (tests, benchmarks). */
    public Options(NominatimFormat format, boolean addressDetails, int limit, String query) {
      this(format, addressDetails, limit, query, List.of(), new XmlContext(query, "", ""));
    }
  }

  /**
   * The request as an XML root element repeats it, in Nominatim's words.
   *
   * @param querystring the {@code querystring} attribute: search's question as text, reverse's
   *     {@code lat=…&lon=…&format=xml[&zoom=…]}
   * @param moreUrl the start of search's {@code more_url}: the same search's URL without
   *     {@code exclude_place_ids} and {@code format}, which the rendering adds; empty for none
   * @param viewbox search's {@code viewbox} attribute ({@code minLon,minLat,maxLon,maxLat}), or empty
   */
  public record XmlContext(String querystring, String moreUrl, String viewbox) {
    /** Nothing repeated (the JSON formats). */
    public static final XmlContext NONE = new XmlContext("", "", "");
  }

  /** {@code /search}, with {@code more_url} relative to the server's root. */
  public static Translation<Options> search(Params p, String acceptLanguageHeader) {
    return search(p, acceptLanguageHeader, "");
  }

  /**
   * {@code /search}.
   *
   * @param baseUrl what {@code more_url} starts with ({@code https://geo.example}, see
   *     {@link #baseUrl}); empty for a URL relative to the server's root
   */
  public static Translation<Options> search(Params p, String acceptLanguageHeader, String baseUrl) {
    Options fallback = new Options(NominatimFormat.JSONV2, false, DEFAULT_LIMIT, "", List.of(), XmlContext.NONE);
    NominatimFormat format = NominatimFormat.JSONV2;
    if (p.get("format") != null) {
      format = NominatimFormat.fromWire(p.get("format")).orElse(null);
      if (format == null) {
        return Translation.answer(Direction.FORWARD, formatError(), fallback);
      }
    }
    Options failed = new Options(format, false, DEFAULT_LIMIT, "", List.of(), XmlContext.NONE);
    int limit = DEFAULT_LIMIT;
    if (p.get("limit") != null) {
      Integer l = Dialects.integer(p.get("limit"));
      if (l == null) {
        return Translation.answer(Direction.FORWARD, notANumber("limit"), failed);
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
    List<Long> excluded = placeIds(p.get("exclude_place_ids"));
    String viewbox = p.get("viewbox") != null ? p.get("viewbox") : p.get("viewboxlbrt");
    String bbox = viewbox == null ? null : box(viewbox);
    boolean bounded = bool(p.get("bounded"), false);
    XmlContext xml = format != NominatimFormat.XML ? XmlContext.NONE
        : new XmlContext(q != null ? q.strip() : String.join(", ", parts.values()),
            moreUrl(baseUrl, q, parts, details, limit, p.get("countrycodes"), bbox, bounded), bbox == null ? "" : bbox);
    Options base = new Options(format, details, limit, "", excluded, xml);
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
    if (viewbox != null) {
      if (bbox == null) {
        return Translation.answer(Direction.FORWARD, new Outcome.Invalid("viewbox",
            "Parameter 'viewbox' must be four numbers x1,y1,x2,y2 (longitude, latitude of two corners)."), base);
      }
      if (bounded) {
        fields.put("bbox", bbox);
      }
    }
    language(p, acceptLanguageHeader, fields);
    extensions(p, fields);
    return Translation.ask(Direction.FORWARD, fields, new Options(format, details, limit, query, excluded, xml));
  }

  /** {@code /reverse}. Without {@code format} the answer is XML, Nominatim's default for reverse. */
  public static Translation<Options> reverse(Params p, String acceptLanguageHeader) {
    Options fallback = new Options(NominatimFormat.JSONV2, true, 1, "", List.of(), XmlContext.NONE);
    NominatimFormat format = NominatimFormat.XML;
    if (p.get("format") != null) {
      format = NominatimFormat.fromWire(p.get("format")).orElse(null);
      if (format == null) {
        return Translation.answer(Direction.REVERSE, formatError(), fallback);
      }
    }
    Options base = new Options(format, bool(p.get("addressdetails"), true), 1, "", List.of(), XmlContext.NONE);
    for (String k : List.of("lat", "lon")) {
      if (p.get(k) == null || p.get(k).isBlank()) {
        return Translation.answer(Direction.REVERSE, new Outcome.Invalid(k, "Parameter '" + k + "' missing."), base);
      }
      if (Dialects.number(p.get(k)) == null) {
        return Translation.answer(Direction.REVERSE, notANumber(k), base);
      }
    }
    Integer zoom = p.get("zoom") == null ? null : Dialects.integer(p.get("zoom"));
    if (p.get("zoom") != null && zoom == null) {
      return Translation.answer(Direction.REVERSE, notANumber("zoom"), base);
    }
    JsonObject fields = new JsonObject().put("lat", p.get("lat").strip()).put("lon", p.get("lon").strip());
    language(p, acceptLanguageHeader, fields);
    extensions(p, fields);
    XmlContext xml = format != NominatimFormat.XML ? XmlContext.NONE
        : new XmlContext("lat=" + Dialects.number(p.get("lat")) + "&lon=" + Dialects.number(p.get("lon")) + "&format=xml"
            + (zoom == null ? "" : "&zoom=" + zoom), "", "");
    return Translation.ask(Direction.REVERSE, fields, new Options(format, base.addressDetails(), 1,
        p.get("lat").strip() + ", " + p.get("lon").strip(), List.of(), xml));
  }

  /**
   * What {@code more_url} starts with for a request that reached {@code scheme://authority}: the
   * origin when both are well-formed (http or https, a host name or address, an optional port),
   * else empty (a URL relative to the server's root). The authority is the client's own Host
   * header, so nothing else is accepted into the body.
   */
  public static String baseUrl(String scheme, String host, int port) {
    if (scheme == null || host == null || !(scheme.equals("http") || scheme.equals("https")) || !HOST.matcher(host).matches()
        || port == 0 || port > 65_535) {
      return "";
    }
    return scheme + "://" + host + (port < 0 ? "" : ":" + port);
  }

  /** The same search's URL, as Nominatim's {@code more_url} has it, without the exclusions and the format. */
  private static String moreUrl(String baseUrl, String q, Map<String, String> parts, boolean details, int limit,
      String countrycodes, String bbox, boolean bounded) {
    StringBuilder u = new StringBuilder(baseUrl).append("/search?");
    if (q != null) {
      param(u, "q", q.strip());
    }
    parts.forEach((k, v) -> param(u, k, v));
    if (details) {
      param(u, "addressdetails", "1");
    }
    if (limit != DEFAULT_LIMIT) {
      param(u, "limit", Integer.toString(limit));
    }
    String codes = countryCodes(countrycodes);
    if (!codes.isEmpty()) {
      param(u, "countrycodes", codes);
    }
    if (bbox != null) {
      param(u, "viewbox", bbox);
    }
    if (bounded) {
      param(u, "bounded", "1");
    }
    if (u.charAt(u.length() - 1) == '&') {
      u.setLength(u.length() - 1);
    }
    return u.toString();
  }

  private static void param(StringBuilder u, String name, String value) {
    u.append(name).append('=').append(URLEncoder.encode(value, StandardCharsets.UTF_8)).append('&');
  }

  /**
   * The place ids of {@code exclude_place_ids}, in order, without repeats: entries that are not a
   * place id (Nominatim's newer OSM references such as {@code N123}) are skipped, since no place
   * this endpoint returns has one.
   */
  static List<Long> placeIds(String v) {
    if (v == null) {
      return List.of();
    }
    Set<Long> ids = new LinkedHashSet<>();
    for (String s : v.split(",")) {
      String t = s.strip();
      if (PLACE_ID.matcher(t).matches()) {
        ids.add(Long.parseLong(t));
      }
    }
    return List.copyOf(ids);
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

  /** Every country code of {@code countrycodes}, lower case, comma separated (empty for none). */
  static String countryCodes(String countrycodes) {
    if (countrycodes == null) {
      return "";
    }
    List<String> codes = new ArrayList<>();
    for (String c : countrycodes.split(",")) {
      String t = c.strip();
      if (Dialects.isCountryCode(t)) {
        codes.add(t.toLowerCase(Locale.ROOT));
      }
    }
    return String.join(",", codes);
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
