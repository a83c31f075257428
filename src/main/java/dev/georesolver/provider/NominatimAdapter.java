package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Precision;
import dev.georesolver.geo.ReverseQuery;
import static dev.georesolver.provider.Requests.COUNTRY;
import static dev.georesolver.provider.Requests.HOUSE_NUMBER;
import static dev.georesolver.provider.Requests.LOCALITY;
import static dev.georesolver.provider.Requests.POSTCODE;
import static dev.georesolver.provider.Requests.REGION;
import static dev.georesolver.provider.Requests.STREET;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Set;

/**
 * Nominatim, the OpenStreetMap geocoder ({@code adapter: nominatim}); no credential.
 *
 * <p>Forward: {@code GET {endpoint}/search?format=jsonv2&addressdetails=1&q=…}, or the structured form
 * ({@code street}, {@code city}, {@code state}, {@code postalcode}, {@code country}) when every
 * component has a Nominatim parameter; a bbox becomes {@code viewbox=minLon,minLat,maxLon,maxLat}
 * with {@code bounded=1}; the language goes in {@code accept-language}. Reverse:
 * {@code GET {endpoint}/reverse?format=jsonv2&addressdetails=1&lat=…&lon=…}. The {@code address}
 * object that {@code addressdetails} asks for becomes the hit's {@link Address} ({@link #address}).
 *
 * <p>Reads the {@code jsonv2} and {@code json} bodies (an array for search, one object for
 * reverse), {@code geocodejson} and {@code geojson} (FeatureCollections), whichever arrives: the
 * format is detected from the body. {@code {"error":"Unable to geocode"}} is no match; the OSMF
 * "Bandwidth limit exceeded" block page and HTTP 509 are over quota.
 *
 * <p>{@code importance} ranks how prominent a place is (from Wikipedia links and the place's rank),
 * not how well it matches the query, and can exceed 1. It is mapped to a confidence in
 * [{@value #CONFIDENCE_FLOOR}, {@value #CONFIDENCE_CEILING}] by
 * {@link #confidence(Double)}: never certain, never dismissed. Strict validation requires
 * {@code lat}, {@code lon}, {@code display_name} and {@code importance} (for geocodejson: the
 * point and {@code geocoding.label}).
 *
 * <p>Immutable and thread-safe.
 */
public final class NominatimAdapter extends JsonProviderAdapter {

  /** Confidence of the least important place, and of any place whose body carries no importance. */
  public static final double CONFIDENCE_FLOOR = 0.3;
  /** Confidence of a place with importance 1 or more. */
  public static final double CONFIDENCE_CEILING = 0.7;

  private static final Set<String> STRUCTURED = Set.of(HOUSE_NUMBER, STREET, LOCALITY, REGION, POSTCODE, COUNTRY);
  private static final Set<String> LOCALITY_TYPES = Set.of(
      "city", "town", "village", "hamlet", "suburb", "neighbourhood", "quarter", "borough", "locality", "city_district");
  private static final Set<String> REGION_TYPES = Set.of("state", "county", "region", "province", "state_district");

  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    OutboundRequest.Builder b = OutboundRequest.get(endpoint, "/search").param("format", "jsonv2").param("addressdetails", 1);
    if (Requests.structuredFits(q, STRUCTURED)) {
      Map<String, String> c = q.components();
      b.param("street", Requests.streetLine(c))
          .param("city", c.get(LOCALITY))
          .param("state", c.get(REGION))
          .param("postalcode", c.get(POSTCODE))
          .param("country", c.get(COUNTRY));
    } else {
      b.param("q", q.text());
    }
    if (q.bbox() != null) {
      b.param("viewbox", Requests.lonLatBox(q.bbox())).param("bounded", 1);
    }
    return b.param("accept-language", Requests.language(q.language())).build();
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, "/reverse")
        .param("format", "jsonv2")
        .param("addressdetails", 1)
        .param("lat", Requests.num(q.lat()))
        .param("lon", Requests.num(q.lon()))
        .param("accept-language", Requests.language(q.language()))
        .build();
  }

  /**
   * Maps {@code importance} linearly from [0, 1] onto [{@value #CONFIDENCE_FLOOR},
   * {@value #CONFIDENCE_CEILING}], clamping values above 1; null maps to the floor.
   */
  public static double confidence(Double importance) {
    return importance == null ? CONFIDENCE_FLOOR : Parsing.scale(importance, 0, 1, CONFIDENCE_FLOOR, CONFIDENCE_CEILING);
  }

  @Override
  protected ProviderAnswer.Failed classify(ProviderResponse r, Object body) {
    if (r.status() == 509 || (body == null && Parsing.text(r.body()).contains("Bandwidth limit exceeded"))) {
      return HttpStatusClassifier.quota(r, "blocked by the usage policy: bandwidth limit exceeded");
    }
    return super.classify(r, body);
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    Hits hits = new Hits(mode);
    if (body instanceof JsonArray places) {
      return hits.each(places, NominatimAdapter::place);
    }
    JsonObject o = (JsonObject) body;
    if (o.containsKey("error")) {
      return error(o.getValue("error"), r);
    }
    if (o.containsKey("features")) {
      return features(Parsing.array(o, "features"), hits);
    }
    place(o, hits);
    return hits.answer();
  }

  private static ProviderAnswer error(Object error, ProviderResponse r) {
    Integer code = error instanceof JsonObject e ? Parsing.integer(e, "code") : null;
    if (code != null) {
      return HttpStatusClassifier.classifyCode(code, r, true);
    }
    String message = error instanceof String s ? s : String.valueOf(error);
    return message.contains("Unable to geocode")
        ? ProviderAnswer.noMatch(message)
        : ProviderAnswer.failed(FailureClass.REJECTED, message);
  }

  /** One json/jsonv2 place (a search array element, or a whole reverse body). */
  private static void place(JsonObject p, Hits hits) {
    double[] lonLat = Parsing.pair(Parsing.number(p, "lon"), Parsing.number(p, "lat"));
    if (lonLat == null) {
      hits.violation("place without lat/lon");
      return;
    }
    Double importance = Parsing.number(p, "importance");
    String label = Parsing.string(p, "display_name");
    if (hits.missingRequired(label, "display_name") || hits.missingRequired(importance, "importance")) {
      return;
    }
    String category = p.containsKey("category") ? Parsing.string(p, "category") : Parsing.string(p, "class");
    String type = Parsing.string(p, "type");
    String precision = precision(Parsing.integer(p, "place_rank"), category, type);
    hits.addWgs84(RawHit.of(lonLat[0], lonLat[1], Parsing.WGS84, confidence(importance), label, precision)
        .withAddress(address(Parsing.object(p, "address"), category, type)));
  }

  /**
   * The address from Nominatim's {@code address} (sent with {@code addressdetails=1}; the OSM keys
   * of {@link AddressFields#osm}); the place type is the OSM tag {@code category/type}.
   */
  static Address address(JsonObject address, String category, String type) {
    return AddressFields.osm(Address.builder(), address)
        .fill(Component.PLACE_TYPE, AddressFields.tag(category, type))
        .build();
  }

  /**
   * The address of a geocodejson feature's {@code geocoding} object (the GeocodeJSON names:
   * {@code housenumber}, {@code street}, {@code locality} and {@code district} finest first,
   * {@code city}, {@code county}, {@code state}, {@code postcode}, {@code country},
   * {@code country_code}); the place type is {@code osm_key/osm_value}, else {@code type}.
   */
  static Address geocodeJsonAddress(JsonObject g) {
    Address.Builder b = Address.builder();
    AddressFields.fill(b, Component.HOUSE_NUMBER, g, "housenumber");
    AddressFields.fill(b, Component.ROAD, g, "street");
    AddressFields.fill(b, Component.NEIGHBOURHOOD, g, "locality", "district");
    AddressFields.fill(b, Component.LOCALITY, g, "city");
    AddressFields.fill(b, Component.COUNTY, g, "county");
    AddressFields.fill(b, Component.REGION, g, "state");
    AddressFields.fill(b, Component.POSTCODE, g, "postcode");
    AddressFields.fill(b, Component.COUNTRY, g, "country");
    AddressFields.fill(b, Component.COUNTRY_CODE, g, "country_code");
    String tag = AddressFields.tag(Parsing.string(g, "osm_key"), Parsing.string(g, "osm_value"));
    return b.fill(Component.PLACE_TYPE, tag != null ? tag : Parsing.string(g, "type")).build();
  }

  /** A geocodejson or geojson FeatureCollection. */
  private static ProviderAnswer features(JsonArray features, Hits hits) {
    if (features == null) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: features is not an array");
    }
    return hits.pointFeatures(features, NominatimAdapter::feature);
  }

  private static void feature(JsonObject props, double lon, double lat, Hits hits) {
    JsonObject geocoding = Parsing.object(props, "geocoding");
    if (geocoding != null) {
      String label = Parsing.string(geocoding, "label");
      if (!hits.missingRequired(label, "properties.geocoding.label")) {
        String precision = precision(null, null, Parsing.string(geocoding, "type"));
        hits.addWgs84(RawHit.of(lon, lat, Parsing.WGS84, confidence(null), label, precision)
            .withAddress(geocodeJsonAddress(geocoding)));
      }
      return;
    }
    Double importance = Parsing.number(props, "importance");
    String label = Parsing.string(props, "display_name");
    if (hits.missingRequired(label, "properties.display_name") || hits.missingRequired(importance, "properties.importance")) {
      return;
    }
    String category = Parsing.string(props, "category");
    String type = Parsing.string(props, "type");
    String precision = precision(Parsing.integer(props, "place_rank"), category, type);
    hits.addWgs84(RawHit.of(lon, lat, Parsing.WGS84, confidence(importance), label, precision)
        .withAddress(address(Parsing.object(props, "address"), category, type)));
  }

  /**
   * The precision of a place: from its search rank when the body has one (jsonv2), else from its
   * OSM class and type.
   */
  static String precision(Integer placeRank, String category, String type) {
    if ("postcode".equals(type)) {
      return Precision.POSTCODE;
    }
    if (placeRank != null) {
      return byRank(placeRank);
    }
    if ("highway".equals(category)) {
      return Precision.STREET;
    }
    if ("building".equals(category) || "house".equals(type) || "building".equals(type)) {
      return Precision.ROOFTOP;
    }
    if (Parsing.in(LOCALITY_TYPES, type)) {
      return Precision.LOCALITY;
    }
    if (Parsing.in(REGION_TYPES, type)) {
      return Precision.REGION;
    }
    return "country".equals(type) ? Precision.COUNTRY : null;
  }

  private static String byRank(int rank) {
    if (rank >= 28) {
      return Precision.ROOFTOP;
    }
    if (rank >= 26) {
      return Precision.STREET;
    }
    if (rank >= 13) {
      return Precision.LOCALITY;
    }
    return rank >= 5 ? Precision.REGION : Precision.COUNTRY;
  }
}
