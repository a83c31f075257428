package dev.georesolver.compat;

import dev.georesolver.bus.FieldProblem;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Google Geocoding API parameters ({@code /maps/api/geocode/json}) translated to the public request.
 * Pure and thread-safe.
 *
 * <p>Honoured: {@code address}; {@code components} ({@code route}, {@code locality},
 * {@code administrative_area}, {@code postal_code}, {@code country}): alone they are the structured
 * address, with {@code address} they are added to it; {@code latlng} (reverse); {@code place_id}
 * (one this endpoint issued, {@code gr:<lat>,<lng>}: the point is looked up in reverse);
 * {@code language}; {@code key} (handed to the {@link Gate}). Checked, not applied:
 * {@code bounds} (a bias in Google, which the ladder cannot express); ignored: {@code region} (a
 * bias too), {@code result_type}, {@code location_type}, {@code sensor} and every other parameter.
 * georesolver's own {@code intent} and {@code budget_ms} pass through.
 *
 * <p>Order when several are given: {@code place_id}, then {@code latlng}, then
 * {@code address}/{@code components}. Errors are {@code INVALID_REQUEST} with Google's wording.
 */
public final class GoogleRequests {

  /** The prefix of the place ids this endpoint issues. */
  public static final String PLACE_ID_PREFIX = "gr:";

  private static final Map<String, String> COMPONENTS = Map.of(
      "route", "street",
      "locality", "locality",
      "administrative_area", "region",
      "postal_code", "postcode",
      "country", "country");

  private static final Map<String, String> PARAMS = Map.of(
      "q", "address",
      "address.*", "components",
      "address", "components",
      "lat", "latlng",
      "lon", "latlng",
      "bbox", "bounds");

  private GoogleRequests() {}

  /**
   * How to render the answer.
   *
   * @param query the question as text: the {@code formatted_address} of an answer without a label
   */
  public record Options(String query) {}

  /** One request. */
  public static Translation<Options> translate(Params p) {
    Options none = new Options("");
    String placeId = Dialects.nonBlank(p.get("place_id"));
    String latlng = placeId != null ? fromPlaceId(placeId) : Dialects.nonBlank(p.get("latlng"));
    if (placeId != null && latlng == null) {
      return Translation.answer(Direction.REVERSE, invalid("place_id"), none);
    }
    if (p.get("bounds") != null && !validBounds(p.get("bounds"))) {
      return Translation.answer(Direction.FORWARD, invalid("bounds"), none);
    }
    if (latlng != null) {
      String[] ll = latlng.split(",", -1);
      if (ll.length != 2 || Dialects.number(ll[0]) == null || Dialects.number(ll[1]) == null) {
        return Translation.answer(Direction.REVERSE, invalid(placeId != null ? "place_id" : "latlng"), none);
      }
      JsonObject fields = new JsonObject().put("lat", ll[0].strip()).put("lon", ll[1].strip());
      common(p, fields);
      return Translation.ask(Direction.REVERSE, fields, new Options(ll[0].strip() + "," + ll[1].strip()));
    }
    String address = Dialects.nonBlank(p.get("address"));
    Map<String, String> components = new LinkedHashMap<>();
    if (p.get("components") != null && !parseComponents(p.get("components"), components)) {
      return Translation.answer(Direction.FORWARD, invalid("components"), none);
    }
    if (address == null && components.isEmpty()) {
      return Translation.answer(Direction.FORWARD, new Outcome.Invalid(null,
          "Invalid request. Missing the 'address', 'components', 'latlng' or 'place_id' parameter."), none);
    }
    JsonObject fields = new JsonObject();
    String query;
    if (address != null) {
      List<String> parts = new ArrayList<>();
      parts.add(address);
      components.forEach((k, v) -> parts.add(k.equals("country") ? Dialects.countryText(v) : v));
      query = String.join(", ", parts);
      fields.put("q", query);
    } else {
      JsonObject a = new JsonObject();
      components.forEach(a::put);
      fields.put("address", a);
      query = String.join(", ", components.values());
    }
    common(p, fields);
    return Translation.ask(Direction.FORWARD, fields, new Options(query));
  }

  /** The outcome for the problems the request validator found, named with Google's parameters. */
  public static Outcome invalid(List<FieldProblem> problems) {
    FieldProblem first = problems.get(0);
    String param = Dialects.param(first, PARAMS);
    return new Outcome.Invalid(param, "Invalid request. Invalid '" + param + "' parameter: " + first.field() + " "
        + first.message() + ".");
  }

  /** The place id this endpoint gives an answer at {@code lat}, {@code lon}. */
  public static String placeId(double lat, double lon) {
    return PLACE_ID_PREFIX + JsonWriting.fixed7(lat) + "," + JsonWriting.fixed7(lon);
  }

  /** The {@code lat,lng} a place id stands for, or null when it is not one of ours. */
  static String fromPlaceId(String placeId) {
    return placeId.startsWith(PLACE_ID_PREFIX) ? placeId.substring(PLACE_ID_PREFIX.length()) : null;
  }

  private static Outcome.Invalid invalid(String param) {
    return new Outcome.Invalid(param, "Invalid request. Invalid '" + param + "' parameter.");
  }

  /** {@code key:value|key:value} into request components; false when malformed or unknown. */
  static boolean parseComponents(String s, Map<String, String> out) {
    for (String part : s.split("\\|")) {
      if (part.isBlank()) {
        continue;
      }
      int colon = part.indexOf(':');
      if (colon <= 0) {
        return false;
      }
      String field = COMPONENTS.get(part.substring(0, colon).strip());
      String value = Dialects.nonBlank(part.substring(colon + 1));
      if (field == null || value == null) {
        return false;
      }
      out.put(field, value);
    }
    return true;
  }

  /** {@code south,west|north,east}, each a number. */
  static boolean validBounds(String s) {
    String[] corners = s.split("\\|", -1);
    if (corners.length != 2) {
      return false;
    }
    for (String c : corners) {
      String[] ll = c.split(",", -1);
      if (ll.length != 2 || Dialects.number(ll[0]) == null || Dialects.number(ll[1]) == null) {
        return false;
      }
    }
    return true;
  }

  private static void common(Params p, JsonObject fields) {
    String lang = Dialects.firstLanguage(p.get("language"));
    if (lang != null) {
      fields.put("language", lang);
    }
    NominatimRequests.extensions(p, fields);
  }
}
