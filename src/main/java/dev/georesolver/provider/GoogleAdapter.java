package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Precision;
import dev.georesolver.geo.ReverseQuery;
import static dev.georesolver.provider.Requests.COUNTRY;
import static dev.georesolver.provider.Requests.POSTCODE;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The Google Geocoding API ({@code adapter: google}); credential default: query parameter
 * {@code key}.
 *
 * <p>The endpoint is the whole geocode URL (for example
 * {@code https://maps.googleapis.com/maps/api/geocode/json}); nothing is appended. Forward:
 * {@code ?address=…}, plus {@code components=postal_code:…|country:…} (restricting filters) when the
 * caller gave those components; a bbox becomes {@code bounds=minLat,minLon|maxLat,maxLon}, which
 * Google treats as a <em>bias</em>, not a filter (the tier's bbox check still applies); the
 * language goes in {@code language}. Reverse: {@code ?latlng=lat,lon}.
 *
 * <p>Google answers HTTP 200 for nearly everything; the body's {@code status} decides: {@code OK},
 * {@code ZERO_RESULTS} (no match), {@code OVER_QUERY_LIMIT} and {@code OVER_DAILY_LIMIT} (quota),
 * {@code REQUEST_DENIED} (credential), {@code INVALID_REQUEST} (rejected), {@code UNKNOWN_ERROR}
 * (transient). The plain-text "Unable to authenticate the request" page of a bad client signature
 * is a credential failure too.
 *
 * <p>Confidence comes from {@code geometry.location_type} ({@link #confidence}); a
 * {@code partial_match} multiplies it by {@value #PARTIAL_MATCH_FACTOR}. Strict validation requires
 * {@code geometry.location}, {@code geometry.location_type} and {@code formatted_address}.
 *
 * <p>Immutable and thread-safe.
 */
public final class GoogleAdapter extends JsonProviderAdapter {

  /** Confidence of a {@code ROOFTOP} result: a precise point on the matched address. */
  public static final double ROOFTOP = 1.0;
  /** Confidence of a {@code RANGE_INTERPOLATED} result: interpolated between two precise points. */
  public static final double RANGE_INTERPOLATED = 0.8;
  /** Confidence of a {@code GEOMETRIC_CENTER} result: the centre of a line or polygon. */
  public static final double GEOMETRIC_CENTER = 0.6;
  /** Confidence of an {@code APPROXIMATE} result, and of one whose location_type is missing. */
  public static final double APPROXIMATE = 0.4;
  /** Factor applied when Google flags {@code partial_match}: it matched only part of the query. */
  public static final double PARTIAL_MATCH_FACTOR = 0.5;

  private static final Set<String> LOCALITY_TYPES = Set.of(
      "locality", "sublocality", "neighborhood", "postal_town", "administrative_area_level_3",
      "administrative_area_level_4", "administrative_area_level_5", "colloquial_area");
  private static final Set<String> ROOFTOP_TYPES = Set.of(
      "street_address", "premise", "subpremise", "establishment", "point_of_interest");


  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    OutboundRequest.Builder b = OutboundRequest.get(endpoint, "").param("address", q.text());
    b.param("components", componentFilter(q.components()));
    if (q.bbox() != null) {
      b.param("bounds", Requests.num(q.bbox().minLat()) + "," + Requests.num(q.bbox().minLon())
          + "|" + Requests.num(q.bbox().maxLat()) + "," + Requests.num(q.bbox().maxLon()));
    }
    return b.param("language", Requests.language(q.language())).build();
  }

  private static String componentFilter(Map<String, String> c) {
    List<String> filters = new ArrayList<>();
    if (c.get(POSTCODE) != null) {
      filters.add("postal_code:" + c.get(POSTCODE));
    }
    if (c.get(COUNTRY) != null) {
      filters.add("country:" + c.get(COUNTRY));
    }
    return filters.isEmpty() ? null : String.join("|", filters);
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, "")
        .param("latlng", Requests.num(q.lat()) + "," + Requests.num(q.lon()))
        .param("language", Requests.language(q.language()))
        .build();
  }

  /** The confidence for a {@code location_type} and {@code partial_match} flag. */
  public static double confidence(String locationType, boolean partialMatch) {
    double base = switch (locationType == null ? "" : locationType) {
      case "ROOFTOP" -> ROOFTOP;
      case "RANGE_INTERPOLATED" -> RANGE_INTERPOLATED;
      case "GEOMETRIC_CENTER" -> GEOMETRIC_CENTER;
      default -> APPROXIMATE;
    };
    return partialMatch ? base * PARTIAL_MATCH_FACTOR : base;
  }

  @Override
  protected ProviderAnswer.Failed classify(ProviderResponse r, Object body) {
    if (body == null && Parsing.text(r.body()).startsWith("Unable to authenticate the request")) {
      return new ProviderAnswer.Failed(FailureClass.CREDENTIAL, "request signature or client id rejected", null);
    }
    return super.classify(r, body);
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    JsonObject o = Parsing.object(body);
    String status = Parsing.upper(o, "status");
    if (status == null) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: status is missing");
    }
    String detail = Parsing.string(o, "error_message") == null ? status : status + ": " + Parsing.string(o, "error_message");
    return switch (status) {
      case "OK" -> results(Parsing.array(o, "results"), mode);
      case "ZERO_RESULTS" -> ProviderAnswer.noMatch(status);
      case "OVER_QUERY_LIMIT", "OVER_DAILY_LIMIT" -> HttpStatusClassifier.quota(r, detail);
      case "REQUEST_DENIED" -> ProviderAnswer.failed(FailureClass.CREDENTIAL, detail);
      case "INVALID_REQUEST" -> ProviderAnswer.failed(FailureClass.REJECTED, detail);
      case "UNKNOWN_ERROR" -> ProviderAnswer.failed(FailureClass.TRANSIENT, detail);
      default -> ProviderAnswer.failed(FailureClass.UNCLASSIFIED, detail);
    };
  }

  private static ProviderAnswer results(JsonArray results, SchemaMode mode) {
    if (results == null) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: results is not an array");
    }
    return new Hits(mode).each(results, GoogleAdapter::result);
  }

  private static void result(JsonObject res, Hits hits) {
    JsonObject geometry = Parsing.object(res, "geometry");
    JsonObject location = Parsing.object(geometry, "location");
    double[] lonLat = Parsing.lngLat(location);
    if (lonLat == null) {
      hits.violation("result without geometry.location");
      return;
    }
    String locationType = Parsing.upper(geometry, "location_type");
    String label = Parsing.string(res, "formatted_address");
    if (hits.missingRequired(locationType, "geometry.location_type") || hits.missingRequired(label, "formatted_address")) {
      return;
    }
    double confidence = confidence(locationType, Parsing.flag(res, "partial_match"));
    JsonArray types = Parsing.array(res, "types");
    hits.addWgs84(RawHit.of(lonLat[0], lonLat[1], Parsing.WGS84, confidence, label, precision(locationType, types))
        .withAddress(address(Parsing.array(res, "address_components"), Parsing.firstString(res, "types"))));
  }

  /**
   * The address from {@code address_components} (finest first, as Google lists them):
   * {@code street_number}, {@code route}; {@code neighborhood}, else the first {@code sublocality},
   * else a finer {@code locality} when there are two; the last {@code locality}, else
   * {@code postal_town}; {@code administrative_area_level_2} and {@code _1}; {@code postal_code}
   * (not a {@code postal_code_prefix}); {@code country} with its {@code short_name} as the code. The
   * {@code long_name} everywhere else. {@code placeType} is the result's first {@code types}.
   */
  static Address address(JsonArray components, String placeType) {
    Address.Builder b = Address.builder();
    String neighborhood = null;
    String sublocality = null;
    String firstLocality = null;
    String lastLocality = null;
    String postalTown = null;
    for (int i = 0; components != null && i < components.size(); i++) {
      JsonObject c = Parsing.object(components, i);
      String name = Parsing.string(c, "long_name");
      if (name == null) {
        continue;
      }
      Set<String> t = Parsing.strings(Parsing.array(c, "types"));
      if (t.contains("street_number")) {
        b.fill(Component.HOUSE_NUMBER, name);
      } else if (t.contains("route")) {
        b.fill(Component.ROAD, name);
      } else if (t.contains("neighborhood")) {
        neighborhood = neighborhood == null ? name : neighborhood;
      } else if (t.contains("sublocality") || t.stream().anyMatch(x -> x.startsWith("sublocality_"))) {
        sublocality = sublocality == null ? name : sublocality;
      } else if (t.contains("locality")) {
        firstLocality = firstLocality == null ? name : firstLocality;
        lastLocality = name;
      } else if (t.contains("postal_town")) {
        postalTown = postalTown == null ? name : postalTown;
      } else if (t.contains("administrative_area_level_2")) {
        b.fill(Component.COUNTY, name);
      } else if (t.contains("administrative_area_level_1")) {
        b.fill(Component.REGION, name);
      } else if (t.contains("postal_code") && !t.contains("postal_code_prefix")) {
        b.fill(Component.POSTCODE, name);
      } else if (t.contains("country")) {
        b.fill(Component.COUNTRY, name).fill(Component.COUNTRY_CODE, Parsing.string(c, "short_name"));
      }
    }
    String finerLocality = firstLocality != null && !firstLocality.equals(lastLocality) ? firstLocality : null;
    return b.fill(Component.NEIGHBOURHOOD, neighborhood)
        .fill(Component.NEIGHBOURHOOD, sublocality)
        .fill(Component.NEIGHBOURHOOD, finerLocality)
        .fill(Component.LOCALITY, lastLocality)
        .fill(Component.LOCALITY, postalTown)
        .fill(Component.PLACE_TYPE, placeType)
        .build();
  }

  /** The precision from {@code location_type}, else from the result's {@code types}. */
  static String precision(String locationType, JsonArray types) {
    if ("ROOFTOP".equals(locationType)) {
      return Precision.ROOFTOP;
    }
    if ("RANGE_INTERPOLATED".equals(locationType)) {
      return Precision.INTERPOLATED;
    }
    Set<String> t = Parsing.strings(types);
    if (t.contains("route") || t.contains("intersection")) {
      return Precision.STREET;
    }
    if (t.contains("postal_code")) {
      return Precision.POSTCODE;
    }
    if (t.stream().anyMatch(ROOFTOP_TYPES::contains)) {
      return Precision.ROOFTOP;
    }
    if (t.stream().anyMatch(x -> LOCALITY_TYPES.contains(x) || x.startsWith("sublocality"))) {
      return Precision.LOCALITY;
    }
    if (t.contains("administrative_area_level_1") || t.contains("administrative_area_level_2")) {
      return Precision.REGION;
    }
    return t.contains("country") ? Precision.COUNTRY : null;
  }
}
