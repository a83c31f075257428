package dev.georesolver.issues;

import dev.georesolver.geo.GreatCircle;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Issue 27, item 4: a sampled replay old enough is asked again of its own rung; moved past the threshold, it becomes a {@code reason: drift} correction on the feed, and the cache serves the new point. */
@ExtendWith(VertxExtension.class)
class Issue27DriftCorrectionTest {

  static final double LON = 2.35;
  static final double LAT = 48.85;

  /** {@code metres} east of (LON, LAT) on the sphere distances are measured on. */
  static double east(double metres) {
    return LON + Math.toDegrees(metres / (GreatCircle.EARTH_RADIUS_M * Math.cos(Math.toRadians(LAT))));
  }

  private FakeProvider primary;

  private Stack deploy(Vertx vertx) {
    primary = FakeProvider.start(vertx, json(generic(LON, LAT, "EPSG:4326", 0.95))).await();
    String yaml = ManifestBuilder.manifest().budget(6000).maxBudget(10_000)
        .tier("primary", "generic", primary.url(), "exact", 600, "typical_ms: 20")
        .extra("shadow: { sample_rate: 1.0, max_per_s: 1000, drift: { min_age_s: 1, moved_m: 250 } }\n").yaml();
    return Stack.deploy(vertx, yaml, Map.of(), Clock.systemUTC(), Map.of()).await();
  }

  private static JsonArray corrections(Stack s) {
    var r = s.get("/v1/corrections").await();
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonArray("corrections");
  }

  private static String metric(Stack s, String outcome) {
    String prefix = "georesolver_shadow_drift_total{outcome=\"" + outcome + "\",tier=\"primary\"} ";
    return s.get("/metrics").await().bodyAsString().lines().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> l.substring(prefix.length())).orElse("0.0");
  }

  @Test
  @DisplayName("the provider now places the address 500 m east: the replay leaves unchanged, then a drift correction of 500 m is on the feed and the next replay has the new point")
  void aMovedAnswerIsCorrected(Vertx vertx) throws Exception {
    Stack s = deploy(vertx);
    JsonObject first = s.geocode("10 Rue de Rivoli, Paris").await().bodyAsJsonObject();
    assertThat(first.getDouble("lon")).isEqualTo(LON);
    Thread.sleep(1200);
    primary.behave(json(generic(east(500), LAT, "EPSG:4326", 0.95)));
    int calls = primary.count();

    JsonObject replay = s.geocode("10 Rue de Rivoli, Paris").await().bodyAsJsonObject();
    assertThat(replay.getBoolean("replayed")).as(replay.encode()).isTrue();
    assertThat(replay.getDouble("lon")).as("the reply is never changed by its check").isEqualTo(LON);

    JsonArray feed = corrections(s);
    for (int i = 0; i < 200 && feed.isEmpty(); i++) {
      Thread.sleep(25);
      feed = corrections(s);
    }
    assertThat(feed).as("one drift correction").hasSize(1);
    JsonObject c = feed.getJsonObject(0);
    assertThat(c.getString("reason")).isEqualTo("drift");
    assertThat(c.getDouble("moved_m")).isCloseTo(500.0, within(1.0));
    assertThat(c.getJsonObject("before").getDouble("lon")).isEqualTo(LON);
    assertThat(c.getJsonObject("before").getString("resolution_source")).isEqualTo("primary");
    assertThat(c.getJsonObject("after").getDouble("lon")).isCloseTo(east(500), within(1e-6));
    assertThat(primary.count()).as("one drift check: the rung that produced the answer, asked once").isEqualTo(calls + 1);
    assertThat(metric(s, "moved")).isEqualTo("1.0");

    JsonObject again = null;
    for (int i = 0; i < 200; i++) {
      again = s.geocode("10 Rue de Rivoli, Paris").await().bodyAsJsonObject();
      if (again.getDouble("lon") != LON) {
        break;
      }
      Thread.sleep(25);
    }
    assertThat(again.getBoolean("replayed")).as(again.encode()).isTrue();
    assertThat(again.getDouble("lon")).as("the cache corrected itself").isCloseTo(east(500), within(1e-6));
  }

  @Test
  @DisplayName("moved 100 m (under the 250 m threshold), or found nothing now: checked and counted, never corrected")
  void aSteadyOrMissingAnswerIsNotCorrected(Vertx vertx) throws Exception {
    Stack s = deploy(vertx);
    s.geocode("11 Rue de Rivoli, Paris").await();
    s.geocode("12 Rue de Rivoli, Paris").await();
    Thread.sleep(1200);
    primary.behave(json(generic(east(100), LAT, "EPSG:4326", 0.95)));
    s.geocode("11 Rue de Rivoli, Paris").await();
    for (int i = 0; i < 200 && !metric(s, "steady").equals("1.0"); i++) {
      Thread.sleep(25);
    }
    assertThat(metric(s, "steady")).isEqualTo("1.0");
    primary.behave(json(new JsonObject()));
    s.geocode("12 Rue de Rivoli, Paris").await();
    for (int i = 0; i < 200 && metric(s, "not_found").equals("0.0") && metric(s, "failed").equals("0.0"); i++) {
      Thread.sleep(25);
    }
    assertThat(metric(s, "not_found")).isEqualTo("1.0");
    assertThat(corrections(s)).isEmpty();
    assertThat(metric(s, "moved")).isEqualTo("0.0");
  }
}
