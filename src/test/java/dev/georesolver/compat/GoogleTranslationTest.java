package dev.georesolver.compat;

import dev.georesolver.bus.RequestValidator;
import dev.georesolver.bus.ResolveRequest;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** Google Geocoding parameters in, Google shapes out, every status. */
class GoogleTranslationTest {

  private static final RequestValidator VALIDATOR = new RequestValidator(Set.of("describe"), "describe", 2500, 10_000);

  private static Translation<GoogleRequests.Options> t(String... kv) {
    Map<String, String> m = new HashMap<>();
    for (int i = 0; i + 1 < kv.length; i += 2) {
      m.put(kv[i], kv[i + 1]);
    }
    return GoogleRequests.translate(Params.of(m));
  }

  private static ResolveRequest validated(Translation<?> t) {
    RequestValidator.Validated v = VALIDATOR.validate(t.fields(), t.direction(), null, "t");
    assertThat(v.problems()).isEmpty();
    return v.request();
  }

  private static JsonObject body(Outcome o) {
    Rendered r = GoogleShapes.render(o, new GoogleRequests.Options("10 Downing St"));
    assertThat(r.status()).as("Google always answers HTTP 200").isEqualTo(200);
    assertThat(r.contentType()).isEqualTo(Rendered.JSON);
    return new JsonObject(r.text());
  }

  @Test
  @DisplayName("address is the /v1 free-text request; sensor, region and key do not change it")
  void address() {
    ResolveRequest r = validated(t("address", "10 Downing St, London", "sensor", "false", "region", "uk", "key", "k",
        "language", "en-GB"));
    assertThat(r.text()).isEqualTo("10 Downing St, London");
    assertThat(r.language()).isEqualTo("en-GB");
  }

  @Test
  @DisplayName("components alone are the structured address; with address they are added to it")
  void components() {
    ResolveRequest structured = validated(t("components", "route:Downing Street|locality:London|postal_code:SW1A 2AA|country:GB"));
    assertThat(structured.components()).containsEntry("street", "Downing Street").containsEntry("locality", "London")
        .containsEntry("postcode", "SW1A 2AA").containsEntry("country", "GB");
    assertThat(validated(t("address", "10 Downing St", "components", "country:GB")).text())
        .isEqualTo("10 Downing St, United Kingdom");
    assertThat(t("components", "planet:Mars").early()).isInstanceOf(Outcome.Invalid.class);
  }

  @Test
  @DisplayName("latlng and one of our place ids are reverse lookups; a foreign place id is INVALID_REQUEST")
  void reverse() {
    ResolveRequest r = validated(t("latlng", "48.8584,2.2945"));
    assertThat(r.direction()).isEqualTo(Direction.REVERSE);
    assertThat(r.lon()).isEqualTo(2.2945);
    ResolveRequest p = validated(t("place_id", GoogleRequests.placeId(51.5034, -0.1276)));
    assertThat(p.lat()).isEqualTo(51.5034);
    assertThat(body(t("place_id", "ChIJD7fiBh9u5kcRYJSMaMOCCwQ").early()).getString("status")).isEqualTo("INVALID_REQUEST");
    assertThat(body(t("latlng", "north,south").early()).getString("error_message")).contains("'latlng'");
  }

  @Test
  @DisplayName("neither address, components, latlng nor place_id is INVALID_REQUEST with Google's message")
  void missing() {
    JsonObject b = body(t("key", "k").early());
    assertThat(b.getString("status")).isEqualTo("INVALID_REQUEST");
    assertThat(b.getString("error_message")).isEqualTo("Invalid request. Missing the 'address', 'components', 'latlng' or 'place_id' parameter.");
    assertThat(b.getJsonArray("results")).isEmpty();
  }

  @Test
  @DisplayName("bounds is checked but not applied (a bias in Google)")
  void bounds() {
    assertThat(validated(t("address", "x", "bounds", "34.1,-118.6|34.3,-118.1")).bbox()).isNull();
    assertThat(body(t("address", "x", "bounds", "34.1").early()).getString("status")).isEqualTo("INVALID_REQUEST");
  }

  @Test
  @DisplayName("OK: formatted_address, address_components, numeric location and viewport, location_type, partial_match, place_id, types")
  void ok() {
    JsonObject b = body(Outcome.of(Results.answer(Results.resolved("exact", "rooftop", false))));
    assertThat(b.getString("status")).isEqualTo("OK");
    assertThat(b.containsKey("error_message")).isFalse();
    JsonObject res = b.getJsonArray("results").getJsonObject(0);
    assertThat(res.getString("formatted_address")).isEqualTo("10 Downing Street, London SW1A 2AA, UK");
    assertThat(res.getJsonArray("address_components")).isEmpty();
    JsonObject geo = res.getJsonObject("geometry");
    assertThat(geo.getJsonObject("location").getValue("lat")).isEqualTo(51.5034);
    assertThat(geo.getJsonObject("location").getValue("lng")).isEqualTo(-0.1276);
    assertThat(geo.getString("location_type")).isEqualTo("ROOFTOP");
    assertThat(geo.getJsonObject("viewport").getJsonObject("northeast").getDouble("lat")).isGreaterThan(51.5034);
    assertThat(geo.getJsonObject("viewport").getJsonObject("southwest").getDouble("lng")).isLessThan(-0.1276);
    assertThat(res.containsKey("partial_match")).as("written only when it is one").isFalse();
    assertThat(res.getString("place_id")).isEqualTo("gr:51.5034000,-0.1276000");
    assertThat(res.getJsonArray("types").getList()).containsExactly("street_address");
  }

  @Test
  @DisplayName("address_components: long_name, short_name and Google's types, finest first; the country's short name is its code")
  void addressComponents() {
    JsonObject res = body(Outcome.of(Results.answer(Results.withAddress(Results.resolved("exact", "rooftop", false)))))
        .getJsonArray("results").getJsonObject(0);
    var comps = res.getJsonArray("address_components");
    assertThat(comps.stream().map(o -> ((JsonObject) o).getJsonArray("types").getString(0)).toList())
        .containsExactly("street_number", "route", "neighborhood", "locality", "administrative_area_level_2",
            "administrative_area_level_1", "country", "postal_code");
    JsonObject country = comps.getJsonObject(6);
    assertThat(country.getString("long_name")).isEqualTo("United Kingdom");
    assertThat(country.getString("short_name")).isEqualTo("GB");
    assertThat(country.getJsonArray("types").getList()).containsExactly("country", "political");
    assertThat(comps.getJsonObject(0).getString("long_name")).isEqualTo("10");
    assertThat(comps.getJsonObject(7).getString("short_name")).isEqualTo("SW1A 2AA");
  }

  @ParameterizedTest(name = "{0} {1} degraded={2} -> {3}")
  @CsvSource({
      "exact, rooftop, false, ROOFTOP",
      "exact, rooftop, true, GEOMETRIC_CENTER",
      "open_data, rooftop, false, GEOMETRIC_CENTER",
      "cached, rooftop, false, GEOMETRIC_CENTER",
      "exact, interpolated, false, RANGE_INTERPOLATED",
      "exact, street, false, GEOMETRIC_CENTER",
      "exact, postcode, false, APPROXIMATE",
      "exact, locality, false, APPROXIMATE",
      "locality, locality, true, APPROXIMATE",
      "locality, rooftop, false, APPROXIMATE",
      "exact, , false, APPROXIMATE"})
  @DisplayName("location_type never claims more than the answer: ROOFTOP only for an exact, undegraded rooftop answer")
  void locationType(String claim, String precision, boolean degraded, String expected) {
    assertThat(GoogleShapes.locationType(Results.answer(Results.resolved(claim, precision, degraded)))).isEqualTo(expected);
  }

  @Test
  @DisplayName("a locality answer is a partial match")
  void partialMatch() {
    JsonObject res = body(Outcome.of(Results.answer(Results.resolved("locality", "locality", true))))
        .getJsonArray("results").getJsonObject(0);
    assertThat(res.getBoolean("partial_match")).isTrue();
    assertThat(res.getJsonArray("types").getList()).containsExactly("locality", "political");
  }

  @Test
  @DisplayName("every non-OK status carries error_message and empty results: ZERO_RESULTS, UNKNOWN_ERROR, INVALID_REQUEST, REQUEST_DENIED, OVER_QUERY_LIMIT")
  void statuses() {
    assertStatus(Outcome.of(Results.answer(Results.refused("not_found", "n"))), "ZERO_RESULTS");
    assertStatus(Outcome.of(Results.answer(Results.refused("no_rung_available", "No rung could answer."))), "UNKNOWN_ERROR");
    assertStatus(Outcome.of(Results.answer(Results.refused("budget_exhausted", "late"))), "UNKNOWN_ERROR");
    assertStatus(new Outcome.Unavailable(504, "late", null), "UNKNOWN_ERROR");
    assertStatus(new Outcome.Failed("Router error."), "UNKNOWN_ERROR");
    assertStatus(new Outcome.Invalid("latlng", "Invalid request. Invalid 'latlng' parameter."), "INVALID_REQUEST");
    assertStatus(Outcome.of(new GateVerdict.Denied(401, "The provided API key is invalid.")), "REQUEST_DENIED");
    assertStatus(Outcome.of(new GateVerdict.Denied(403, "Not for this tenant.")), "REQUEST_DENIED");
    Rendered limited = GoogleShapes.render(Outcome.of(new GateVerdict.RateLimited(3, "You have exceeded your rate-limit.")),
        new GoogleRequests.Options(""));
    assertThat(new JsonObject(limited.text()).getString("status")).isEqualTo("OVER_QUERY_LIMIT");
    assertThat(limited.status()).isEqualTo(200);
    assertThat(limited.headers()).containsEntry("Retry-After", "3");
  }

  private static void assertStatus(Outcome o, String status) {
    JsonObject b = body(o);
    assertThat(b.getString("status")).isEqualTo(status);
    assertThat(b.getString("error_message")).isNotBlank();
    assertThat(b.getJsonArray("results")).isEmpty();
  }
}
