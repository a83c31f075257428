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
 * Pelias, self-hosted or hosted (geocode.earth) ({@code adapter: pelias}); credential default: query
 * parameter {@code api_key} (self-hosted instances take none).
 *
 * <p>Forward: {@code GET {endpoint}/v1/search?text=…}, or
 * {@code GET {endpoint}/v1/search/structured?address=…&locality=…&region=…&postalcode=…&country=…}
 * when every component has a Pelias parameter; a bbox becomes {@code boundary.rect.min_lon},
 * {@code min_lat}, {@code max_lon}, {@code max_lat} (a hard filter); the language goes in
 * {@code lang}. Reverse: {@code GET {endpoint}/v1/reverse?point.lat=…&point.lon=…}.
 *
 * <p>The body is a GeoJSON FeatureCollection, coordinates {@code [lon, lat]}.
 * {@code properties.confidence} is already a [0, 1] match score and is used as is (clamped).
 * {@code properties.distance} (kilometres, reverse only) becomes {@link RawHit#distanceM()}. Strict
 * validation requires the point, {@code properties.confidence} and {@code properties.label}.
 *
 * <p>Immutable and thread-safe.
 */
public final class PeliasAdapter extends JsonProviderAdapter {

  /** Confidence assumed under relaxed validation when a feature carries none. */
  static final double DEFAULT_CONFIDENCE = 0.5;

  private static final Set<String> STRUCTURED = Set.of(HOUSE_NUMBER, STREET, LOCALITY, REGION, POSTCODE, COUNTRY);
  private static final Set<String> LOCALITY_LAYERS = Set.of("neighbourhood", "macrohood", "borough", "locality", "localadmin");
  private static final Set<String> REGION_LAYERS = Set.of("county", "macrocounty", "region", "macroregion", "dependency");


  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    OutboundRequest.Builder b;
    if (Requests.structuredFits(q, STRUCTURED)) {
      Map<String, String> c = q.components();
      b = OutboundRequest.get(endpoint, "/v1/search/structured")
          .param("address", Requests.streetLine(c))
          .param("locality", c.get(LOCALITY))
          .param("region", c.get(REGION))
          .param("postalcode", c.get(POSTCODE))
          .param("country", c.get(COUNTRY));
    } else {
      b = OutboundRequest.get(endpoint, "/v1/search").param("text", q.text());
    }
    if (q.bbox() != null) {
      b.param("boundary.rect.min_lon", Requests.num(q.bbox().minLon()))
          .param("boundary.rect.min_lat", Requests.num(q.bbox().minLat()))
          .param("boundary.rect.max_lon", Requests.num(q.bbox().maxLon()))
          .param("boundary.rect.max_lat", Requests.num(q.bbox().maxLat()));
    }
    return b.param("lang", Requests.language(q.language())).build();
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, "/v1/reverse")
        .param("point.lat", Requests.num(q.lat()))
        .param("point.lon", Requests.num(q.lon()))
        .param("lang", Requests.language(q.language()))
        .build();
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    JsonArray features = Parsing.features(body);
    if (features == null) {
      return ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: no features array");
    }
    JsonArray errors = Parsing.array(Parsing.object(Parsing.object(body), "geocoding"), "errors");
    if (features.isEmpty() && errors != null && !errors.isEmpty()) {
      return ProviderAnswer.failed(FailureClass.REJECTED, String.valueOf(errors.getValue(0)));
    }
    return new Hits(mode).pointFeatures(features, PeliasAdapter::feature);
  }

  private static void feature(JsonObject p, double lon, double lat, Hits hits) {
    Double confidence = Parsing.number(p, "confidence");
    String label = Parsing.string(p, "label");
    if (hits.missingRequired(confidence, "properties.confidence") || hits.missingRequired(label, "properties.label")) {
      return;
    }
    RawHit hit = RawHit.of(lon, lat, Parsing.WGS84,
        confidence == null ? DEFAULT_CONFIDENCE : Parsing.clamp01(confidence), label, precision(p))
        .withAddress(address(p));
    Double km = Parsing.number(p, "distance");
    hits.addWgs84(km == null ? hit : hit.withDistance(km * 1000));
  }

  /**
   * The address from a feature's properties, which hold its whole hierarchy (the feature's own
   * layer included): {@code housenumber}, {@code street}; {@code neighbourhood}, else
   * {@code macrohood}, else {@code borough}; {@code locality}, else {@code localadmin};
   * {@code county}, else {@code macrocounty}; {@code region}, else {@code macroregion};
   * {@code postalcode}; {@code country}; {@code country_code}, else the alpha-3 {@code country_a}.
   * The place type is the {@code layer}.
   */
  static Address address(JsonObject p) {
    Address.Builder b = Address.builder();
    AddressFields.fill(b, Component.HOUSE_NUMBER, p, "housenumber");
    AddressFields.fill(b, Component.ROAD, p, "street");
    AddressFields.fill(b, Component.NEIGHBOURHOOD, p, "neighbourhood", "macrohood", "borough");
    AddressFields.fill(b, Component.LOCALITY, p, "locality", "localadmin");
    AddressFields.fill(b, Component.COUNTY, p, "county", "macrocounty");
    AddressFields.fill(b, Component.REGION, p, "region", "macroregion");
    AddressFields.fill(b, Component.POSTCODE, p, "postalcode");
    AddressFields.fill(b, Component.COUNTRY, p, "country");
    AddressFields.fill(b, Component.COUNTRY_CODE, p, "country_code", "country_a");
    AddressFields.fill(b, Component.PLACE_TYPE, p, "layer");
    return b.build();
  }

  /** The precision of a feature from its {@code layer} and {@code match_type}. */
  static String precision(JsonObject p) {
    String layer = Parsing.string(p, "layer");
    if ("interpolated".equals(Parsing.string(p, "match_type"))) {
      return Precision.INTERPOLATED;
    }
    if ("address".equals(layer) || "venue".equals(layer)) {
      return Precision.ROOFTOP;
    }
    if ("street".equals(layer)) {
      return Precision.STREET;
    }
    if ("postalcode".equals(layer)) {
      return Precision.POSTCODE;
    }
    if (Parsing.in(LOCALITY_LAYERS, layer)) {
      return Precision.LOCALITY;
    }
    if (Parsing.in(REGION_LAYERS, layer)) {
      return Precision.REGION;
    }
    return "country".equals(layer) ? Precision.COUNTRY : null;
  }
}
