package dev.georesolver.compat;

import com.fasterxml.jackson.core.JsonGenerator;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Precision;
import io.vertx.core.buffer.Buffer;

import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * Outcomes in the Google Geocoding API's shape: always HTTP 200, a {@code status} and, with every
 * status but {@code OK}, an {@code error_message}. Pure and thread-safe.
 *
 * <p>Statuses: {@code OK}; {@code ZERO_RESULTS} (every rung asked found nothing);
 * {@code UNKNOWN_ERROR} (rungs failed, the router is misconfigured or did not answer: a retry may
 * work); {@code INVALID_REQUEST}; {@code REQUEST_DENIED} (the gate refused the key);
 * {@code OVER_QUERY_LIMIT} (the tenant's rate limit; {@code Retry-After} also set).
 *
 * <p>A result has a non-empty {@code formatted_address}, {@code address_components} (the
 * answer's components, {@link #addressComponents}; {@code []} when it has none),
 * {@code geometry.location} and {@code geometry.viewport} as numbers, {@code location_type} from
 * {@link #locationType}, {@code partial_match: true} only when it is one ({@link #partialMatch}),
 * {@code place_id} ({@link GoogleRequests#placeId}) and {@code types} from the precision.
 */
public final class GoogleShapes {

  /** Google's statuses. */
  public static final String OK = "OK";
  public static final String ZERO_RESULTS = "ZERO_RESULTS";
  public static final String OVER_QUERY_LIMIT = "OVER_QUERY_LIMIT";
  public static final String REQUEST_DENIED = "REQUEST_DENIED";
  public static final String INVALID_REQUEST = "INVALID_REQUEST";
  public static final String UNKNOWN_ERROR = "UNKNOWN_ERROR";

  private GoogleShapes() {}

  /** The answer for {@code outcome}. */
  public static Rendered render(Outcome outcome, GoogleRequests.Options o) {
    if (outcome instanceof Outcome.Found f) {
      return Rendered.json(200, found(f.answer(), o));
    }
    if (outcome instanceof Outcome.NotFound) {
      return status(ZERO_RESULTS, "No result was found for this request.", Map.of());
    }
    if (outcome instanceof Outcome.Invalid i) {
      return status(INVALID_REQUEST, i.message(), Map.of());
    }
    if (outcome instanceof Outcome.Denied d) {
      return status(REQUEST_DENIED, d.message(), Map.of());
    }
    if (outcome instanceof Outcome.RateLimited r) {
      return status(OVER_QUERY_LIMIT, r.message(), Map.of("Retry-After", Long.toString(r.retryAfterS())));
    }
    if (outcome instanceof Outcome.Unavailable u) {
      return status(UNKNOWN_ERROR, u.message(), Map.of());
    }
    return status(UNKNOWN_ERROR, ((Outcome.Failed) outcome).message(), Map.of());
  }

  /**
   * Google's {@code location_type}, claiming no more than the answer may: {@code ROOFTOP} only for
   * a rooftop answer of an exact rung that was not degraded; a locality answer is always
   * {@code APPROXIMATE}; a rooftop point from any other rung, or degraded, and a street are
   * {@code GEOMETRIC_CENTER}; an interpolated house number {@code RANGE_INTERPOLATED}; postcodes,
   * places, regions, countries and unknown precision {@code APPROXIMATE}.
   */
  public static String locationType(Answer a) {
    if (a.claim() == Claim.LOCALITY || a.precision() == null) {
      return "APPROXIMATE";
    }
    return switch (a.precision()) {
      case Precision.ROOFTOP -> a.claim() == Claim.EXACT && !a.degraded() ? "ROOFTOP" : "GEOMETRIC_CENTER";
      case Precision.INTERPOLATED -> "RANGE_INTERPOLATED";
      case Precision.STREET -> "GEOMETRIC_CENTER";
      default -> "APPROXIMATE";
    };
  }

  /** Whether only part of the question was matched: a locality rung answers with a city for anything finer. */
  public static boolean partialMatch(Answer a) {
    return a.claim() == Claim.LOCALITY;
  }

  private static Rendered status(String status, String message, Map<String, String> headers) {
    Buffer body = JsonWriting.json(g -> {
      g.writeStartObject();
      g.writeStringField("error_message", message);
      g.writeArrayFieldStart("results");
      g.writeEndArray();
      g.writeStringField("status", status);
      g.writeEndObject();
    });
    return new Rendered(200, Rendered.JSON, body, headers);
  }

  private static Buffer found(Answer a, GoogleRequests.Options o) {
    PlaceKind k = PlaceKind.of(a.precision());
    return JsonWriting.json(g -> {
      g.writeStartObject();
      g.writeArrayFieldStart("results");
      g.writeStartObject();
      g.writeArrayFieldStart("address_components");
      addressComponents(g, a.address());
      g.writeEndArray();
      g.writeStringField("formatted_address", formattedAddress(a, o));
      g.writeObjectFieldStart("geometry");
      g.writeObjectFieldStart("location");
      latLng(g, a.lat(), a.lon());
      g.writeEndObject();
      g.writeStringField("location_type", locationType(a));
      double[] b = NominatimShapes.box(a, k);
      g.writeObjectFieldStart("viewport");
      g.writeObjectFieldStart("northeast");
      latLng(g, b[1], b[3]);
      g.writeEndObject();
      g.writeObjectFieldStart("southwest");
      latLng(g, b[0], b[2]);
      g.writeEndObject();
      g.writeEndObject();
      g.writeEndObject();
      if (partialMatch(a)) {
        g.writeBooleanField("partial_match", true);
      }
      g.writeStringField("place_id", GoogleRequests.placeId(a.lat(), a.lon()));
      g.writeArrayFieldStart("types");
      for (String t : k.googleTypes()) {
        g.writeString(t);
      }
      g.writeEndArray();
      g.writeEndObject();
      g.writeEndArray();
      g.writeStringField("status", OK);
      g.writeEndObject();
    });
  }

  /** Google's component types for each of ours (political for the named areas, as Google marks them). */
  private static final Map<Address.Component, List<String>> TYPES = new EnumMap<>(Map.of(
      Address.Component.HOUSE_NUMBER, List.of("street_number"),
      Address.Component.ROAD, List.of("route"),
      Address.Component.NEIGHBOURHOOD, List.of("neighborhood", "political"),
      Address.Component.LOCALITY, List.of("locality", "political"),
      Address.Component.COUNTY, List.of("administrative_area_level_2", "political"),
      Address.Component.REGION, List.of("administrative_area_level_1", "political"),
      Address.Component.COUNTRY, List.of("country", "political"),
      Address.Component.POSTCODE, List.of("postal_code")));

  /**
   * The components in Google's order (finest first), each {@code long_name}, {@code short_name}
   * and {@code types}: the country's short name is its ISO code (and a code without a name is
   * written as both), every other short name the long one; the place type is no component.
   */
  static void addressComponents(JsonGenerator g, Address ad) throws IOException {
    String cc = ad.get(Address.Component.COUNTRY_CODE);
    for (Address.Component c : List.of(Address.Component.HOUSE_NUMBER, Address.Component.ROAD, Address.Component.NEIGHBOURHOOD,
        Address.Component.LOCALITY, Address.Component.COUNTY, Address.Component.REGION, Address.Component.COUNTRY,
        Address.Component.POSTCODE)) {
      String v = ad.get(c);
      if (c == Address.Component.COUNTRY && v == null) {
        v = cc;
      }
      if (v == null) {
        continue;
      }
      g.writeStartObject();
      g.writeStringField("long_name", v);
      g.writeStringField("short_name", c == Address.Component.COUNTRY && cc != null ? cc : v);
      g.writeArrayFieldStart("types");
      for (String t : TYPES.get(c)) {
        g.writeString(t);
      }
      g.writeEndArray();
      g.writeEndObject();
    }
  }

  private static void latLng(JsonGenerator g, double lat, double lng) throws IOException {
    g.writeNumberField("lat", JsonWriting.round7(lat));
    g.writeNumberField("lng", JsonWriting.round7(lng));
  }

  private static String formattedAddress(Answer a, GoogleRequests.Options o) {
    if (a.label() != null && !a.label().isBlank()) {
      return a.label();
    }
    if (!o.query().isBlank()) {
      return o.query();
    }
    return JsonWriting.fixed7(a.lat()) + "," + JsonWriting.fixed7(a.lon());
  }
}
