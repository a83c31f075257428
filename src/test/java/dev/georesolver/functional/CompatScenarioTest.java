package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.NominatimBodies;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.w3c.dom.Element;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The Nominatim- and Google-compatible endpoints over HTTP, through the whole ladder. */
@ExtendWith(VertxExtension.class)
class CompatScenarioTest {

  private StandInLadder ladder;
  private Stack stack;

  @BeforeEach
  void start(Vertx vertx) {
    ladder = StandInLadder.start(vertx);
    stack = Stack.deploy(vertx, ladder.manifestYaml("notice: \"Données ouvertes via {tier}, \"")).await();
  }

  private HttpResponse<Buffer> get(String pathAndQuery) {
    return stack.get(pathAndQuery).await();
  }

  private static void assertCommonHeaders(HttpResponse<Buffer> r) {
    assertCommonHeaders(r, "json");
  }

  private static void assertCommonHeaders(HttpResponse<Buffer> r, String format) {
    assertThat(r.getHeader("Content-Type")).isEqualTo(format.equals("xml") ? "text/xml; charset=utf-8" : "application/json; charset=utf-8");
    assertThat(r.getHeader("Access-Control-Allow-Origin")).isEqualTo("*");
    assertThat(r.getHeader("Access-Control-Expose-Headers")).contains("X-Georesolver-Claim", "X-Georesolver-Notice");
    assertThat(r.getHeader("X-Georesolver-Claim")).isNotNull();
    assertThat(r.getHeader("X-Georesolver-Source")).isNotNull();
    assertThat(r.getHeader("X-Georesolver-Degraded")).isIn("true", "false");
    assertThat(r.getHeader("X-Georesolver-Notice")).isNotNull().matches("[\\x20-\\x7e]*");
  }

  @Test
  @DisplayName("Nominatim search: the place in Nominatim's shape, the claim in the headers, unknown parameters ignored")
  void nominatimSearch() {
    HttpResponse<Buffer> r = get("/search?q=10%20Downing%20St%2C%20London&format=json&addressdetails=1&osmServer=x&email=a%40b.c&polygon_geojson=0");
    assertThat(r.statusCode()).isEqualTo(200);
    assertCommonHeaders(r);
    assertThat(r.getHeader("X-Georesolver-Claim")).isEqualTo("exact");
    assertThat(r.getHeader("X-Georesolver-Source")).isEqualTo("commercial");
    assertThat(r.getHeader("X-Georesolver-Degraded")).isEqualTo("false");
    JsonObject p = new JsonArray(r.bodyAsString()).getJsonObject(0);
    assertThat(Double.parseDouble(p.getString("lat"))).isCloseTo(51.5034, within(0.001));
    assertThat(p.getString("display_name")).isEqualTo("10 Downing St, Westminster, London SW1A 2AB, UK");
    assertThat(p.getJsonObject("address")).isNotNull();
    assertThat(p.getJsonArray("boundingbox")).hasSize(4);
  }

  @Test
  @DisplayName("+ and %20 are both a space: the second spelling is the same request, replayed from the store and rendered the same")
  void plusAndPercent20() {
    JsonArray first = new JsonArray(get("/search?q=10+Downing+St,+London&format=jsonv2").bodyAsString());
    int calls = ladder.google.count();
    JsonArray second = new JsonArray(get("/search?q=10%20Downing%20St%2C%20London&format=jsonv2").bodyAsString());
    assertThat(ladder.google.count()).as("answered from the store, no new upstream call").isEqualTo(calls);
    assertThat(second).isEqualTo(first);
    JsonObject v1 = stack.geocode("10 Downing St, London").await().bodyAsJsonObject();
    assertThat(v1.getBoolean("replayed")).as("the compatible request is the /v1 request: same key").isTrue();
  }

  @Test
  @DisplayName("a degraded answer is never ROOFTOP: the open-data rung's building is GEOMETRIC_CENTER, and the headers say degraded")
  void degradedNeverRooftop() {
    HttpResponse<Buffer> r = get("/maps/api/geocode/json?address=1+Degraded+Road&sensor=false&key=anything");
    assertThat(r.statusCode()).isEqualTo(200);
    assertCommonHeaders(r);
    JsonObject b = r.bodyAsJsonObject();
    assertThat(b.getString("status")).isEqualTo("OK");
    JsonObject res = b.getJsonArray("results").getJsonObject(0);
    assertThat(res.getJsonObject("geometry").getString("location_type")).isEqualTo("GEOMETRIC_CENTER");
    assertThat(r.getHeader("X-Georesolver-Degraded")).isEqualTo("true");
    assertThat(r.getHeader("X-Georesolver-Claim")).isEqualTo("open_data");
    assertThat(URLDecoder.decode(r.getHeader("X-Georesolver-Notice"), StandardCharsets.UTF_8))
        .as("a non-ASCII notice travels percent-encoded").isEqualTo("Données ouvertes via osm,");

    JsonObject exact = get("/maps/api/geocode/json?address=10+Downing+St").bodyAsJsonObject();
    assertThat(exact.getJsonArray("results").getJsonObject(0).getJsonObject("geometry").getString("location_type"))
        .isEqualTo("ROOFTOP");
  }

  @Test
  @DisplayName("no result: Nominatim [] and {\"error\":\"Unable to geocode\"}, Google ZERO_RESULTS, all HTTP 200")
  void noResult() {
    HttpResponse<Buffer> s = get("/search?q=1+Nowhere+Lane&format=json");
    assertThat(s.statusCode()).isEqualTo(200);
    assertThat(s.bodyAsString()).isEqualTo("[]");
    assertCommonHeaders(s);
    HttpResponse<Buffer> rev = get("/reverse?lat=0.5&lon=0.5&format=json");
    assertThat(rev.statusCode()).isEqualTo(200);
    assertThat(rev.bodyAsJsonObject()).isEqualTo(new JsonObject().put("error", "Unable to geocode"));
    JsonObject g = get("/maps/api/geocode/json?address=1+Nowhere+Lane").bodyAsJsonObject();
    assertThat(g.getString("status")).isEqualTo("ZERO_RESULTS");
    assertThat(g.getJsonArray("results")).isEmpty();
  }

  @Test
  @DisplayName("every rung failing: Nominatim 503 in its error JSON, Google UNKNOWN_ERROR with HTTP 200 — never an empty success")
  void outage() {
    HttpResponse<Buffer> s = get("/search?q=1+Outage+Street&format=json");
    assertThat(s.statusCode()).isEqualTo(503);
    assertCommonHeaders(s);
    assertThat(s.bodyAsJsonObject().getJsonObject("error").getInteger("code")).isEqualTo(503);
    assertThat(s.getHeader("X-Georesolver-Notice")).startsWith("No rung could answer");
    assertThat(get("/reverse?lat=1.5&lon=1.5").statusCode()).isEqualTo(503);
    HttpResponse<Buffer> g = get("/maps/api/geocode/json?address=1+Outage+Street");
    assertThat(g.statusCode()).isEqualTo(200);
    assertThat(g.bodyAsJsonObject().getString("status")).isEqualTo("UNKNOWN_ERROR");
    assertThat(g.bodyAsJsonObject().getString("error_message")).startsWith("No rung could answer");
  }

  @Test
  @DisplayName("bad input: Nominatim's error JSON with 400 (never problem+json); Google INVALID_REQUEST with HTTP 200")
  void badInput() {
    HttpResponse<Buffer> n = get("/reverse?lon=2.35&format=json");
    assertThat(n.statusCode()).isEqualTo(400);
    assertCommonHeaders(n);
    assertThat(n.bodyAsJsonObject()).isEqualTo(new JsonObject().put("error",
        new JsonObject().put("code", 400).put("message", "Parameter 'lat' missing.")));
    assertThat(get("/reverse?lat=91&lon=0&format=json").bodyAsJsonObject().getJsonObject("error").getString("message"))
        .isEqualTo("Parameter 'lat' must be a number in [-90, 90].");
    HttpResponse<Buffer> g = get("/maps/api/geocode/json?key=k");
    assertThat(g.statusCode()).isEqualTo(200);
    assertThat(g.bodyAsJsonObject().getString("status")).isEqualTo("INVALID_REQUEST");
  }

  @Test
  @DisplayName("reverse through the ladder in jsonv2 and geocodejson")
  void reverse() {
    HttpResponse<Buffer> r = get("/reverse?lat=48.8631&lon=2.3889&zoom=18&format=jsonv2");
    assertThat(r.statusCode()).isEqualTo(200);
    JsonObject p = r.bodyAsJsonObject();
    assertThat(p.getString("display_name")).isEqualTo("12 Avenue Gambetta, 75020 Paris, France");
    assertThat(p.getString("category")).isEqualTo("place");
    JsonObject fc = get("/reverse?lat=48.8631&lon=2.3889&format=geocodejson").bodyAsJsonObject();
    assertThat(fc.getJsonArray("features").getJsonObject(0).getJsonObject("properties").getJsonObject("geocoding")
        .getString("label")).isEqualTo("12 Avenue Gambetta, 75020 Paris, France");
  }

  private NominatimBodies.Body read(String format, boolean reverse, HttpResponse<Buffer> r) {
    assertCommonHeaders(r, format);
    return NominatimBodies.read(format, reverse, r.bodyAsString());
  }

  @ParameterizedTest
  @MethodSource("dev.georesolver.support.NominatimBodies#formats")
  @DisplayName("every Nominatim format over HTTP: the place, no result, the reverse miss, bad input and the outage, each in that format with the honesty headers")
  void nominatimContract(String format) {
    HttpResponse<Buffer> s = get("/search?q=10+Downing+St,+London&addressdetails=1&format=" + format);
    assertThat(s.statusCode()).isEqualTo(200);
    assertThat(s.getHeader("X-Georesolver-Claim")).isEqualTo("exact");
    assertThat(s.getHeader("X-Georesolver-Source")).isEqualTo("commercial");
    NominatimBodies.Body sb = read(format, false, s);
    assertThat(sb.places()).hasSize(1);
    NominatimBodies.Place p = sb.places().get(0);
    assertThat(p.lat()).isCloseTo(51.5034, within(0.001));
    assertThat(p.displayName()).isEqualTo("10 Downing St, Westminster, London SW1A 2AB, UK");
    assertThat(p.address()).as("the commercial rung's components")
        .containsEntry(format.equals("geocodejson") ? "level2" : "country_code", format.equals("geocodejson") ? "United Kingdom" : "gb");

    HttpResponse<Buffer> r = get("/reverse?lat=48.8631&lon=2.3889&zoom=18&format=" + format);
    assertThat(r.statusCode()).isEqualTo(200);
    NominatimBodies.Body rb = read(format, true, r);
    assertThat(rb.places()).hasSize(1);
    assertThat(rb.places().get(0).displayName()).isEqualTo("12 Avenue Gambetta, 75020 Paris, France");
    assertThat(rb.places().get(0).address()).as("reverse's addressdetails default is 1")
        .containsEntry(format.equals("geocodejson") ? "level2" : "country_code", format.equals("geocodejson") ? "France" : "fr");

    HttpResponse<Buffer> none = get("/search?q=1+Nowhere+Lane&format=" + format);
    assertThat(none.statusCode()).isEqualTo(200);
    assertThat(read(format, false, none).places()).isEmpty();
    HttpResponse<Buffer> miss = get("/reverse?lat=0.5&lon=0.5&format=" + format);
    assertThat(miss.statusCode()).isEqualTo(200);
    assertThat(read(format, true, miss).unableToGeocode()).isTrue();

    HttpResponse<Buffer> bad = get("/reverse?lon=2.35&format=" + format);
    assertThat(bad.statusCode()).isEqualTo(400);
    NominatimBodies.Body badBody = read(format, true, bad);
    assertThat(badBody.errorCode()).isEqualTo(400);
    assertThat(badBody.errorMessage()).isEqualTo("Parameter 'lat' missing.");
    assertThat(read(format, false, get("/search?q=x&limit=many&format=" + format)).errorMessage())
        .isEqualTo("Parameter 'limit' must be a number.");

    HttpResponse<Buffer> outage = get("/search?q=1+Outage+Street&format=" + format);
    assertThat(outage.statusCode()).isEqualTo(503);
    assertThat(read(format, false, outage).errorCode()).isEqualTo(503);
    assertThat(outage.getHeader("X-Georesolver-Notice")).startsWith("No rung could answer");
  }

  @Test
  @DisplayName("Nominatim XML takes the JSON parameters: the same request (replayed, no new upstream call), limit, polygon_* ignored, countrycodes, viewbox/bounded, accept-language")
  void nominatimXmlParameters() {
    String q = "/search?q=10+Downing+St&countrycodes=gb&accept-language=de&viewbox=-0.2,51.6,0.1,51.4&bounded=1&limit=1";
    HttpResponse<Buffer> x = get(q + "&format=xml&polygon_geojson=1&polygon_kml=1&polygon_svg=1&polygon_text=1&polygon_threshold=0.1");
    assertThat(x.statusCode()).isEqualTo(200);
    FakeProvider.Seen asked = ladder.google.seen().get(ladder.google.seen().size() - 1);
    assertThat(asked.query().get("address")).isEqualTo("10 Downing St, United Kingdom");
    assertThat(asked.query().get("language")).isEqualTo("de");
    assertThat(asked.query().get("bounds")).isEqualTo("51.4,-0.2|51.6,0.1");
    Element root = NominatimBodies.parseXml(x.bodyAsString()).getDocumentElement();
    assertThat(root.getAttribute("querystring")).isEqualTo("10 Downing St");
    assertThat(root.getAttribute("viewbox")).isEqualTo("-0.2,51.4,0.1,51.6");
    List<Element> places = NominatimBodies.children(root);
    assertThat(places).hasSize(1);
    assertThat(NominatimBodies.attributes(places.get(0))).as("polygon_* accepted, no geometry written")
        .doesNotContainKeys("geojson", "geotext", "geosvg", "geokml");
    assertThat(NominatimBodies.children(places.get(0))).isEmpty();

    int calls = ladder.google.count() + ladder.nominatim.count();
    for (String format : NominatimBodies.FORMATS) {
      HttpResponse<Buffer> same = get(q + "&format=" + format);
      assertThat(read(format, false, same).places()).as(format).hasSize(1);
    }
    assertThat(ladder.google.count() + ladder.nominatim.count()).as("every format is the same request: replayed").isEqualTo(calls);
    assertThat(get(q + "&format=xml").bodyAsString()).as("a replay renders what the first answer rendered").isEqualTo(x.bodyAsString());

    assertThat(NominatimBodies.read("xml", false, get("/search?q=10+Downing+St&limit=50&format=xml").bodyAsString()).places()).hasSize(1);
    HttpResponse<Buffer> elsewhere = get("/search?q=10+Downing+St&viewbox=2.2,48.8,2.5,48.9&bounded=1&format=xml");
    assertThat(elsewhere.statusCode()).isEqualTo(200);
    assertThat(NominatimBodies.read("xml", false, elsewhere.bodyAsString()).places()).as("bounded: nothing inside the box").isEmpty();
  }

  @Test
  @DisplayName("Nominatim XML: more_url is the same search at this server excluding the place returned, and following it ends in an empty result")
  void nominatimXmlMoreUrl() {
    HttpResponse<Buffer> first = get("/search?q=10+Downing+St,+London&format=xml&addressdetails=1");
    Element root = NominatimBodies.parseXml(first.bodyAsString()).getDocumentElement();
    String placeId = NominatimBodies.children(root).get(0).getAttribute("place_id");
    assertThat(root.getAttribute("exclude_place_ids")).isEqualTo(placeId);
    String more = root.getAttribute("more_url");
    assertThat(more).isEqualTo("http://localhost:" + stack.port + "/search?q=10+Downing+St%2C+London&addressdetails=1&exclude_place_ids="
        + placeId + "&format=xml");
    HttpResponse<Buffer> next = stack.client.getAbs(more).send().await();
    assertThat(next.statusCode()).isEqualTo(200);
    assertThat(next.getHeader("X-Georesolver-Claim")).isEqualTo("none");
    assertThat(next.getHeader("X-Georesolver-Notice")).contains("exclude_place_ids");
    Element nextRoot = NominatimBodies.parseXml(next.bodyAsString()).getDocumentElement();
    assertThat(NominatimBodies.children(nextRoot)).isEmpty();
    assertThat(nextRoot.getAttribute("exclude_place_ids")).isEqualTo(placeId);
    JsonArray json = new JsonArray(get("/search?q=10+Downing+St,+London&format=json&exclude_place_ids=" + placeId).bodyAsString());
    assertThat(json).as("the exclusion holds in every format").isEmpty();
  }

  @Test
  @DisplayName("Nominatim /reverse answers XML when no format is asked, as Nominatim does; more_url names this server only by a well-formed Host")
  void nominatimReverseDefaultsToXml() {
    HttpResponse<Buffer> r = get("/reverse?lat=48.8631&lon=2.3889");
    assertThat(r.getHeader("Content-Type")).isEqualTo("text/xml; charset=utf-8");
    Element root = NominatimBodies.parseXml(r.bodyAsString()).getDocumentElement();
    assertThat(root.getTagName()).isEqualTo("reversegeocode");
    assertThat(root.getAttribute("querystring")).isEqualTo("lat=48.8631&lon=2.3889&format=xml");
    assertThat(NominatimBodies.children(root)).extracting(Element::getTagName).containsExactly("result", "addressparts");

    assertThat(moreUrl("geo.example:8443")).as("the origin the client asked").startsWith("http://geo.example:8443/search?q=");
    assertThat(moreUrl("under_score.example")).as("a Host this server would not name itself by: relative").startsWith("/search?q=");
    HttpResponse<Buffer> markup = stack.client.get(stack.port, "localhost", "/search?q=10+Downing+St&format=xml")
        .putHeader("Host", "evil.example\"><x a=\"").send().await();
    assertThat(markup.statusCode()).as("markup in Host is refused by the HTTP server before any dialect").isEqualTo(400);
  }

  private String moreUrl(String host) {
    HttpResponse<Buffer> r = stack.client.get(stack.port, "localhost", "/search?q=10+Downing+St&format=xml").putHeader("Host", host)
        .send().await();
    assertThat(r.statusCode()).isEqualTo(200);
    return NominatimBodies.parseXml(r.bodyAsString()).getDocumentElement().getAttribute("more_url");
  }

  @Test
  @DisplayName("CORS preflight: 204 allowing GET from any origin with the key and language headers")
  void preflight() {
    for (String path : new String[] {"/search", "/reverse", "/maps/api/geocode/json"}) {
      HttpResponse<Buffer> r = stack.client.request(HttpMethod.OPTIONS, stack.port, "localhost", path)
          .putHeader("Origin", "https://maps.example")
          .putHeader("Access-Control-Request-Method", "GET")
          .putHeader("Access-Control-Request-Headers", "authorization,accept-language").send().await();
      assertThat(r.statusCode()).as(path).isEqualTo(204);
      assertThat(r.getHeader("Access-Control-Allow-Origin")).isEqualTo("*");
      assertThat(r.getHeader("Access-Control-Allow-Methods")).contains("GET");
      assertThat(r.getHeader("Access-Control-Allow-Headers")).contains("Authorization", "Accept-Language");
    }
  }

  @Test
  @DisplayName("/status: OK in text, status 0 in JSON with the manifest revision")
  void status() {
    HttpResponse<Buffer> t = get("/status");
    assertThat(t.statusCode()).isEqualTo(200);
    assertThat(t.bodyAsString()).isEqualTo("OK");
    JsonObject j = get("/status?format=json").bodyAsJsonObject();
    assertThat(j.getInteger("status")).isZero();
    assertThat(j.getString("message")).isEqualTo("OK");
    assertThat(j.getString("database_version")).isEqualTo(stack.manifest.revision());
  }
}
