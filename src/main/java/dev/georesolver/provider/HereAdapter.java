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

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * HERE Geocoding &amp; Search v7 ({@code adapter: here}); credential default: query parameter
 * {@code apiKey}.
 *
 * <p>Forward: {@code GET {endpoint}/v1/geocode?q=…}, or {@code qq=houseNumber=…;street=…;city=…;
 * state=…;postalCode=…;country=…} (the qualified query) when every component has a HERE field; a
 * bbox becomes {@code in=bbox:west,south,east,north} (a hard filter); the language goes in
 * {@code lang}. Reverse: {@code GET {endpoint}/v1/revgeocode?at=lat,lon}. HERE serves the two on
 * different hosts ({@code geocode.search.hereapi.com}, {@code revgeocode.search.hereapi.com}), so a
 * tier used for reverse lookups points its endpoint at the reverse host.
 *
 * <p>{@code scoring.queryScore} (0–1, how much of the query the result matched) is the confidence.
 * Reverse items carry no score: they get {@link #UNSCORED_CONFIDENCE} and their {@code distance}
 * (metres). Strict validation requires {@code position}, {@code title} and, for forward lookups,
 * {@code scoring.queryScore}.
 *
 * <p>Immutable and thread-safe.
 */
public final class HereAdapter extends JsonProviderAdapter {

  /** Confidence of an item without {@code scoring.queryScore} (reverse, or relaxed forward). */
  public static final double UNSCORED_CONFIDENCE = 0.5;

  private static final Set<String> STRUCTURED = Set.of(HOUSE_NUMBER, STREET, LOCALITY, REGION, POSTCODE, COUNTRY);


  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    OutboundRequest.Builder b = OutboundRequest.get(endpoint, "/v1/geocode");
    if (Requests.structuredFits(q, STRUCTURED)) {
      b.param("qq", qualifiedQuery(q.components()));
    } else {
      b.param("q", q.text());
    }
    if (q.bbox() != null) {
      b.param("in", "bbox:" + Requests.lonLatBox(q.bbox()));
    }
    return b.param("lang", Requests.language(q.language())).build();
  }

  private static String qualifiedQuery(Map<String, String> c) {
    Map<String, String> fields = new LinkedHashMap<>();
    fields.put("houseNumber", c.get(HOUSE_NUMBER));
    fields.put("street", c.get(STREET));
    fields.put("city", c.get(LOCALITY));
    fields.put("state", c.get(REGION));
    fields.put("postalCode", c.get(POSTCODE));
    fields.put("country", c.get(COUNTRY));
    List<String> parts = new ArrayList<>();
    fields.forEach((field, value) -> {
      if (value != null) {
        // ';' separates the sub-fields of qq, so it cannot appear inside a value.
        parts.add(field + "=" + value.replace(';', ' '));
      }
    });
    return String.join(";", parts);
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, "/v1/revgeocode")
        .param("at", Requests.num(q.lat()) + "," + Requests.num(q.lon()))
        .param("lang", Requests.language(q.language()))
        .build();
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    JsonArray items = Parsing.array(Parsing.object(body), "items");
    if (items == null) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: no items array");
    }
    Hits hits = new Hits(mode);
    for (int i = 0; i < items.size(); i++) {
      item(Parsing.object(items, i), direction, hits);
    }
    return hits.answer();
  }

  private static void item(JsonObject item, Direction direction, Hits hits) {
    JsonObject position = Parsing.object(item, "position");
    double[] lonLat = Parsing.lngLat(position);
    if (lonLat == null) {
      hits.violation("item without position");
      return;
    }
    String title = Parsing.string(item, "title");
    Double score = Parsing.number(Parsing.object(item, "scoring"), "queryScore");
    if (hits.missingRequired(title, "title")
        || (direction == Direction.FORWARD && hits.missingRequired(score, "scoring.queryScore"))) {
      return;
    }
    RawHit hit = RawHit.of(lonLat[0], lonLat[1], Parsing.WGS84,
        score == null ? UNSCORED_CONFIDENCE : Parsing.clamp01(score), title, precision(item))
        .withAddress(address(item));
    Double metres = Parsing.number(item, "distance");
    hits.addWgs84(metres == null ? hit : hit.withDistance(metres));
  }

  /**
   * The address from an item's {@code address}: {@code houseNumber}, {@code street};
   * {@code subdistrict}, else {@code district}; {@code city}, {@code county}; {@code state}, else
   * {@code stateCode}; {@code postalCode}, {@code countryName}, and the alpha-3
   * {@code countryCode}. The place type is the item's {@code resultType}.
   */
  static Address address(JsonObject item) {
    JsonObject a = Parsing.object(item, "address");
    Address.Builder b = Address.builder();
    AddressFields.fill(b, Component.HOUSE_NUMBER, a, "houseNumber");
    AddressFields.fill(b, Component.ROAD, a, "street");
    AddressFields.fill(b, Component.NEIGHBOURHOOD, a, "subdistrict", "district");
    AddressFields.fill(b, Component.LOCALITY, a, "city");
    AddressFields.fill(b, Component.COUNTY, a, "county");
    AddressFields.fill(b, Component.REGION, a, "state", "stateCode");
    AddressFields.fill(b, Component.POSTCODE, a, "postalCode");
    AddressFields.fill(b, Component.COUNTRY, a, "countryName");
    AddressFields.fill(b, Component.COUNTRY_CODE, a, "countryCode");
    AddressFields.fill(b, Component.PLACE_TYPE, item, "resultType");
    return b.build();
  }

  /** The precision from {@code resultType} and its qualifiers. */
  static String precision(JsonObject item) {
    String type = Parsing.string(item, "resultType");
    return switch (type == null ? "" : type) {
      case "houseNumber" -> "interpolated".equals(Parsing.string(item, "houseNumberType"))
          ? Precision.INTERPOLATED : Precision.ROOFTOP;
      case "place" -> Precision.ROOFTOP;
      case "street", "intersection", "addressBlock" -> Precision.STREET;
      case "postalCodePoint" -> Precision.POSTCODE;
      case "locality" -> "postalCode".equals(Parsing.string(item, "localityType")) ? Precision.POSTCODE : Precision.LOCALITY;
      case "administrativeArea" -> "country".equals(Parsing.string(item, "administrativeAreaType"))
          ? Precision.COUNTRY : Precision.REGION;
      default -> null;
    };
  }
}
