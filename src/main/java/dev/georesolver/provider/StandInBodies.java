package dev.georesolver.provider;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Locale;
import java.util.Optional;

/**
 * A forward answer in each HTTP adapter's own dialect, at one fixed point with a plausible address
 * (a house on the Rue de Rivoli, Paris): what a stand-in for a remote rung serves while
 * {@code validate --simulate} drives the ladder without the network. Each body is the smallest one
 * its adapter reads as a hit under {@link SchemaMode#STRICT} (so also under relaxed), shaped as the
 * provider's recorded answers are; the point and address are the same in every dialect, so which
 * rung answered is the only thing that differs between them.
 *
 * <p>Pure and stateless; thread-safe.
 */
public final class StandInBodies {

  /** Longitude of the point every body answers, degrees (WGS 84). */
  public static final double LON = 2.3522219;
  /** Latitude of the point every body answers, degrees (WGS 84). */
  public static final double LAT = 48.856614;
  /** The answer's label, the same in every dialect. */
  public static final String LABEL = "1 Rue de Rivoli, 75001 Paris, France";

  private StandInBodies() {}

  /**
   * The body a stand-in for an {@code adapter} rung answers a forward lookup with (content type
   * JSON, status 200), or empty for a local adapter or a name that is not registered.
   */
  public static Optional<String> forward(String adapter) {
    if (adapter == null || AdapterRegistry.find(adapter).map(AdapterRegistry.Adapter::local).orElse(true)) {
      return Optional.empty();
    }
    String body = switch (adapter.toLowerCase(Locale.ROOT)) {
      case "generic" -> generic().encode();
      case "google" -> google().encode();
      case "nominatim" -> nominatim().encode();
      case "pelias" -> pelias().encode();
      case "photon" -> photon().encode();
      case "here" -> here().encode();
      case "mapbox" -> mapbox().encode();
      case "mapbox_v5" -> mapboxV5().encode();
      case "opencage" -> openCage().encode();
      case "arcgis" -> arcGis().encode();
      default -> throw new IllegalStateException("no stand-in body for registered adapter " + adapter);
    };
    return Optional.of(body);
  }

  private static JsonObject generic() {
    return new JsonObject().put("x", LON).put("y", LAT).put("crs", "EPSG:4326").put("confidence", 0.95).put("label", LABEL)
        .put("address", new JsonObject().put("house_number", "1").put("road", "Rue de Rivoli").put("locality", "Paris")
            .put("postcode", "75001").put("country", "France").put("country_code", "FR"));
  }

  private static JsonObject google() {
    JsonObject location = new JsonObject().put("lat", LAT).put("lng", LON);
    return new JsonObject().put("status", "OK").put("results", new JsonArray().add(new JsonObject()
        .put("address_components", new JsonArray()
            .add(component("1", "1", "street_number"))
            .add(component("Rue de Rivoli", "Rue de Rivoli", "route"))
            .add(component("Paris", "Paris", "locality", "political"))
            .add(component("75001", "75001", "postal_code"))
            .add(component("France", "FR", "country", "political")))
        .put("formatted_address", LABEL)
        .put("geometry", new JsonObject().put("location", location).put("location_type", "ROOFTOP"))
        .put("place_id", "stand-in")
        .put("types", new JsonArray().add("street_address"))));
  }

  private static JsonObject component(String longName, String shortName, String... types) {
    return new JsonObject().put("long_name", longName).put("short_name", shortName).put("types", new JsonArray(java.util.List.of(types)));
  }

  /** Nominatim's {@code jsonv2} answer: an array of places, not an object. */
  private static JsonArray nominatim() {
    return new JsonArray().add(new JsonObject()
        .put("place_id", 1).put("osm_type", "node").put("osm_id", 1)
        .put("lat", Double.toString(LAT)).put("lon", Double.toString(LON))
        .put("display_name", LABEL).put("place_rank", 30).put("category", "place").put("type", "house")
        .put("importance", 0.9)
        .put("address", new JsonObject().put("house_number", "1").put("road", "Rue de Rivoli").put("city", "Paris")
            .put("postcode", "75001").put("country", "France").put("country_code", "fr")));
  }

  private static JsonObject pointFeature(JsonObject properties) {
    return new JsonObject().put("type", "Feature")
        .put("geometry", new JsonObject().put("type", "Point").put("coordinates", new JsonArray().add(LON).add(LAT)))
        .put("properties", properties);
  }

  private static JsonObject pelias() {
    return new JsonObject().put("geocoding", new JsonObject().put("version", "0.2")).put("type", "FeatureCollection")
        .put("features", new JsonArray().add(pointFeature(new JsonObject()
            .put("id", "stand-in").put("layer", "address").put("source", "openaddresses").put("name", "1 Rue de Rivoli")
            .put("housenumber", "1").put("street", "Rue de Rivoli").put("postalcode", "75001").put("locality", "Paris")
            .put("country", "France").put("country_code", "FR").put("confidence", 1).put("match_type", "exact")
            .put("accuracy", "point").put("label", LABEL))));
  }

  private static JsonObject photon() {
    return new JsonObject().put("type", "FeatureCollection").put("features", new JsonArray().add(pointFeature(new JsonObject()
        .put("osm_id", 1).put("osm_type", "N").put("osm_key", "place").put("osm_value", "house").put("type", "house")
        .put("housenumber", "1").put("street", "Rue de Rivoli").put("postcode", "75001").put("city", "Paris")
        .put("country", "France").put("countrycode", "FR"))));
  }

  private static JsonObject here() {
    return new JsonObject().put("items", new JsonArray().add(new JsonObject()
        .put("title", LABEL).put("id", "here:stand-in").put("resultType", "houseNumber").put("houseNumberType", "PA")
        .put("address", new JsonObject().put("label", LABEL).put("countryCode", "FRA").put("countryName", "France")
            .put("city", "Paris").put("street", "Rue de Rivoli").put("postalCode", "75001").put("houseNumber", "1"))
        .put("position", new JsonObject().put("lat", LAT).put("lng", LON))
        .put("scoring", new JsonObject().put("queryScore", 1.0))));
  }

  private static JsonObject mapbox() {
    JsonObject context = new JsonObject()
        .put("address", new JsonObject().put("address_number", "1").put("street_name", "Rue de Rivoli").put("name", "1 Rue de Rivoli"))
        .put("street", new JsonObject().put("name", "Rue de Rivoli"))
        .put("postcode", new JsonObject().put("name", "75001"))
        .put("place", new JsonObject().put("name", "Paris"))
        .put("country", new JsonObject().put("name", "France").put("country_code", "FR"));
    return new JsonObject().put("type", "FeatureCollection").put("features", new JsonArray().add(new JsonObject()
        .put("type", "Feature").put("id", "stand-in")
        .put("geometry", new JsonObject().put("type", "Point").put("coordinates", new JsonArray().add(LON).add(LAT)))
        .put("properties", new JsonObject().put("mapbox_id", "stand-in").put("feature_type", "address")
            .put("name", "1 Rue de Rivoli").put("full_address", LABEL).put("context", context)
            .put("coordinates", new JsonObject().put("longitude", LON).put("latitude", LAT).put("accuracy", "rooftop"))
            .put("match_code", new JsonObject().put("confidence", "exact")))));
  }

  private static JsonObject mapboxV5() {
    return new JsonObject().put("type", "FeatureCollection").put("features", new JsonArray().add(new JsonObject()
        .put("id", "address.1").put("type", "Feature").put("place_type", new JsonArray().add("address")).put("relevance", 1.0)
        .put("properties", new JsonObject()).put("text", "Rue de Rivoli").put("place_name", LABEL).put("address", "1")
        .put("center", new JsonArray().add(LON).add(LAT))
        .put("geometry", new JsonObject().put("type", "Point").put("coordinates", new JsonArray().add(LON).add(LAT)))
        .put("context", new JsonArray()
            .add(new JsonObject().put("id", "postcode.1").put("text", "75001"))
            .add(new JsonObject().put("id", "place.1").put("text", "Paris"))
            .add(new JsonObject().put("id", "country.1").put("short_code", "fr").put("text", "France")))));
  }

  private static JsonObject openCage() {
    return new JsonObject().put("status", new JsonObject().put("code", 200).put("message", "OK")).put("total_results", 1)
        .put("results", new JsonArray().add(new JsonObject()
            .put("components", new JsonObject().put("_type", "building").put("house_number", "1").put("road", "Rue de Rivoli")
                .put("city", "Paris").put("postcode", "75001").put("country", "France").put("country_code", "fr"))
            .put("confidence", 10).put("formatted", LABEL)
            .put("geometry", new JsonObject().put("lat", LAT).put("lng", LON))));
  }

  private static JsonObject arcGis() {
    return new JsonObject().put("spatialReference", new JsonObject().put("wkid", 4326).put("latestWkid", 4326))
        .put("candidates", new JsonArray().add(new JsonObject()
            .put("address", LABEL).put("location", new JsonObject().put("x", LON).put("y", LAT)).put("score", 100)
            .put("attributes", new JsonObject().put("Addr_type", "PointAddress").put("Match_addr", LABEL).put("LongLabel", LABEL)
                .put("AddNum", "1").put("StName", "Rue de Rivoli").put("City", "Paris").put("Postal", "75001")
                .put("Country", "FRA"))));
  }
}
