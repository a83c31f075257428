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
 * Mapbox Geocoding v6 ({@code adapter: mapbox}); credential default: query parameter
 * {@code access_token}.
 *
 * <p>Forward: {@code GET {endpoint}/search/geocode/v6/forward?q=…}, or structured input
 * ({@code address_number}, {@code street}, {@code place}, {@code region}, {@code postcode},
 * {@code country}) when every component has a Mapbox field; a bbox becomes
 * {@code bbox=minLon,minLat,maxLon,maxLat} (a hard filter); the language goes in
 * {@code language}. Reverse: {@code GET {endpoint}/search/geocode/v6/reverse?longitude=…&latitude=…}.
 *
 * <p>The body is a GeoJSON FeatureCollection. {@code properties.match_code.confidence}
 * ({@code exact}, {@code high}, {@code medium}, {@code low}; address features only) maps through
 * {@link #confidence(String)}; features without it (places, reverse answers) get
 * {@link #UNMATCHED_CONFIDENCE}. An error arrives as {@code {"message": …}}; with a 2xx status the
 * message text is classified ({@link #classifyMessage}). Strict validation requires the point,
 * {@code properties.feature_type} and {@code properties.name}.
 *
 * <p>Immutable and thread-safe.
 */
public final class MapboxAdapter extends JsonProviderAdapter {

  /** Confidence for {@code match_code.confidence = exact}: every component matched. */
  public static final double EXACT = 1.0;
  /** Confidence for {@code high}. */
  public static final double HIGH = 0.85;
  /** Confidence for {@code medium}. */
  public static final double MEDIUM = 0.6;
  /** Confidence for {@code low}: some components did not match (wrong town, say). */
  public static final double LOW = 0.3;
  /** Confidence of a feature without a match code: non-address features and reverse answers. */
  public static final double UNMATCHED_CONFIDENCE = 0.5;

  private static final String FORWARD = "/search/geocode/v6/forward";
  private static final String REVERSE = "/search/geocode/v6/reverse";
  private static final Set<String> STRUCTURED = Set.of(HOUSE_NUMBER, STREET, LOCALITY, REGION, POSTCODE, COUNTRY);


  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    OutboundRequest.Builder b = OutboundRequest.get(endpoint, FORWARD);
    if (Requests.structuredFits(q, STRUCTURED)) {
      Map<String, String> c = q.components();
      b.param("address_number", c.get(HOUSE_NUMBER))
          .param("street", c.get(STREET))
          .param("place", c.get(LOCALITY))
          .param("region", c.get(REGION))
          .param("postcode", c.get(POSTCODE))
          .param("country", c.get(COUNTRY));
    } else {
      b.param("q", q.text());
    }
    return b.param("bbox", Requests.lonLatBox(q.bbox()))
        .param("language", Requests.language(q.language()))
        .build();
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, REVERSE)
        .param("longitude", Requests.num(q.lon()))
        .param("latitude", Requests.num(q.lat()))
        .param("language", Requests.language(q.language()))
        .build();
  }

  /** The confidence for a {@code match_code.confidence} value; null or unknown gives {@link #UNMATCHED_CONFIDENCE}. */
  public static double confidence(String matchConfidence) {
    return switch (matchConfidence == null ? "" : matchConfidence) {
      case "exact" -> EXACT;
      case "high" -> HIGH;
      case "medium" -> MEDIUM;
      case "low" -> LOW;
      default -> UNMATCHED_CONFIDENCE;
    };
  }

  /**
   * Classifies a Mapbox error message that arrived with a 2xx status (both API versions answer
   * errors as {@code {"message": …}}): token problems are credential failures, rate limiting is
   * quota, anything else is a rejected request.
   */
  static ProviderAnswer.Failed classifyMessage(String message, ProviderResponse r) {
    if (message.contains("Not Authorized") || message.contains("Invalid Token") || message.contains("Forbidden")) {
      return new ProviderAnswer.Failed(FailureClass.CREDENTIAL, message, null);
    }
    if (message.contains("Rate limit")) {
      return HttpStatusClassifier.quota(r, message);
    }
    return new ProviderAnswer.Failed(FailureClass.REJECTED, message, null);
  }

  /**
   * Reads a body of either API version: its features, each handed to {@code feature}, or — with no
   * features array — the error message it carries ({@link #classifyMessage}) or a malformed body.
   */
  static ProviderAnswer readFeatures(Object body, SchemaMode mode, ProviderResponse r, Hits.Candidate feature) {
    JsonArray features = Parsing.features(body);
    if (features != null) {
      return new Hits(mode).each(features, feature);
    }
    String message = Parsing.string(Parsing.object(body), "message");
    return message != null
        ? classifyMessage(message, r)
        : new ProviderAnswer.Failed(FailureClass.DEGRADABLE, "schema: no features array", null);
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    return readFeatures(body, mode, r, MapboxAdapter::feature);
  }

  private static void feature(JsonObject f, Hits hits) {
    JsonObject p = Parsing.object(f, "properties");
    double[] lonLat = point(f, p);
    if (lonLat == null) {
      hits.violation("feature without coordinates");
      return;
    }
    String type = Parsing.string(p, "feature_type");
    String name = Parsing.string(p, "name");
    if (hits.missingRequired(type, "properties.feature_type") || hits.missingRequired(name, "properties.name")) {
      return;
    }
    String label = Parsing.string(p, "full_address") != null ? Parsing.string(p, "full_address") : name;
    double confidence = confidence(Parsing.string(Parsing.object(p, "match_code"), "confidence"));
    hits.addWgs84(RawHit.of(lonLat[0], lonLat[1], Parsing.WGS84, confidence, label, precision(p)).withAddress(address(p)));
  }

  /**
   * The address from {@code properties.context}, one object per level:
   * {@code address.address_number}; {@code street.name}, else {@code address.street_name};
   * {@code neighborhood}, else {@code locality} (Mapbox's locality is an area inside a place);
   * {@code place}; {@code district}; {@code region} (its {@code region_code} when it has no name);
   * {@code postcode}; {@code country} with its {@code country_code} (else
   * {@code country_code_alpha_3}). A feature's own level ({@code feature_type}) gets its
   * {@code name} when the context does not hold it. The place type is the {@code feature_type}.
   */
  static Address address(JsonObject p) {
    JsonObject ctx = Parsing.object(p, "context");
    Address.Builder b = Address.builder();
    AddressFields.fill(b, Component.HOUSE_NUMBER, Parsing.object(ctx, "address"), "address_number");
    AddressFields.fill(b, Component.ROAD, Parsing.object(ctx, "street"), "name");
    AddressFields.fill(b, Component.ROAD, Parsing.object(ctx, "address"), "street_name");
    AddressFields.fill(b, Component.NEIGHBOURHOOD, Parsing.object(ctx, "neighborhood"), "name");
    AddressFields.fill(b, Component.NEIGHBOURHOOD, Parsing.object(ctx, "locality"), "name");
    AddressFields.fill(b, Component.LOCALITY, Parsing.object(ctx, "place"), "name");
    AddressFields.fill(b, Component.COUNTY, Parsing.object(ctx, "district"), "name");
    AddressFields.fill(b, Component.REGION, Parsing.object(ctx, "region"), "name", "region_code");
    AddressFields.fill(b, Component.POSTCODE, Parsing.object(ctx, "postcode"), "name");
    JsonObject country = Parsing.object(ctx, "country");
    AddressFields.fill(b, Component.COUNTRY, country, "name");
    AddressFields.fill(b, Component.COUNTRY_CODE, country, "country_code", "country_code_alpha_3");
    String type = Parsing.string(p, "feature_type");
    Component own = ownLevel(type);
    if (own != null) {
      b.fill(own, Parsing.string(p, "name"));
    }
    return b.fill(Component.PLACE_TYPE, type).build();
  }

  /**
   * The component a Mapbox feature or place type names (shared by v5's {@code place_type}): the
   * feature's own name goes there, as Mapbox does not repeat a feature in its context. Null for
   * addresses and points of interest, whose name is not one component.
   */
  static Component ownLevel(String type) {
    return switch (type == null ? "" : type) {
      case "street" -> Component.ROAD;
      case "neighborhood", "locality" -> Component.NEIGHBOURHOOD;
      case "place" -> Component.LOCALITY;
      case "district" -> Component.COUNTY;
      case "region" -> Component.REGION;
      case "postcode" -> Component.POSTCODE;
      case "country" -> Component.COUNTRY;
      default -> null;
    };
  }

  private static double[] point(JsonObject f, JsonObject p) {
    double[] fromGeometry = f == null ? null : Parsing.geoJsonPoint(f);
    if (fromGeometry != null) {
      return fromGeometry;
    }
    JsonObject c = Parsing.object(p, "coordinates");
    return Parsing.pair(Parsing.number(c, "longitude"), Parsing.number(c, "latitude"));
  }

  /** The precision from {@code coordinates.accuracy}, else from {@code feature_type}. */
  static String precision(JsonObject p) {
    String accuracy = Parsing.string(Parsing.object(p, "coordinates"), "accuracy");
    if ("rooftop".equals(accuracy) || "parcel".equals(accuracy) || "point".equals(accuracy)) {
      return Precision.ROOFTOP;
    }
    if ("interpolated".equals(accuracy)) {
      return Precision.INTERPOLATED;
    }
    if ("street".equals(accuracy) || "intersection".equals(accuracy)) {
      return Precision.STREET;
    }
    return byFeatureType(Parsing.string(p, "feature_type"));
  }

  /** The precision of a Mapbox feature or place type (shared by v5's {@code place_type}). */
  static String byFeatureType(String type) {
    return switch (type == null ? "" : type) {
      case "address", "poi", "secondary_address" -> Precision.ROOFTOP;
      case "street", "block" -> Precision.STREET;
      case "postcode" -> Precision.POSTCODE;
      case "place", "locality", "neighborhood" -> Precision.LOCALITY;
      case "district", "region" -> Precision.REGION;
      case "country" -> Precision.COUNTRY;
      default -> null;
    };
  }
}
