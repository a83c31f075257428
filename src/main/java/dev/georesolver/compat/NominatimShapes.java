package dev.georesolver.compat;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Direction;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Outcomes in Nominatim's own shapes. Pure and thread-safe.
 *
 * <ul>
 *   <li>json / jsonv2: {@code lat} and {@code lon} are decimal strings (7 decimals),
 *       {@code boundingbox} is {@code [minlat, maxlat, minlon, maxlon]} as strings,
 *       {@code display_name} is never empty (the rung's label, else the question, else the
 *       coordinates), {@code class} (json) or {@code category} (jsonv2), {@code type},
 *       {@code place_rank} and {@code addresstype} from the answer's precision
 *       ({@link PlaceKind}), {@code importance} the answer's confidence, {@code place_id} a stable
 *       number from the idempotency key, {@code licence} naming the tier that answered, and
 *       {@code address} ({@link #address(Answer)}; {@code {}} when the answer has no components)
 *       with {@code addressdetails}. No OSM id: the place need not be an OSM object.
 *   <li>geojson / geocodejson: FeatureCollections as Nominatim writes them; geocodejson's
 *       {@code geocoding} has the components as its own fields ({@code housenumber},
 *       {@code street}, {@code district}, {@code city}, {@code county}, {@code state},
 *       {@code postcode}, {@code country}, {@code country_code}) and, with
 *       {@code addressdetails}, {@code admin} ({@code level2} country, {@code level4} state,
 *       {@code level6} county).
 *   <li>xml: Nominatim's {@code searchresults} / {@code reversegeocode} documents
 *       ({@link NominatimXml}), {@code text/xml; charset=utf-8}.
 *   <li>No result: search {@code []} (an empty FeatureCollection, an empty {@code searchresults}),
 *       reverse {@code {"error":"Unable to geocode"}} ({@code <error>Unable to geocode</error>} in
 *       XML), all HTTP 200. A search whose place is in {@code exclude_place_ids} has no result.
 *   <li>Errors: {@code {"error":{"code":N,"message":"…"}}} (in XML
 *       {@code <error><code>N</code><message>…</message></error>}) with status N: 400 bad input,
 *       401 (with {@code WWW-Authenticate}) / 403 refused credentials, 429 (with
 *       {@code Retry-After}) rate limit, 503 rungs failed or misconfigured, 504 the router did not
 *       answer in time, 500 router error.
 * </ul>
 *
 * <p>The address of {@code addressdetails} comes from {@link #address(Answer)} in every format.
 */
public final class NominatimShapes {

  private static final Buffer EMPTY_ARRAY = Buffer.buffer("[]");
  private static final Buffer UNABLE = Buffer.buffer("{\"error\":\"Unable to geocode\"}");

  private NominatimShapes() {}

  /** The answer for {@code outcome} of a search ({@code FORWARD}) or reverse lookup, timed by the system clock. */
  public static Rendered render(Outcome outcome, Direction direction, NominatimRequests.Options o) {
    return render(outcome, direction, o, Clock.systemUTC());
  }

  /**
   * The answer for {@code outcome} of a search ({@code FORWARD}) or reverse lookup.
   *
   * @param clock the time an XML root states when the outcome carries no answer or its time is
   *     unknown (an answer states when it was resolved, so a stored answer renders the same every
   *     time)
   */
  public static Rendered render(Outcome outcome, Direction direction, NominatimRequests.Options o, Clock clock) {
    boolean reverse = direction == Direction.REVERSE;
    boolean xml = o.format() == NominatimFormat.XML;
    Outcome shown = present(outcome, direction, o);
    if (shown instanceof Outcome.Found f) {
      return xml ? NominatimXml.found(f.answer(), reverse, o, clock) : Rendered.json(200, found(f.answer(), reverse, o));
    }
    if (shown instanceof Outcome.NotFound n) {
      if (xml) {
        return NominatimXml.nothing(n.answer(), reverse, o, clock);
      }
      return Rendered.json(200, reverse ? UNABLE : nothing(o));
    }
    if (shown instanceof Outcome.Invalid i) {
      return error(400, i.message(), Map.of(), o.format());
    }
    if (shown instanceof Outcome.Denied d) {
      return error(d.status(), d.message(), d.status() == 401
          ? Map.of("WWW-Authenticate", "Bearer realm=\"georesolver\"") : Map.of(), o.format());
    }
    if (shown instanceof Outcome.RateLimited r) {
      return error(429, r.message(), Map.of("Retry-After", Long.toString(r.retryAfterS())), o.format());
    }
    if (shown instanceof Outcome.Unavailable u) {
      return error(u.status(), u.message(), Map.of(), o.format());
    }
    return error(500, ((Outcome.Failed) shown).message(), Map.of(), o.format());
  }

  /**
   * The outcome as the client is to see it: a search's place whose id is in
   * {@code exclude_place_ids} is no result (its refusal says so in the notice), every other
   * outcome as it is. The handler takes the headers from this outcome, so they agree with the body.
   */
  public static Outcome present(Outcome outcome, Direction direction, NominatimRequests.Options o) {
    if (direction == Direction.FORWARD && outcome instanceof Outcome.Found f && !o.excluded().isEmpty()
        && o.excluded().contains(placeId(f.answer()))) {
      Answer a = f.answer();
      return new Outcome.NotFound(new Answer(false, a.direction(), null, null, null, null, null, null, null, false,
          "The place found is excluded by exclude_place_ids; nothing else was found.", Answer.NOT_FOUND,
          a.idempotencyKey(), a.resolvedAtMs(), Address.EMPTY));
    }
    return outcome;
  }

  /** Nominatim's error JSON with its status. */
  public static Rendered error(int status, String message, Map<String, String> headers) {
    return error(status, message, headers, NominatimFormat.JSON);
  }

  /** Nominatim's error with its status: XML for {@code format=xml}, else JSON. */
  public static Rendered error(int status, String message, Map<String, String> headers, NominatimFormat format) {
    if (format == NominatimFormat.XML) {
      return NominatimXml.error(status, message, headers);
    }
    Buffer body = JsonWriting.json(g -> {
      g.writeStartObject();
      g.writeObjectFieldStart("error");
      g.writeNumberField("code", status);
      g.writeStringField("message", message);
      g.writeEndObject();
      g.writeEndObject();
    });
    return new Rendered(status, Rendered.JSON, body, headers);
  }

  /**
   * The place's address as Nominatim labels it, in Nominatim's order: {@code house_number},
   * {@code road}, {@code neighbourhood}, the locality as {@code city}, {@code town}, {@code village}
   * or {@code hamlet} by the provider's place type ({@code city} when it names none of them),
   * {@code county}, {@code state}, {@code postcode}, {@code country} and {@code country_code} (lower
   * case, as Nominatim writes it). What {@code address} holds in the JSON formats and the children
   * of a place ({@code addressparts} in reverse) in XML: the one place that maps the components,
   * for every format. Empty when the answer has no components.
   */
  static Map<String, String> address(Answer a) {
    Address ad = a.address();
    if (ad.isEmpty()) {
      return Map.of();
    }
    Map<String, String> m = new LinkedHashMap<>();
    put(m, "house_number", ad.get(Address.Component.HOUSE_NUMBER));
    put(m, "road", ad.get(Address.Component.ROAD));
    put(m, "neighbourhood", ad.get(Address.Component.NEIGHBOURHOOD));
    put(m, localityKey(ad.get(Address.Component.PLACE_TYPE)), ad.get(Address.Component.LOCALITY));
    put(m, "county", ad.get(Address.Component.COUNTY));
    put(m, "state", ad.get(Address.Component.REGION));
    put(m, "postcode", ad.get(Address.Component.POSTCODE));
    put(m, "country", ad.get(Address.Component.COUNTRY));
    String cc = ad.get(Address.Component.COUNTRY_CODE);
    put(m, "country_code", cc == null ? null : cc.toLowerCase(Locale.ROOT));
    return m;
  }

  /** Nominatim's name for the locality: the place type's last word when it is a settlement Nominatim names so. */
  static String localityKey(String placeType) {
    if (placeType != null) {
      String t = placeType.toLowerCase(Locale.ROOT);
      int cut = Math.max(t.lastIndexOf('/'), t.lastIndexOf(':'));
      t = t.substring(cut + 1);
      if (t.equals("town") || t.equals("village") || t.equals("hamlet")) {
        return t;
      }
    }
    return "city";
  }

  private static void put(Map<String, String> m, String key, String value) {
    if (value != null) {
      m.put(key, value);
    }
  }

  private static Buffer nothing(NominatimRequests.Options o) {
    return switch (o.format()) {
      case JSON, JSONV2 -> EMPTY_ARRAY;
      case GEOJSON, GEOCODEJSON -> collection(null, o);
      case XML -> throw new IllegalArgumentException("XML is written by NominatimXml");
    };
  }

  private static Buffer found(Answer a, boolean reverse, NominatimRequests.Options o) {
    return switch (o.format()) {
      case JSON, JSONV2 -> JsonWriting.json(g -> {
        if (!reverse) {
          g.writeStartArray();
        }
        place(g, a, o);
        if (!reverse) {
          g.writeEndArray();
        }
      });
      case GEOJSON, GEOCODEJSON -> collection(a, o);
      case XML -> throw new IllegalArgumentException("XML is written by NominatimXml");
    };
  }

  private static void place(JsonGenerator g, Answer a, NominatimRequests.Options o) throws IOException {
    PlaceKind k = PlaceKind.of(a.precision());
    g.writeStartObject();
    g.writeNumberField("place_id", placeId(a));
    g.writeStringField("licence", licence(a));
    g.writeStringField("lat", JsonWriting.fixed7(a.lat()));
    g.writeStringField("lon", JsonWriting.fixed7(a.lon()));
    describe(g, a, k, o, o.format() == NominatimFormat.JSON ? "class" : "category");
    double[] b = box(a, k);
    g.writeArrayFieldStart("boundingbox");
    g.writeString(JsonWriting.fixed7(b[0]));
    g.writeString(JsonWriting.fixed7(b[1]));
    g.writeString(JsonWriting.fixed7(b[2]));
    g.writeString(JsonWriting.fixed7(b[3]));
    g.writeEndArray();
    g.writeEndObject();
  }

  /** The fields json, jsonv2 and geojson places share: kind, rank, importance, names, address. */
  private static void describe(JsonGenerator g, Answer a, PlaceKind k, NominatimRequests.Options o, String classLabel)
      throws IOException {
    g.writeStringField(classLabel, k.nominatimClass());
    g.writeStringField("type", k.nominatimType());
    g.writeNumberField("place_rank", k.rank());
    g.writeNumberField("importance", importance(a));
    g.writeStringField("addresstype", k.addressType());
    g.writeStringField("name", name(a));
    g.writeStringField("display_name", displayName(a, o));
    if (o.addressDetails()) {
      g.writeObjectFieldStart("address");
      for (Map.Entry<String, String> part : address(a).entrySet()) {
        g.writeStringField(part.getKey(), part.getValue());
      }
      g.writeEndObject();
    }
  }

  /** The components as geocodejson names them in a feature's {@code geocoding}. */
  private static void geocodeJsonAddress(JsonGenerator g, Address ad) throws IOException {
    string(g, "housenumber", ad.get(Address.Component.HOUSE_NUMBER));
    string(g, "street", ad.get(Address.Component.ROAD));
    string(g, "district", ad.get(Address.Component.NEIGHBOURHOOD));
    string(g, "postcode", ad.get(Address.Component.POSTCODE));
    string(g, "city", ad.get(Address.Component.LOCALITY));
    string(g, "county", ad.get(Address.Component.COUNTY));
    string(g, "state", ad.get(Address.Component.REGION));
    string(g, "country", ad.get(Address.Component.COUNTRY));
    String cc = ad.get(Address.Component.COUNTRY_CODE);
    string(g, "country_code", cc == null ? null : cc.toLowerCase(Locale.ROOT));
  }

  private static void string(JsonGenerator g, String field, String value) throws IOException {
    if (value != null) {
      g.writeStringField(field, value);
    }
  }

  /** A FeatureCollection of zero or one feature. */
  private static Buffer collection(Answer a, NominatimRequests.Options o) {
    boolean geocodeJson = o.format() == NominatimFormat.GEOCODEJSON;
    return JsonWriting.json(g -> {
      g.writeStartObject();
      g.writeStringField("type", "FeatureCollection");
      if (geocodeJson) {
        g.writeObjectFieldStart("geocoding");
        g.writeStringField("version", "0.1.0");
        g.writeStringField("attribution", a == null ? licence(null) : licence(a));
        g.writeStringField("licence", "see attribution");
        if (!o.query().isEmpty()) {
          g.writeStringField("query", o.query());
        }
        g.writeEndObject();
      } else {
        g.writeStringField("licence", a == null ? licence(null) : licence(a));
      }
      g.writeArrayFieldStart("features");
      if (a != null) {
        feature(g, a, o, geocodeJson);
      }
      g.writeEndArray();
      g.writeEndObject();
    });
  }

  private static void feature(JsonGenerator g, Answer a, NominatimRequests.Options o, boolean geocodeJson) throws IOException {
    PlaceKind k = PlaceKind.of(a.precision());
    g.writeStartObject();
    g.writeStringField("type", "Feature");
    g.writeObjectFieldStart("properties");
    if (geocodeJson) {
      g.writeObjectFieldStart("geocoding");
      g.writeNumberField("place_id", placeId(a));
      g.writeStringField("osm_key", k.nominatimClass());
      g.writeStringField("osm_value", k.nominatimType());
      g.writeStringField("type", k.geocodeJsonType());
      g.writeStringField("label", displayName(a, o));
      String name = name(a);
      if (!name.isEmpty()) {
        g.writeStringField("name", name);
      }
      geocodeJsonAddress(g, a.address());
      if (o.addressDetails()) {
        g.writeObjectFieldStart("admin");
        string(g, "level2", a.address().get(Address.Component.COUNTRY));
        string(g, "level4", a.address().get(Address.Component.REGION));
        string(g, "level6", a.address().get(Address.Component.COUNTY));
        g.writeEndObject();
      }
      g.writeEndObject();
    } else {
      g.writeNumberField("place_id", placeId(a));
      describe(g, a, k, o, "category");
    }
    g.writeEndObject();
    if (!geocodeJson) {
      double[] b = box(a, k);
      g.writeArrayFieldStart("bbox");
      g.writeNumber(JsonWriting.round7(b[2]));
      g.writeNumber(JsonWriting.round7(b[0]));
      g.writeNumber(JsonWriting.round7(b[3]));
      g.writeNumber(JsonWriting.round7(b[1]));
      g.writeEndArray();
    }
    g.writeObjectFieldStart("geometry");
    g.writeStringField("type", "Point");
    g.writeArrayFieldStart("coordinates");
    g.writeNumber(a.lon());
    g.writeNumber(a.lat());
    g.writeEndArray();
    g.writeEndObject();
    g.writeEndObject();
  }

  /** {@code [minlat, maxlat, minlon, maxlon]} around the point, sized by its precision. */
  static double[] box(Answer a, PlaceKind k) {
    double h = k.halfExtentDeg();
    return new double[] {
        JsonWriting.clamp(a.lat() - h, -90, 90), JsonWriting.clamp(a.lat() + h, -90, 90),
        JsonWriting.clamp(a.lon() - h, -180, 180), JsonWriting.clamp(a.lon() + h, -180, 180)};
  }

  /**
   * A stable place number: the first 52 bits of the idempotency key (exact in a JavaScript number),
   * else of the point.
   */
  static long placeId(Answer a) {
    String key = a.idempotencyKey();
    if (key != null && key.length() >= 13) {
      try {
        return Long.parseLong(key.substring(0, 13), 16);
      } catch (NumberFormatException e) {
        // not hex: fall through to the point
      }
    }
    long h = Double.hashCode(a.lat()) * 31L + Double.hashCode(a.lon());
    return h & 0xF_FFFF_FFFF_FFFFL;
  }

  /** Confidence as importance (0 when unknown). */
  static double importance(Answer a) {
    return a.confidence() == null ? 0 : a.confidence();
  }

  /** The label's first part ("London" of "London, England, United Kingdom"), or empty. */
  static String name(Answer a) {
    if (a.label() == null) {
      return "";
    }
    int comma = a.label().indexOf(',');
    return (comma < 0 ? a.label() : a.label().substring(0, comma)).strip();
  }

  /** Never empty: the label, else the question, else the coordinates. */
  static String displayName(Answer a, NominatimRequests.Options o) {
    if (a.label() != null && !a.label().isBlank()) {
      return a.label();
    }
    if (o.query() != null && !o.query().isBlank()) {
      return o.query();
    }
    return JsonWriting.fixed7(a.lat()) + ", " + JsonWriting.fixed7(a.lon());
  }

  /** Attribution: the data is the answering provider's, under its terms. */
  static String licence(Answer a) {
    if (a == null || a.source() == null) {
      return "Resolved by georesolver; the answering provider's terms apply.";
    }
    String claim = a.claim() == null ? "" : " (" + a.claim().wire() + ")";
    return "Resolved by georesolver from " + a.source() + claim + "; the provider's terms apply.";
  }
}
