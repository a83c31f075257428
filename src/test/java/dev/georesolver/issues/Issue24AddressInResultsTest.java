package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Proves issue 24's address components reach every answer: /v1, replays and the drop-in endpoints, forward and reverse. */
@ExtendWith(VertxExtension.class)
class Issue24AddressInResultsTest {

  private static FakeProvider.Respond fixture(String path) {
    try (InputStream in = Issue24AddressInResultsTest.class.getResourceAsStream("/fixtures/providers/" + path)) {
      return new FakeProvider.Respond(200, new String(in.readAllBytes(), StandardCharsets.UTF_8),
          MultiMap.caseInsensitiveMultiMap().add("content-type", "application/json"), 0);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A Nominatim stand-in answering every search and every reverse lookup with a recorded body. */
  private static FakeProvider.Behaviour nominatim(HttpServerRequest r) {
    return r.path().endsWith("/reverse")
        ? fixture("nominatim/reverse-jsonv2-48.86-2.35.json")
        : fixture("nominatim/search-jsonv2-10-downing-st-london-en.json");
  }

  private static Stack overNominatim(Vertx vertx) {
    FakeProvider osm = FakeProvider.start(vertx, Issue24AddressInResultsTest::nominatim).await();
    return Stack.deploy(vertx, manifest()
        .tier("osm", "nominatim", osm.url(), "open_data", 1500, "headers: { User-Agent: \"georesolver-test/1\" }")
        .yaml()).await();
  }

  /** The default ladder offline: the open-data rung unreachable, the cached index empty, the gazetteer answering. */
  private static Stack offline(Vertx vertx) {
    FakeProvider dead = FakeProvider.start(vertx, new FakeProvider.Reset()).await();
    return Stack.deploy(vertx, manifest()
        .tier("osm", "nominatim", dead.url(), "open_data", 1000)
        .tier("cache", "cached_index", null, "cached", 200, "typical_ms: 5")
        .tier("gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .yaml()).await();
  }

  @Test
  @DisplayName("a provider's components reach /v1/geocode, its replay, and the Nominatim and Google endpoints")
  void providerComponentsForward(Vertx vertx) {
    Stack s = overNominatim(vertx);

    JsonObject first = s.geocode("10 Downing St, London").await().bodyAsJsonObject();
    JsonObject a = first.getJsonObject("address");
    assertThat(a).as(first.encode()).isNotNull();
    assertThat(a.getString("house_number")).isEqualTo("10");
    assertThat(a.getString("road")).isEqualTo("Downing Street");
    assertThat(a.getString("postcode")).isEqualTo("SW1A 2AA");
    assertThat(a.getString("country_code")).isEqualTo("GB");

    JsonObject replay = s.geocode("10 Downing St, London").await().bodyAsJsonObject();
    assertThat(replay.getBoolean("replayed")).isTrue();
    assertThat(replay.getJsonObject("address")).isEqualTo(a);

    JsonObject nominatim = new JsonArray(s.get("/search?q=10+Downing+St,+London&format=jsonv2&addressdetails=1").await()
        .bodyAsString()).getJsonObject(0).getJsonObject("address");
    assertThat(nominatim.getString("road")).isEqualTo("Downing Street");
    assertThat(nominatim.getString("postcode")).isEqualTo("SW1A 2AA");
    assertThat(nominatim.getString("country_code")).isEqualTo("gb");

    JsonArray google = s.get("/maps/api/geocode/json?address=10+Downing+St,+London").await().bodyAsJsonObject()
        .getJsonArray("results").getJsonObject(0).getJsonArray("address_components");
    assertThat(google.stream().map(o -> ((JsonObject) o).getJsonArray("types").getString(0)).toList())
        .contains("street_number", "route", "postal_code", "country");
    assertThat(google.stream().map(o -> (JsonObject) o)
        .filter(c -> c.getJsonArray("types").contains("country")).findFirst().orElseThrow().getString("short_name"))
        .isEqualTo("GB");
  }

  @Test
  @DisplayName("a provider's reverse components reach /v1/reverse and Nominatim's /reverse")
  void providerComponentsReverse(Vertx vertx) {
    Stack s = overNominatim(vertx);

    JsonObject j = s.get("/v1/reverse?lat=48.86&lon=2.35").await().bodyAsJsonObject();
    JsonObject a = j.getJsonObject("address");
    assertThat(a).as(j.encode()).isNotNull();
    assertThat(a.getString("country_code")).isEqualTo("FR");
    assertThat(a.getString("locality")).isEqualTo("Paris");

    JsonObject nominatim = s.get("/reverse?lat=48.86&lon=2.35&format=jsonv2").await().bodyAsJsonObject().getJsonObject("address");
    assertThat(nominatim.getString("country_code")).isEqualTo("fr");
  }

  @Test
  @DisplayName("offline, the gazetteer fills locality, region, country and country code, in /v1 and the drop-in endpoints")
  void gazetteerComponents(Vertx vertx) {
    Stack s = offline(vertx);

    JsonObject j = s.geocode("Sarajevo").await().bodyAsJsonObject();
    JsonObject a = j.getJsonObject("address");
    assertThat(a).as(j.encode()).isNotNull();
    assertThat(a.getString("locality")).isEqualTo("Sarajevo");
    assertThat(a.getString("country_code")).isEqualTo("BA");
    assertThat(a.getString("country")).isEqualTo("Bosnia and Herzegovina");
    assertThat(a.containsKey("region")).isTrue();

    JsonObject nominatim = new JsonArray(s.get("/search?q=Sarajevo&format=jsonv2&addressdetails=1").await().bodyAsString())
        .getJsonObject(0).getJsonObject("address");
    assertThat(nominatim.getString("city")).isEqualTo("Sarajevo");
    assertThat(nominatim.getString("country_code")).isEqualTo("ba");

    JsonArray google = s.get("/maps/api/geocode/json?address=Sarajevo").await().bodyAsJsonObject()
        .getJsonArray("results").getJsonObject(0).getJsonArray("address_components");
    assertThat(google).isNotEmpty();
    JsonObject country = google.stream().map(o -> (JsonObject) o)
        .filter(c -> c.getJsonArray("types").contains("country")).findFirst().orElseThrow();
    assertThat(country.getString("short_name")).isEqualTo("BA");

    JsonObject reverse = s.get("/v1/reverse?lat=48.8584&lon=2.2945").await().bodyAsJsonObject();
    assertThat(reverse.getJsonObject("address").getString("locality")).isEqualTo("Paris");
    assertThat(reverse.getJsonObject("address").getString("country_code")).isEqualTo("FR");

    JsonObject replay = s.geocode("Sarajevo").await().bodyAsJsonObject();
    assertThat(replay.getBoolean("replayed")).isTrue();
    assertThat(replay.getJsonObject("address")).isEqualTo(a);
  }
}
