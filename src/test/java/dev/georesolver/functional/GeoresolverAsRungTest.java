package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * georesolver as a rung of georesolver: a global resolver whose open-data tier is a regional
 * georesolver reached through the ordinary {@code nominatim} adapter (its Nominatim-compatible
 * endpoints), above the global resolver's own gazetteer. Each resolver runs in its own Vert.x (its
 * own event bus), as two processes would.
 */
@ExtendWith(VertxExtension.class)
class GeoresolverAsRungTest {

  private Vertx regionalVertx;
  private StandInLadder regionalLadder;
  private Stack global;

  @BeforeEach
  void start(Vertx vertx) {
    regionalVertx = Vertx.vertx();
    regionalLadder = StandInLadder.start(regionalVertx);
    Stack regional = Stack.deploy(regionalVertx, regionalLadder.manifestYaml()).await();
    global = Stack.deploy(vertx, manifest()
        .tier("regional", "nominatim", "http://127.0.0.1:" + regional.port, "open_data", 1500,
            "retry_budget: 0", "schema_validation: \"strict\"")
        .tier("world_gazetteer", "gazetteer", null, "locality", 300)
        .yaml()).await();
  }

  @AfterEach
  void stop() {
    regionalVertx.close().await();
  }

  @Test
  @DisplayName("forward: the regional resolver's answer comes through its Nominatim face with its point, label and precision")
  void forward() {
    JsonObject r = global.geocode("10 Downing St, London").await().bodyAsJsonObject();
    assertThat(r.getString("status")).isEqualTo("resolved");
    assertThat(r.getString("resolution_source")).isEqualTo("regional");
    assertThat(r.getString("claim")).isEqualTo("open_data");
    assertThat(r.getBoolean("degraded")).isFalse();
    assertThat(r.getDouble("lat")).isCloseTo(51.5033635, within(1e-7));
    assertThat(r.getDouble("lon")).isCloseTo(-0.1276248, within(1e-7));
    assertThat(r.getString("label")).isEqualTo("10 Downing St, Westminster, London SW1A 2AB, UK");
    assertThat(r.getString("precision")).as("place_rank 30 reads back as rooftop").isEqualTo("rooftop");
    FakeProvider.Seen upstream = regionalLadder.google.seen().get(0);
    assertThat(upstream.query().get("address")).isEqualTo("10 Downing St, London");
  }

  @Test
  @DisplayName("reverse goes through the regional /reverse")
  void reverse() {
    JsonObject r = global.get("/v1/reverse?lat=48.8631&lon=2.3889").await().bodyAsJsonObject();
    assertThat(r.getString("status")).isEqualTo("resolved");
    assertThat(r.getString("resolution_source")).isEqualTo("regional");
    assertThat(r.getString("label")).isEqualTo("12 Avenue Gambetta, 75020 Paris, France");
  }

  @Test
  @DisplayName("the regional resolver's empty answer is a no-match for the global one, not a failure")
  void noMatch() {
    JsonObject r = global.geocode("1 Nowhere Lane, Xyzzyville").await().bodyAsJsonObject();
    assertThat(r.getString("status")).isEqualTo("refused");
    assertThat(r.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("no_match");
  }

  @Test
  @DisplayName("the regional resolver's outage (its 503) degrades the global one to its own gazetteer, honestly labelled")
  void regionalOutage() {
    JsonObject r = global.geocode("1 Outage Street, London").await().bodyAsJsonObject();
    assertThat(r.getString("status")).isEqualTo("resolved");
    assertThat(r.getString("resolution_source")).isEqualTo("world_gazetteer");
    assertThat(r.getString("claim")).isEqualTo("locality");
    assertThat(r.getBoolean("degraded")).isTrue();
    assertThat(r.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("transient");
  }
}
