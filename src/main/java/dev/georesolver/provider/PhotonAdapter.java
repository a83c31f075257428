package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.Precision;
import dev.georesolver.geo.ReverseQuery;
import dev.georesolver.geo.Bbox;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Photon, the OpenStreetMap search-as-you-type geocoder ({@code adapter: photon}); no credential.
 *
 * <p>Forward: {@code GET {endpoint}/api?q=…} (free text only); a bbox becomes
 * {@code bbox=minLon,minLat,maxLon,maxLat} (a hard filter); the language goes in {@code lang} as an
 * ISO 639-1 code. Reverse: {@code GET {endpoint}/reverse?lat=…&lon=…}.
 *
 * <p>The body is a GeoJSON FeatureCollection, coordinates {@code [lon, lat]}. Photon gives no match
 * score, so every hit carries the fixed {@link #CONFIDENCE}. Its {@code properties.extent} is ordered
 * {@code [minLon, maxLat, maxLon, minLat]}, unlike GeoJSON's bbox; {@link #extent} reads it. A body
 * {@code {"message": …}} without features is Photon's way of rejecting the request. Strict validation
 * requires the point and {@code properties.osm_key}/{@code osm_value}, and a well-formed extent when
 * one is present.
 *
 * <p>Immutable and thread-safe.
 */
public final class PhotonAdapter extends JsonProviderAdapter {

  /** The confidence of every Photon hit: the provider has no quality signal, so this is neutral. */
  public static final double CONFIDENCE = 0.5;

  private static final Set<String> LOCALITY_VALUES = Set.of(
      "city", "town", "village", "hamlet", "suburb", "neighbourhood", "quarter", "locality", "district", "borough");
  /** The {@code place=*} values of a settlement, as opposed to an area inside one. */
  private static final Set<String> SETTLEMENT_VALUES = Set.of("city", "town", "village", "hamlet");

  @Override
  public OutboundRequest forward(String endpoint, ForwardQuery q) {
    return OutboundRequest.get(endpoint, "/api")
        .param("q", q.text())
        .param("bbox", Requests.lonLatBox(q.bbox()))
        .param("lang", Requests.primaryLanguage(q.language()))
        .build();
  }

  @Override
  public OutboundRequest reverse(String endpoint, ReverseQuery q) {
    return OutboundRequest.get(endpoint, "/reverse")
        .param("lat", Requests.num(q.lat()))
        .param("lon", Requests.num(q.lon()))
        .param("lang", Requests.primaryLanguage(q.language()))
        .build();
  }

  @Override
  protected ProviderAnswer read(Direction direction, Object body, SchemaMode mode, ProviderResponse r) {
    JsonArray features = Parsing.features(body);
    if (features == null) {
      String message = Parsing.string(Parsing.object(body), "message");
      return message != null
          ? ProviderAnswer.failed(FailureClass.REJECTED, message)
          : ProviderAnswer.failed(FailureClass.DEGRADABLE, "schema: no features array");
    }
    return new Hits(mode).pointFeatures(features, PhotonAdapter::feature);
  }

  private static void feature(JsonObject p, double lon, double lat, Hits hits) {
    if (hits.missingRequired(Parsing.string(p, "osm_key"), "properties.osm_key")
        || hits.missingRequired(Parsing.string(p, "osm_value"), "properties.osm_value")) {
      return;
    }
    if (hits.strict() && p != null && p.containsKey("extent") && extent(p) == null) {
      hits.violation("properties.extent is not [minLon, maxLat, maxLon, minLat]");
      return;
    }
    hits.addWgs84(RawHit.of(lon, lat, Parsing.WGS84, CONFIDENCE, label(p), precision(p)).withAddress(address(p)));
  }

  /**
   * The address from a feature's properties: {@code housenumber}, {@code street};
   * {@code locality}, else {@code district} (Photon's locality is the finer); {@code city},
   * {@code county}, {@code state}, {@code postcode}, {@code country}, {@code countrycode}. Photon
   * does not repeat a feature in its own address fields, so a city, district, county, state,
   * country or street feature also gives its {@code name} to its own level. The place type is the
   * OSM tag {@code osm_key/osm_value}, else {@code type}.
   */
  static Address address(JsonObject p) {
    Address.Builder b = Address.builder();
    AddressFields.fill(b, Component.HOUSE_NUMBER, p, "housenumber");
    AddressFields.fill(b, Component.ROAD, p, "street");
    AddressFields.fill(b, Component.NEIGHBOURHOOD, p, "locality", "district");
    AddressFields.fill(b, Component.LOCALITY, p, "city");
    AddressFields.fill(b, Component.COUNTY, p, "county");
    AddressFields.fill(b, Component.REGION, p, "state");
    AddressFields.fill(b, Component.POSTCODE, p, "postcode");
    AddressFields.fill(b, Component.COUNTRY, p, "country");
    AddressFields.fill(b, Component.COUNTRY_CODE, p, "countrycode");
    Component own = ownLevel(p);
    if (own != null) {
      b.fill(own, Parsing.string(p, "name"));
    }
    String tag = AddressFields.tag(Parsing.string(p, "osm_key"), Parsing.string(p, "osm_value"));
    return b.fill(Component.PLACE_TYPE, tag != null ? tag : Parsing.string(p, "type")).build();
  }

  /** The component a feature's own name fills: from {@code type}, else the OSM tag; null for others. */
  private static Component ownLevel(JsonObject p) {
    String type = Parsing.string(p, "type");
    if (type == null) {
      type = typeFromOsmTag(p);
      if ("city".equals(type) && !Parsing.in(SETTLEMENT_VALUES, Parsing.string(p, "osm_value"))) {
        type = "district";
      }
    }
    return switch (type == null ? "" : type) {
      case "street" -> Component.ROAD;
      case "locality", "district" -> Component.NEIGHBOURHOOD;
      case "city" -> Component.LOCALITY;
      case "county" -> Component.COUNTY;
      case "state" -> Component.REGION;
      case "country" -> Component.COUNTRY;
      default -> null;
    };
  }

  /**
   * The feature's extent, read in Photon's order {@code [minLon, maxLat, maxLon, minLat]}; null when
   * absent or not four WGS84 numbers with min not above max.
   */
  public static Bbox extent(JsonObject properties) {
    JsonArray e = Parsing.array(properties, "extent");
    if (e == null || e.size() != 4) {
      return null;
    }
    Double minLon = Parsing.number(e, 0);
    Double maxLat = Parsing.number(e, 1);
    Double maxLon = Parsing.number(e, 2);
    Double minLat = Parsing.number(e, 3);
    if (minLon == null || maxLat == null || maxLon == null || minLat == null
        || minLon > maxLon || minLat > maxLat
        || !Parsing.isWgs84(minLon, minLat) || !Parsing.isWgs84(maxLon, maxLat)) {
      return null;
    }
    return new Bbox(minLon, minLat, maxLon, maxLat);
  }

  /** A label composed from the parts Photon returns: name, street line, city, country. */
  private static String label(JsonObject p) {
    List<String> parts = new ArrayList<>();
    addIfNew(parts, Parsing.string(p, "name"));
    String number = Parsing.string(p, "housenumber");
    String street = Parsing.string(p, "street");
    addIfNew(parts, street == null ? null : number == null ? street : number + " " + street);
    addIfNew(parts, Parsing.string(p, "city"));
    addIfNew(parts, Parsing.string(p, "country"));
    return parts.isEmpty() ? null : String.join(", ", parts);
  }

  private static void addIfNew(List<String> parts, String part) {
    if (part != null && !parts.contains(part)) {
      parts.add(part);
    }
  }

  /** The precision from {@code properties.type} (Photon 0.4+), else from the OSM tag. */
  static String precision(JsonObject p) {
    String type = Parsing.string(p, "type");
    if (type == null) {
      type = typeFromOsmTag(p);
    }
    return switch (type == null ? "" : type) {
      case "house" -> Precision.ROOFTOP;
      case "street" -> Precision.STREET;
      case "locality", "district", "city" -> Precision.LOCALITY;
      case "county", "state" -> Precision.REGION;
      case "country" -> Precision.COUNTRY;
      default -> null;
    };
  }

  private static String typeFromOsmTag(JsonObject p) {
    String key = Parsing.string(p, "osm_key");
    String value = Parsing.string(p, "osm_value");
    if ("highway".equals(key)) {
      return "street";
    }
    if ("place".equals(key) && Parsing.in(LOCALITY_VALUES, value)) {
      return "city";
    }
    if ("place".equals(key) && ("state".equals(value) || "county".equals(value) || "country".equals(value))) {
      return value;
    }
    return Parsing.string(p, "housenumber") != null || "building".equals(key) ? "house" : null;
  }
}
