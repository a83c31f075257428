package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Precision;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * The OpenCage geocoding API ({@code adapter: opencage}); credential default: query parameter
 * {@code key}.
 *
 * <p>Forward: {@code GET {endpoint}/geocode/v1/json?q=…&no_annotations=1} (free text only); a bbox
 * becomes {@code bounds=minLon,minLat,maxLon,maxLat} (a restriction); the language goes in
 * {@code language}. Reverse: the same path with {@code q=lat,lon}.
 *
 * <p>{@code status.code} in the body mirrors the HTTP status and is read first: 400 rejected, 401
 * and 403 credential, 402 (payment required: quota spent) and 429 quota, 408 and 503 transient.
 *
 * <p>OpenCage's {@code confidence} (0–10) measures the size of the result's bounding box (10: under
 * 0.25 km across; 1: over 25 km; 0: unknown), not whether the result is the right place. It is
 * mapped by {@link #confidence(Double)} onto [{@value #CONFIDENCE_FLOOR},
 * {@value #CONFIDENCE_CEILING}], so a small but possibly wrong area never claims the certainty of a
 * real match score. Strict validation requires {@code geometry}, {@code confidence} and
 * {@code formatted}.
 *
 * <p>Immutable and thread-safe.
 */
public final class OpenCageAdapter extends JsonProviderAdapter {

  /** Confidence for OpenCage confidence 0 (area size unknown), and for a missing value. */
  public static final double CONFIDENCE_FLOOR = 0.2;
  /** Confidence for OpenCage confidence 10 (area under 0.25 km across). */
  public static final double CONFIDENCE_CEILING = 0.7;

  private static final String PATH = "/geocode/v1/json";
  private static final Set<String> ROOFTOP_TYPES = Set.of("building", "house", "attraction", "place_of_worship");
  private static final Set<String> LOCALITY_TYPES = Set.of(
      "city", "town", "village", "hamlet", "suburb", "neighbourhood", "city_district", "quarter", "municipality",
      "local_administrative_area");
  private static final Set<String> REGION_TYPES = Set.of("state", "county", "state_district", "region", "province");


  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    return OutboundRequest.get(endpoint, PATH)
        .param("q", q.text())
        .param("bounds", Requests.lonLatBox(q.bbox()))
        .param("language", Requests.language(q.language()))
        .param("no_annotations", 1)
        .build();
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, PATH)
        .param("q", Requests.num(q.lat()) + "," + Requests.num(q.lon()))
        .param("language", Requests.language(q.language()))
        .param("no_annotations", 1)
        .build();
  }

  /** Maps OpenCage's 0–10 confidence linearly onto [floor, ceiling]; null gives the floor. */
  public static double confidence(Double openCageConfidence) {
    return openCageConfidence == null
        ? CONFIDENCE_FLOOR
        : Parsing.scale(openCageConfidence, 0, 10, CONFIDENCE_FLOOR, CONFIDENCE_CEILING);
  }

  @Override
  protected ProviderAnswer.Failed classify(ProviderResponse r, Object body) {
    JsonObject status = Parsing.object(Parsing.object(body), "status");
    Integer code = Parsing.integer(status, "code");
    if (code != null && code != 200) {
      String message = Parsing.string(status, "message");
      return byCode(code, r, "status " + code + (message == null ? "" : ": " + message));
    }
    boolean ok = r.status() >= 200 && r.status() < 300;
    return ok ? null : byCode(r.status(), r, "HTTP " + r.status());
  }

  private static ProviderAnswer.Failed byCode(int code, ProviderResponse r, String detail) {
    return switch (code) {
      case 402, 429 -> HttpStatusClassifier.quota(r, detail);
      case 408 -> new ProviderAnswer.Failed(FailureClass.TRANSIENT, detail, null);
      case 410 -> new ProviderAnswer.Failed(FailureClass.REJECTED, detail, null);
      default -> {
        ProviderAnswer.Failed byStatus = HttpStatusClassifier.classifyCode(code, r, false);
        yield new ProviderAnswer.Failed(byStatus.failureClass(), detail, byStatus.retryAfterMs());
      }
    };
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    JsonObject o = Parsing.object(body);
    JsonArray results = Parsing.array(o, "results");
    if (results == null) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: no results array");
    }
    Hits hits = new Hits(mode);
    if (hits.missingRequired(Parsing.integer(Parsing.object(o, "status"), "code"), "status.code")) {
      return hits.answer();
    }
    return hits.each(results, OpenCageAdapter::result);
  }

  private static void result(JsonObject res, Hits hits) {
    JsonObject geometry = Parsing.object(res, "geometry");
    double[] lonLat = Parsing.lngLat(geometry);
    if (lonLat == null) {
      hits.violation("result without geometry");
      return;
    }
    Double openCageConfidence = Parsing.number(res, "confidence");
    String label = Parsing.string(res, "formatted");
    if (hits.missingRequired(openCageConfidence, "confidence") || hits.missingRequired(label, "formatted")) {
      return;
    }
    JsonObject components = Parsing.object(res, "components");
    hits.addWgs84(RawHit.of(lonLat[0], lonLat[1], Parsing.WGS84, confidence(openCageConfidence), label, precision(components))
        .withAddress(address(components)));
  }

  /**
   * The address from {@code components}, which use the OSM keys of {@link AddressFields#osm}
   * ({@code house_number}, {@code road}, {@code neighbourhood}/{@code suburb}/…,
   * {@code city}/{@code town}/{@code village}/…, {@code county}, {@code state}, {@code postcode},
   * {@code country}, {@code country_code}); the code also from {@code ISO_3166-1_alpha-2}. The
   * place type is {@code _type}.
   */
  static Address address(JsonObject components) {
    Address.Builder b = AddressFields.osm(Address.builder(), components);
    AddressFields.fill(b, Component.COUNTRY_CODE, components, "ISO_3166-1_alpha-2");
    AddressFields.fill(b, Component.PLACE_TYPE, components, "_type");
    return b.build();
  }

  /** The precision from {@code components._type}, else a house number's presence. */
  static String precision(JsonObject components) {
    String type = Parsing.string(components, "_type");
    if (Parsing.in(ROOFTOP_TYPES, type)) {
      return Precision.ROOFTOP;
    }
    if ("road".equals(type)) {
      return Precision.STREET;
    }
    if ("postcode".equals(type)) {
      return Precision.POSTCODE;
    }
    if (Parsing.in(LOCALITY_TYPES, type)) {
      return Precision.LOCALITY;
    }
    if (Parsing.in(REGION_TYPES, type)) {
      return Precision.REGION;
    }
    if ("country".equals(type)) {
      return Precision.COUNTRY;
    }
    return type == null && Parsing.string(components, "house_number") != null ? Precision.ROOFTOP : null;
  }
}
