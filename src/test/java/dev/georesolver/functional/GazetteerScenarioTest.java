package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.assertj.core.data.Offset;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The bottom live rung: with every provider failing, the bundled gazetteer answers city queries
 * honestly at city level, and refuses what names no place (issue 5's done-when, offline).
 */
@ExtendWith(VertxExtension.class)
class GazetteerScenarioTest {

  private Stack offline(Vertx vertx) {
    FakeProvider dead = FakeProvider.start(vertx, new FakeProvider.Reset()).await();
    return Stack.deploy(vertx, manifest()
        .tier("osm", "nominatim", dead.url(), "open_data", 1000)
        .tier("cache", "cached_index", null, "cached", 200, "typical_ms: 5")
        .tier("gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .yaml()).await();
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource(delimiter = '|', value = {
      "Springfield, Illinois | 39.80 | -89.64",
      "Paris, Texas          | 33.66 | -95.56",
      "São Paulo             | -23.55 | -46.64",
      "tokyo japan           | 35.69 | 139.69",
      "Portland, Maine       | 43.66 | -70.26",
      "Cape Town, South Africa | -33.93 | 18.42",
  })
  void cityQueriesAreAnsweredAtCityLevel(String q, double lat, double lon, Vertx vertx) {
    JsonObject j = offline(vertx).geocode(q).await().bodyAsJsonObject();
    assertThat(j.getString("status")).as(j.encode()).isEqualTo("resolved");
    assertThat(j.getString("claim")).isEqualTo("locality");
    assertThat(j.getString("resolution_source")).isEqualTo("gazetteer");
    assertThat(j.getString("notice")).isEqualTo("Working from the city centre only, ");
    assertThat(j.getBoolean("degraded")).isTrue();
    assertThat(j.getDouble("lat")).isCloseTo(lat, Offset.offset(0.1));
    assertThat(j.getDouble("lon")).isCloseTo(lon, Offset.offset(0.1));
  }

  @Test
  @DisplayName("a query naming no place is refused, never answered with a random city")
  void nonsenseIsRefused(Vertx vertx) {
    JsonObject j = offline(vertx).geocode("qwxzv plorkington").await().bodyAsJsonObject();
    assertThat(j.getString("status")).isEqualTo("refused");
    assertThat(j.getJsonArray("attempts").getJsonObject(2).getString("outcome")).isEqualTo("no_match");
  }

  @Test
  @DisplayName("a reverse lookup near the Eiffel Tower answers Paris with its distance")
  void reverseNearTheEiffelTower(Vertx vertx) {
    JsonObject j = offline(vertx).get("/v1/reverse?lat=48.8584&lon=2.2945").await().bodyAsJsonObject();
    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(j.getString("claim")).isEqualTo("locality");
    assertThat(j.getString("label")).startsWith("Paris");
    assertThat(j.getDouble("distance_m")).isBetween(1_000.0, 10_000.0);
  }

  @Test
  @DisplayName("an unqualified ambiguous name gets the most populous place at lower confidence than a qualified one")
  void ambiguityLowersConfidence(Vertx vertx) {
    Stack s = offline(vertx);
    JsonObject bare = s.geocode("Springfield").await().bodyAsJsonObject();
    JsonObject qualified = s.geocode("Springfield, Illinois").await().bodyAsJsonObject();
    assertThat(bare.getDouble("confidence")).isLessThan(qualified.getDouble("confidence"));
    JsonObject london = s.geocode("London").await().bodyAsJsonObject();
    assertThat(london.getString("label")).contains("United Kingdom");
  }
}
