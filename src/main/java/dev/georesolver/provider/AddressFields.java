package dev.georesolver.provider;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Address.Component;
import io.vertx.core.json.JsonObject;

import java.util.StringJoiner;

/**
 * Reading provider address fields into an {@link Address}: the helpers every adapter shares, and
 * the OpenStreetMap address keys that Nominatim's {@code address} and OpenCage's
 * {@code components} both use.
 *
 * <p>Values go through {@link Parsing#string} (a number is rendered as text, a boolean, array or
 * object is absent), so a provider's wrong type drops that component and never the hit. Where
 * several provider fields can fill one component they are listed most preferred first and the
 * first one present wins: for {@link Component#NEIGHBOURHOOD} the finest area, for
 * {@link Component#LOCALITY} the city before the town, village and hamlet. Stateless and
 * thread-safe.
 */
final class AddressFields {

  /** OSM keys for the way a house is on: {@code road}, or the way's kind when it is not a road. */
  static final String[] OSM_ROAD = {"road", "pedestrian", "footway", "cycleway", "path"};
  /** OSM areas inside a city, finest first. */
  static final String[] OSM_NEIGHBOURHOOD = {"neighbourhood", "quarter", "suburb", "borough", "city_district", "district"};
  /** OSM settlements, the city before the town, village and hamlet. */
  static final String[] OSM_LOCALITY = {"city", "town", "village", "hamlet", "municipality"};
  /** OSM second-order divisions. */
  static final String[] OSM_COUNTY = {"county", "state_district"};
  /** OSM first-order divisions. */
  static final String[] OSM_REGION = {"state", "region", "province"};

  private AddressFields() {}

  /** Fills {@code c} from the first of {@code keys} that {@code o} has as text. */
  static void fill(Address.Builder b, Component c, JsonObject o, String... keys) {
    if (o == null) {
      return;
    }
    for (String k : keys) {
      if (b.has(c)) {
        return;
      }
      b.fill(c, Parsing.string(o, k));
    }
  }

  /**
   * An OSM-keyed address object (Nominatim {@code address}, OpenCage {@code components}) read into
   * {@code b}. Does not set the place type.
   */
  static Address.Builder osm(Address.Builder b, JsonObject a) {
    fill(b, Component.HOUSE_NUMBER, a, "house_number");
    fill(b, Component.ROAD, a, OSM_ROAD);
    fill(b, Component.NEIGHBOURHOOD, a, OSM_NEIGHBOURHOOD);
    fill(b, Component.LOCALITY, a, OSM_LOCALITY);
    fill(b, Component.COUNTY, a, OSM_COUNTY);
    fill(b, Component.REGION, a, OSM_REGION);
    fill(b, Component.POSTCODE, a, "postcode");
    fill(b, Component.COUNTRY, a, "country");
    fill(b, Component.COUNTRY_CODE, a, "country_code");
    return b;
  }

  /** {@code key/value} (an OSM tag such as {@code tourism/attraction}); the one present, or null. */
  static String tag(String key, String value) {
    if (key == null || value == null) {
      return key == null ? value : key;
    }
    return key + "/" + value;
  }

  /** The present parts joined by single spaces ({@code Avenue} + {@code Gambetta}), or null when none is. */
  static String words(JsonObject o, String... keys) {
    StringJoiner j = new StringJoiner(" ");
    for (String k : keys) {
      String v = Parsing.string(o, k);
      if (v != null) {
        j.add(v.strip());
      }
    }
    return j.length() == 0 ? null : j.toString();
  }
}
