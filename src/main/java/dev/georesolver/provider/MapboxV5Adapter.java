package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Precision;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Mapbox Geocoding v5 ({@code adapter: mapbox_v5}); credential default: query parameter
 * {@code access_token}.
 *
 * <p>Forward: {@code GET {endpoint}/geocoding/v5/mapbox.places/{query}.json} with the free text
 * URL-encoded into the path (v5 has no structured input); a bbox becomes
 * {@code bbox=minLon,minLat,maxLon,maxLat} (a hard filter); the language goes in
 * {@code language}. Reverse: {@code GET {endpoint}/geocoding/v5/mapbox.places/{lon},{lat}.json}.
 *
 * <p>The body is a GeoJSON FeatureCollection whose features carry {@code center = [lon, lat]} and
 * {@code relevance} (0–1, how much of the query the feature matched), used as the confidence.
 * Errors arrive as {@code {"message": …}} and are classified as in {@link MapboxAdapter}. Strict
 * validation requires the point, {@code relevance} and {@code place_name}.
 *
 * <p>Immutable and thread-safe.
 */
public final class MapboxV5Adapter extends JsonProviderAdapter {

  /** Confidence assumed under relaxed validation when a feature carries no relevance. */
  static final double DEFAULT_CONFIDENCE = 0.5;

  private static final String PLACES = "/geocoding/v5/mapbox.places/";


  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    return OutboundRequest.get(endpoint, PLACES + OutboundRequest.enc(q.text()) + ".json")
        .param("bbox", Requests.lonLatBox(q.bbox()))
        .param("language", Requests.language(q.language()))
        .build();
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, PLACES + Requests.num(q.lon()) + "," + Requests.num(q.lat()) + ".json")
        .param("language", Requests.language(q.language()))
        .build();
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    return MapboxAdapter.readFeatures(body, mode, r, MapboxV5Adapter::feature);
  }

  private static void feature(JsonObject f, Hits hits) {
    JsonArray center = Parsing.array(f, "center");
    double[] lonLat = center != null ? Parsing.pair(Parsing.number(center, 0), Parsing.number(center, 1))
        : f == null ? null : Parsing.geoJsonPoint(f);
    if (lonLat == null) {
      hits.violation("feature without center or point geometry");
      return;
    }
    Double relevance = Parsing.number(f, "relevance");
    String label = Parsing.string(f, "place_name");
    if (hits.missingRequired(relevance, "relevance") || hits.missingRequired(label, "place_name")) {
      return;
    }
    double confidence = relevance == null ? DEFAULT_CONFIDENCE : Parsing.clamp01(relevance);
    hits.addWgs84(RawHit.of(lonLat[0], lonLat[1], Parsing.WGS84, confidence, label, precision(f)).withAddress(address(f)));
  }

  /**
   * The address from the feature and its {@code context}, whose entries name their level by the
   * prefix of their {@code id} ({@code postcode.…}, {@code place.…}): {@code neighborhood}, else
   * {@code locality}; {@code place}; {@code district}; {@code region}; {@code postcode};
   * {@code country}, whose {@code short_code} is the country code (a region's is ISO 3166-2 and is
   * not used). The feature itself is not in its context: an address gives its {@code address}
   * (the house number) and {@code text} (the street); a place, region, country and so on give
   * their {@code text} to their own level, a country its {@code properties.short_code}. The place
   * type is the first {@code place_type}.
   */
  static Address address(JsonObject f) {
    Address.Builder b = Address.builder();
    String type = Parsing.firstString(f, "place_type");
    if ("address".equals(type)) {
      b.fill(Component.HOUSE_NUMBER, Parsing.string(f, "address")).fill(Component.ROAD, Parsing.string(f, "text"));
    }
    Component own = MapboxAdapter.ownLevel(type);
    if (own != null) {
      b.fill(own, Parsing.string(f, "text"));
    }
    if ("country".equals(type)) {
      b.fill(Component.COUNTRY_CODE, Parsing.string(Parsing.object(f, "properties"), "short_code"));
    }
    JsonArray context = Parsing.array(f, "context");
    String locality = null;
    for (int i = 0; context != null && i < context.size(); i++) {
      JsonObject entry = Parsing.object(context, i);
      String id = Parsing.string(entry, "id");
      int dot = id == null ? -1 : id.indexOf('.');
      String level = dot < 0 ? null : id.substring(0, dot);
      String text = Parsing.string(entry, "text");
      if ("locality".equals(level)) {
        locality = locality == null ? text : locality;
        continue;
      }
      Component c = MapboxAdapter.ownLevel(level);
      if (c != null) {
        b.fill(c, text);
      }
      if ("country".equals(level)) {
        b.fill(Component.COUNTRY_CODE, Parsing.string(entry, "short_code"));
      }
    }
    return b.fill(Component.NEIGHBOURHOOD, locality).fill(Component.PLACE_TYPE, type).build();
  }

  /** The precision from the first {@code place_type}; interpolated addresses say so in their geometry. */
  static String precision(JsonObject f) {
    String type = Parsing.firstString(f, "place_type");
    if ("address".equals(type) && Parsing.flag(Parsing.object(f, "geometry"), "interpolated")) {
      return Precision.INTERPOLATED;
    }
    return MapboxAdapter.byFeatureType(type);
  }
}
