package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Real provider formats through the whole stack: stand-ins serve recorded responses (see
 * src/test/resources/fixtures/providers/SOURCES.md), and answers leave in EPSG:4326 whatever CRS
 * the provider used.
 */
@ExtendWith(VertxExtension.class)
class ProviderFormatScenarioTest {

  static String fixture(String path) {
    try (InputStream in = ProviderFormatScenarioTest.class.getResourceAsStream("/fixtures/providers/" + path)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException | NullPointerException e) {
      throw new IllegalStateException("missing fixture " + path, e);
    }
  }

  static FakeProvider.Respond body(String path) {
    return new FakeProvider.Respond(200, fixture(path), MultiMap.caseInsensitiveMultiMap().add("content-type", "application/json"), 0);
  }

  @Test
  @DisplayName("a Nominatim tier answers from its jsonv2 body, rounded to 7 decimals, with claim open_data")
  void nominatimEndToEnd(Vertx vertx) {
    FakeProvider osm = FakeProvider.start(vertx, body("nominatim/search-jsonv2-10-downing-st-london-en.json")).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("osm", "nominatim", osm.url(), "open_data", 1000, "headers: { User-Agent: \"georesolver-test/1\" }")
        .yaml()).await();

    JsonObject j = s.geocode("10 Downing St, London, UK").await().bodyAsJsonObject();

    assertThat(j.getString("claim")).isEqualTo("open_data");
    assertThat(j.getDouble("lat")).isEqualTo(51.5034403);
    assertThat(j.getDouble("lon")).isEqualTo(-0.1277082);
    assertThat(osm.seen().get(0).path()).isEqualTo("/search");
    assertThat(osm.seen().get(0).query().get("format")).isEqualTo("jsonv2");
    assertThat(osm.seen().get(0).headers().get("User-Agent")).isEqualTo("georesolver-test/1");
  }

  @Test
  @DisplayName("a Google tier's ZERO_RESULTS is a no-match and OVER_QUERY_LIMIT a quota failure, both on HTTP 200")
  void googleStatusesOnHttp200(Vertx vertx) {
    FakeProvider google = FakeProvider.start(vertx, body("google/geocode-zero-results.json")).await();
    FakeProvider osm = FakeProvider.start(vertx, body("nominatim/search-jsonv2-no-results.json")).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("google", "google", google.url() + "/maps/api/geocode/json", "exact", 1000, "credential: { env: GKEY }")
        .tier("osm", "nominatim", osm.url(), "open_data", 1000)
        .yaml(), Map.of("GKEY", "g-test-key"), java.time.Clock.systemUTC(), Map.of()).await();

    JsonObject none = s.geocode("jsajhgsdkfjhsfkjhaldkadjaslgldasd").await().bodyAsJsonObject();
    assertThat(none.getString("reason")).isEqualTo("not_found");
    assertThat(google.seen().get(0).query().get("key")).isEqualTo("g-test-key");

    google.behave(body("google/error-over-query-limit.json"));
    JsonObject quota = s.geocode("Madison Square Garden").await().bodyAsJsonObject();
    assertThat(quota.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("quota");

    google.behave(body("google/geocode-madison-square-garden-rooftop.json"));
    JsonObject hit = s.geocode("Madison Square Garden, New York").await().bodyAsJsonObject();
    assertThat(hit.getString("resolution_source")).isEqualTo("google");
    assertThat(hit.getDouble("lat")).isEqualTo(40.750354);
    assertThat(hit.getDouble("lon")).isEqualTo(-73.993371);
    assertThat(hit.getString("precision")).isEqualTo("rooftop");
  }

  @Test
  @DisplayName("an answer in EPSG:3857 leaves in EPSG:4326 with a transform naming the source CRS")
  void webMercatorIsTransformed(Vertx vertx) {
    // Hannover (9.73815, 52.37227) in EPSG:3857, as PROJ's cs2cs computes it.
    FakeProvider p = FakeProvider.start(vertx, json(generic(1084045.8993, 6867718.5720, "EPSG:3857", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest().tier("p", "generic", p.url(), "exact", 1000).yaml()).await();
    JsonObject j = s.geocode("Hannover").await().bodyAsJsonObject();
    assertThat(j.getDouble("lon")).isCloseTo(9.73815, org.assertj.core.data.Offset.offset(1e-5));
    assertThat(j.getDouble("lat")).isCloseTo(52.37227, org.assertj.core.data.Offset.offset(1e-5));
    assertThat(j.getString("crs")).isEqualTo("EPSG:4326");
    assertThat(j.getJsonObject("transform").getString("source_crs")).isEqualTo("EPSG:3857");
    assertThat(j.getJsonObject("transform").getString("definition_hash")).matches("[0-9a-f]{12}");
  }

  @Test
  @DisplayName("an ArcGIS body in wkid 102100 is read as Web Mercator")
  void arcgisWkid102100(Vertx vertx) {
    String body = new JsonObject()
        .put("spatialReference", new JsonObject().put("wkid", 102100).put("latestWkid", 3857))
        .put("candidates", new io.vertx.core.json.JsonArray().add(new JsonObject()
            .put("address", "Hannover, Niedersachsen")
            .put("location", new JsonObject().put("x", 1084045.8993).put("y", 6867718.5720))
            .put("score", 100)
            .put("attributes", new JsonObject().put("Addr_type", "Locality"))))
        .encode();
    FakeProvider p = FakeProvider.start(vertx, new FakeProvider.Respond(200, body, MultiMap.caseInsensitiveMultiMap(), 0)).await();
    Stack s = Stack.deploy(vertx, manifest().tier("esri", "arcgis", p.url(), "exact", 1000, "schema_validation: relaxed").yaml()).await();
    JsonObject j = s.geocode("Hannover").await().bodyAsJsonObject();
    assertThat(j.getString("status")).as(j.encode()).isEqualTo("resolved");
    assertThat(j.getDouble("lat")).isCloseTo(52.37227, org.assertj.core.data.Offset.offset(1e-5));
    assertThat(j.getJsonObject("transform").getString("source_crs")).isEqualTo("EPSG:3857");
  }

  @Test
  @DisplayName("an answer outside the requested bbox is out_of_bbox, uncounted, and the walk moves on")
  void outsideBbox(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(-97.0, 33.0, "EPSG:4326", 0.9))).await();
    FakeProvider q = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.7))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("p", "generic", p.url(), "exact", 1000, "circuit_breaker: { failure_threshold: 1 }")
        .tier("q", "generic", q.url(), "open_data", 1000)
        .yaml()).await();
    JsonObject j = s.geocode("Paris", "bbox", "2,48,3,49").await().bodyAsJsonObject();
    assertThat(j.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("out_of_bbox");
    assertThat(j.getString("resolution_source")).isEqualTo("q");
    JsonObject again = s.geocode("Paris, TX", "bbox", "2,48,3,49").await().bodyAsJsonObject();
    assertThat(again.getJsonArray("attempts").getJsonObject(0).getString("outcome")).as("breaker still closed").isEqualTo("out_of_bbox");
  }

  @Test
  @DisplayName("a tier's outbound rate limit skips the rung without a call once exhausted")
  void rateLimit(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    FakeProvider q = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.7))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("p", "generic", p.url(), "exact", 1000, "rate_limit_per_s: 1")
        .tier("q", "generic", q.url(), "open_data", 1000)
        .yaml()).await();
    assertThat(s.geocode("first").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("p");
    JsonObject second = s.geocode("second").await().bodyAsJsonObject();
    assertThat(second.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("skipped_rate_limited");
    assertThat(second.getString("resolution_source")).isEqualTo("q");
    assertThat(p.count()).isEqualTo(1);
  }
}
