package dev.georesolver.compat;

import dev.georesolver.geo.Direction;
import dev.georesolver.support.NominatimBodies;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NominatimShapesTest {

  private static NominatimRequests.Options opts(NominatimFormat f, boolean details) {
    return new NominatimRequests.Options(f, details, 10, "10 Downing St, London");
  }

  private static Outcome found(String claim, String precision) {
    return Outcome.of(Results.answer(Results.resolved(claim, precision, false)));
  }

  @Test
  @DisplayName("json: an array of places with string lat/lon, class, boundingbox [minlat, maxlat, minlon, maxlon] as strings")
  void json() {
    Rendered r = NominatimShapes.render(found("exact", "rooftop"), Direction.FORWARD, opts(NominatimFormat.JSON, true));
    assertThat(r.status()).isEqualTo(200);
    assertThat(r.contentType()).isEqualTo("application/json; charset=utf-8");
    JsonObject p = new JsonArray(r.text()).getJsonObject(0);
    assertThat(p.getValue("lat")).isEqualTo("51.5034000");
    assertThat(p.getValue("lon")).isEqualTo("-0.1276000");
    assertThat(p.getString("display_name")).isEqualTo("10 Downing Street, London SW1A 2AA, UK");
    assertThat(p.getString("class")).isEqualTo("place");
    assertThat(p.containsKey("category")).isFalse();
    assertThat(p.getString("type")).isEqualTo("house");
    assertThat(p.getInteger("place_rank")).isEqualTo(30);
    assertThat(p.getDouble("importance")).isEqualTo(0.9);
    assertThat(p.getJsonObject("address")).isEqualTo(new JsonObject());
    assertThat(p.getLong("place_id")).isPositive().isLessThan(1L << 53);
    assertThat(p.getString("licence")).contains("primary");
    JsonArray bb = p.getJsonArray("boundingbox");
    assertThat(bb.getList()).allMatch(v -> v instanceof String);
    assertThat(Double.parseDouble(bb.getString(0))).isLessThan(51.5034);
    assertThat(Double.parseDouble(bb.getString(1))).isGreaterThan(51.5034);
    assertThat(Double.parseDouble(bb.getString(2))).isLessThan(-0.1276);
    assertThat(Double.parseDouble(bb.getString(3))).isGreaterThan(-0.1276);
  }

  @Test
  @DisplayName("jsonv2 says category instead of class; without addressdetails there is no address object")
  void jsonv2() {
    JsonObject p = new JsonArray(NominatimShapes.render(found("locality", "locality"), Direction.FORWARD,
        opts(NominatimFormat.JSONV2, false)).text()).getJsonObject(0);
    assertThat(p.getString("category")).isEqualTo("place");
    assertThat(p.getString("type")).isEqualTo("city");
    assertThat(p.getInteger("place_rank")).isEqualTo(16);
    assertThat(p.containsKey("class")).isFalse();
    assertThat(p.containsKey("address")).isFalse();
  }

  @Test
  @DisplayName("reverse answers one place object, not an array")
  void reverseObject() {
    JsonObject p = new JsonObject(NominatimShapes.render(found("exact", "street"), Direction.REVERSE,
        opts(NominatimFormat.JSONV2, true)).text());
    assertThat(p.getString("addresstype")).isEqualTo("road");
    assertThat(p.getString("lat")).isEqualTo("51.5034000");
  }

  @Test
  @DisplayName("display_name is never empty: the label, else the question, else the coordinates")
  void displayNameFallback() {
    JsonObject noLabel = Results.resolved("exact", null, false);
    noLabel.remove("label");
    JsonObject p = new JsonArray(NominatimShapes.render(Outcome.of(Results.answer(noLabel)), Direction.FORWARD,
        opts(NominatimFormat.JSON, false)).text()).getJsonObject(0);
    assertThat(p.getString("display_name")).isEqualTo("10 Downing St, London");
    JsonObject r = new JsonObject(NominatimShapes.render(Outcome.of(Results.answer(noLabel)), Direction.REVERSE,
        new NominatimRequests.Options(NominatimFormat.JSON, false, 1, "")).text());
    assertThat(r.getString("display_name")).isEqualTo("51.5034000, -0.1276000");
  }

  @Test
  @DisplayName("geojson: a FeatureCollection, bbox [minlon, minlat, maxlon, maxlat] as numbers, a Point geometry")
  void geojson() {
    JsonObject fc = new JsonObject(NominatimShapes.render(found("open_data", "rooftop"), Direction.FORWARD,
        opts(NominatimFormat.GEOJSON, true)).text());
    assertThat(fc.getString("type")).isEqualTo("FeatureCollection");
    JsonObject f = fc.getJsonArray("features").getJsonObject(0);
    assertThat(f.getJsonObject("properties").getString("display_name")).startsWith("10 Downing");
    assertThat(f.getJsonObject("geometry").getJsonArray("coordinates").getDouble(0)).isEqualTo(-0.1276);
    assertThat(f.getJsonArray("bbox").getDouble(0)).isLessThan(-0.1276);
    assertThat(f.getJsonArray("bbox").getDouble(1)).isLessThan(51.5034);
  }

  @Test
  @DisplayName("geocodejson: geocoding header with the query, features with properties.geocoding.label and type")
  void geocodejson() {
    JsonObject fc = new JsonObject(NominatimShapes.render(found("exact", "rooftop"), Direction.FORWARD,
        opts(NominatimFormat.GEOCODEJSON, false)).text());
    assertThat(fc.getJsonObject("geocoding").getString("query")).isEqualTo("10 Downing St, London");
    JsonObject g = fc.getJsonArray("features").getJsonObject(0).getJsonObject("properties").getJsonObject("geocoding");
    assertThat(g.getString("label")).startsWith("10 Downing");
    assertThat(g.getString("type")).isEqualTo("house");
  }

  @Test
  @DisplayName("no result: search [] (or an empty FeatureCollection), reverse {\"error\":\"Unable to geocode\"}, all 200")
  void noResult() {
    Outcome none = Outcome.of(Results.answer(Results.refused("not_found", "found nothing")));
    assertThat(NominatimShapes.render(none, Direction.FORWARD, opts(NominatimFormat.JSON, false)).text()).isEqualTo("[]");
    assertThat(new JsonObject(NominatimShapes.render(none, Direction.FORWARD, opts(NominatimFormat.GEOJSON, false)).text())
        .getJsonArray("features")).isEmpty();
    Rendered rev = NominatimShapes.render(none, Direction.REVERSE, opts(NominatimFormat.JSONV2, false));
    assertThat(rev.status()).isEqualTo(200);
    assertThat(rev.text()).isEqualTo("{\"error\":\"Unable to geocode\"}");
    assertThat(NominatimShapes.render(none, Direction.REVERSE, opts(NominatimFormat.GEOCODEJSON, false)).text())
        .isEqualTo("{\"error\":\"Unable to geocode\"}");
  }

  @ParameterizedTest
  @CsvSource({"budget_exhausted", "not_found_where_asked", "no_rung_available"})
  @DisplayName("a refusal because rungs failed is a 503 in Nominatim's error JSON, never an empty result")
  void rungsFailed(String reason) {
    Outcome o = Outcome.of(Results.answer(Results.refused(reason, "No rung could answer: primary failed (transient).")));
    Rendered r = NominatimShapes.render(o, Direction.FORWARD, opts(NominatimFormat.JSON, false));
    assertThat(r.status()).isEqualTo(503);
    assertThat(new JsonObject(r.text()).getJsonObject("error").getInteger("code")).isEqualTo(503);
    assertThat(new JsonObject(r.text()).getJsonObject("error").getString("message")).startsWith("No rung could answer");
  }

  @Test
  @DisplayName("every other outcome is Nominatim's error JSON with its own status; 401 carries WWW-Authenticate, 429 Retry-After")
  void errors() {
    NominatimRequests.Options o = opts(NominatimFormat.JSON, false);
    assertError(NominatimShapes.render(new Outcome.Invalid("lat", "Parameter 'lat' missing."), Direction.REVERSE, o), 400);
    Rendered denied = NominatimShapes.render(new Outcome.Denied(401, "A key is required."), Direction.FORWARD, o);
    assertError(denied, 401);
    assertThat(denied.headers()).containsKey("WWW-Authenticate");
    assertError(NominatimShapes.render(new Outcome.Denied(403, "Not allowed."), Direction.FORWARD, o), 403);
    Rendered limited = NominatimShapes.render(new Outcome.RateLimited(7, "Too many requests."), Direction.FORWARD, o);
    assertError(limited, 429);
    assertThat(limited.headers()).containsEntry("Retry-After", "7");
    assertError(NominatimShapes.render(new Outcome.Unavailable(504, "late", null), Direction.FORWARD, o), 504);
    assertError(NominatimShapes.render(new Outcome.Failed("Router error."), Direction.FORWARD, o), 500);
  }

  // The contract every format keeps: the same place, the same "no result", the same errors.

  private static NominatimBodies.Body read(Rendered r, String format, Direction d) {
    assertThat(r.contentType()).isEqualTo(format.equals("xml") ? "text/xml; charset=utf-8" : Rendered.JSON);
    return NominatimBodies.read(format, d == Direction.REVERSE, r.text());
  }

  private static NominatimRequests.Options opts(String format, boolean details) {
    return opts(NominatimFormat.fromWire(format).orElseThrow(), details);
  }

  @ParameterizedTest
  @MethodSource("dev.georesolver.support.NominatimBodies#formats")
  @DisplayName("every format: one place with the answer's point, display name, kind, rank, importance and a box around the point")
  void everyFormatFound(String format) {
    for (Direction d : Direction.values()) {
      Rendered r = NominatimShapes.render(found("exact", "rooftop"), d, opts(format, true));
      assertThat(r.status()).isEqualTo(200);
      NominatimBodies.Place p = read(r, format, d).places().get(0);
      assertThat(read(r, format, d).places()).as(format + " " + d).hasSize(1);
      assertThat(p.lat()).isEqualTo(51.5034);
      assertThat(p.lon()).isEqualTo(-0.1276);
      assertThat(p.displayName()).isEqualTo("10 Downing Street, London SW1A 2AA, UK");
      assertThat(p.placeId()).isEqualTo(NominatimShapes.placeId(Results.answer(Results.resolved("exact", "rooftop", false))));
      if (!(format.equals("xml") && d == Direction.REVERSE)) {
        assertThat(p.osmClass()).isEqualTo("place");
        assertThat(p.type()).isEqualTo("house");
      }
      if (!format.equals("geocodejson")) {
        assertThat(p.placeRank()).isEqualTo(30);
        assertThat(p.box()[0]).isLessThan(51.5034);
        assertThat(p.box()[1]).isGreaterThan(51.5034);
        assertThat(p.box()[2]).isLessThan(-0.1276);
        assertThat(p.box()[3]).isGreaterThan(-0.1276);
      }
      if (!format.equals("geocodejson") && !(format.equals("xml") && d == Direction.REVERSE)) {
        assertThat(p.importance()).isEqualTo(0.9);
      }
      assertThat(p.address()).as("addressdetails: the same (empty) address in every format").isEqualTo(Map.of());
    }
  }

  @ParameterizedTest
  @MethodSource("dev.georesolver.support.NominatimBodies#formats")
  @DisplayName("every format: with addressdetails the answer's components under Nominatim's names, country_code in lower case")
  void everyFormatCarriesTheComponents(String format) {
    Outcome withAddress = Outcome.of(Results.answer(Results.withAddress(Results.resolved("exact", "rooftop", false))));
    Map<String, String> nominatim = new LinkedHashMap<>();
    nominatim.put("house_number", "10");
    nominatim.put("road", "Downing Street");
    nominatim.put("neighbourhood", "Westminster");
    nominatim.put("city", "London");
    nominatim.put("county", "Greater London");
    nominatim.put("state", "England");
    nominatim.put("postcode", "SW1A 2AA");
    nominatim.put("country", "United Kingdom");
    nominatim.put("country_code", "gb");
    for (Direction d : Direction.values()) {
      Rendered r = NominatimShapes.render(withAddress, d, opts(format, true));
      Map<String, String> address = read(r, format, d).places().get(0).address();
      if (format.equals("geocodejson")) {
        assertThat(address).containsExactly(Map.entry("level2", "United Kingdom"), Map.entry("level4", "England"),
            Map.entry("level6", "Greater London"));
        JsonObject g = new JsonObject(r.text()).getJsonArray("features").getJsonObject(0).getJsonObject("properties")
            .getJsonObject("geocoding");
        assertThat(g.getString("housenumber")).isEqualTo("10");
        assertThat(g.getString("street")).isEqualTo("Downing Street");
        assertThat(g.getString("city")).isEqualTo("London");
        assertThat(g.getString("postcode")).isEqualTo("SW1A 2AA");
        assertThat(g.getString("country_code")).isEqualTo("gb");
      } else {
        assertThat(address).as(format + " " + d).containsExactlyEntriesOf(nominatim);
      }
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"place/town, town", "place/village, village", "hamlet, hamlet", "locality, city", ", city", "place/city, city"})
  @DisplayName("the locality is named city, town, village or hamlet by the provider's place type")
  void localityKey(String placeType, String key) {
    assertThat(NominatimShapes.localityKey(placeType)).isEqualTo(key);
  }

  @ParameterizedTest
  @MethodSource("dev.georesolver.support.NominatimBodies#formats")
  @DisplayName("every format: without addressdetails there is no address container")
  void everyFormatWithoutDetails(String format) {
    Rendered search = NominatimShapes.render(found("exact", "rooftop"), Direction.FORWARD, opts(format, false));
    Rendered reverse = NominatimShapes.render(found("exact", "rooftop"), Direction.REVERSE, opts(format, false));
    if (!format.equals("xml")) {
      assertThat(read(search, format, Direction.FORWARD).places().get(0).address()).isNull();
    }
    assertThat(read(reverse, format, Direction.REVERSE).places().get(0).address()).isNull();
  }

  @ParameterizedTest
  @MethodSource("dev.georesolver.support.NominatimBodies#formats")
  @DisplayName("every format: nothing found is an empty search and a reverse 'Unable to geocode', HTTP 200")
  void everyFormatNoResult(String format) {
    Outcome none = Outcome.of(Results.answer(Results.refused("not_found", "found nothing")));
    Rendered s = NominatimShapes.render(none, Direction.FORWARD, opts(format, false));
    assertThat(s.status()).isEqualTo(200);
    NominatimBodies.Body sb = read(s, format, Direction.FORWARD);
    assertThat(sb.places()).isEmpty();
    assertThat(sb.unableToGeocode()).isFalse();
    assertThat(sb.errorCode()).isNull();
    Rendered r = NominatimShapes.render(none, Direction.REVERSE, opts(format, false));
    assertThat(r.status()).isEqualTo(200);
    NominatimBodies.Body rb = read(r, format, Direction.REVERSE);
    assertThat(rb.places()).isEmpty();
    assertThat(rb.unableToGeocode()).isTrue();
  }

  @ParameterizedTest
  @MethodSource("dev.georesolver.support.NominatimBodies#formats")
  @DisplayName("every format: each error outcome is Nominatim's error in that format with its status; 401 has WWW-Authenticate, 429 Retry-After")
  void everyFormatErrors(String format) {
    NominatimRequests.Options o = opts(format, false);
    Map<Outcome, Integer> cases = new LinkedHashMap<>();
    cases.put(new Outcome.Invalid("lat", "Parameter 'lat' missing."), 400);
    cases.put(new Outcome.Denied(401, "A key is required."), 401);
    cases.put(new Outcome.Denied(403, "Not allowed."), 403);
    cases.put(new Outcome.RateLimited(7, "Too many requests."), 429);
    cases.put(Outcome.of(Results.answer(Results.refused("budget_exhausted", "No rung could answer: primary failed (transient)."))), 503);
    cases.put(new Outcome.Unavailable(504, "late", null), 504);
    cases.put(new Outcome.Failed("Router error."), 500);
    for (Map.Entry<Outcome, Integer> c : cases.entrySet()) {
      for (Direction d : Direction.values()) {
        Rendered r = NominatimShapes.render(c.getKey(), d, o);
        assertThat(r.status()).isEqualTo(c.getValue());
        NominatimBodies.Body b = read(r, format, d);
        assertThat(b.errorCode()).as(format + " " + c.getKey()).isEqualTo(c.getValue());
        assertThat(b.errorMessage()).isNotBlank();
        assertThat(b.places()).isEmpty();
      }
    }
    assertThat(NominatimShapes.render(new Outcome.Denied(401, "A key is required."), Direction.FORWARD, o).headers())
        .containsKey("WWW-Authenticate");
    assertThat(NominatimShapes.render(new Outcome.RateLimited(7, "x"), Direction.FORWARD, o).headers()).containsEntry("Retry-After", "7");
    assertThat(read(NominatimShapes.render(new Outcome.Invalid("lat", "Parameter 'lat' missing."), Direction.REVERSE, o), format,
        Direction.REVERSE).errorMessage()).isEqualTo("Parameter 'lat' missing.");
  }

  @ParameterizedTest
  @MethodSource("dev.georesolver.support.NominatimBodies#formats")
  @DisplayName("every format: a search whose place is in exclude_place_ids has no result, and the outcome says why")
  void everyFormatExcluded(String format) {
    Answer a = Results.answer(Results.resolved("exact", "rooftop", false));
    NominatimRequests.Options o = new NominatimRequests.Options(NominatimFormat.fromWire(format).orElseThrow(), false, 10, "q",
        List.of(1L, NominatimShapes.placeId(a)), NominatimRequests.XmlContext.NONE);
    Outcome shown = NominatimShapes.present(new Outcome.Found(a), Direction.FORWARD, o);
    assertThat(shown).isInstanceOf(Outcome.NotFound.class);
    assertThat(((Outcome.NotFound) shown).answer().notice()).contains("exclude_place_ids");
    assertThat(read(NominatimShapes.render(new Outcome.Found(a), Direction.FORWARD, o), format, Direction.FORWARD).places()).isEmpty();
    assertThat(NominatimShapes.present(new Outcome.Found(a), Direction.REVERSE, o)).as("reverse has no exclusions")
        .isInstanceOf(Outcome.Found.class);
    NominatimRequests.Options other = new NominatimRequests.Options(o.format(), false, 10, "q", List.of(1L), NominatimRequests.XmlContext.NONE);
    assertThat(read(NominatimShapes.render(new Outcome.Found(a), Direction.FORWARD, other), format, Direction.FORWARD).places()).hasSize(1);
  }

  private static void assertError(Rendered r, int status) {
    assertThat(r.status()).isEqualTo(status);
    JsonObject e = new JsonObject(r.text()).getJsonObject("error");
    assertThat(e.getInteger("code")).isEqualTo(status);
    assertThat(e.getString("message")).isNotBlank();
    assertThat(r.contentType()).isEqualTo(Rendered.JSON);
  }
}
