package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.RedisServer;
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

import static dev.georesolver.issues.Issue27DriftCorrectionTest.LAT;
import static dev.georesolver.issues.Issue27DriftCorrectionTest.LON;
import static dev.georesolver.issues.Issue27DriftCorrectionTest.east;
import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Issue 27, items 4 and 5: two resolvers (each its own Vert.x) sharing one real Redis for stored
 * answers and state both find that a replayed answer moved; the store records one drift correction,
 * which both nodes' feeds show, and the other node's check counts as already known.
 */
@ExtendWith(VertxExtension.class)
class Issue27DriftTwoNodesOnRedisTest {

  private static String drift(Stack s, String outcome) {
    String prefix = "georesolver_shadow_drift_total{outcome=\"" + outcome + "\",tier=\"primary\"} ";
    return s.get("/metrics").await().bodyAsString().lines().filter(l -> l.startsWith(prefix)).findFirst()
        .map(l -> l.substring(prefix.length())).orElse("0.0");
  }

  private static double checks(Stack s) {
    return Double.parseDouble(drift(s, "moved")) + Double.parseDouble(drift(s, "known"));
  }

  private static JsonArray corrections(Stack s) {
    return s.get("/v1/corrections").await().bodyAsJsonObject().getJsonArray("corrections");
  }

  @Test
  @DisplayName("node A stored the answer; it moved 500 m; a replay on each node checks it: one drift correction on both feeds, one check moved and one known")
  void oneCorrectionWhateverTheNodes(Vertx vertx) throws Exception {
    Vertx other = Vertx.vertx();
    try (RedisServer redis = RedisServer.start()) {
      FakeProvider primary = FakeProvider.start(vertx, json(generic(LON, LAT, "EPSG:4326", 0.95))).await();
      String yaml = ManifestBuilder.manifest().budget(6000).maxBudget(10_000)
          .tier("primary", "generic", primary.url(), "exact", 600, "typical_ms: 20")
          .extra("state: { store: redis }\n"
              + "shadow: { sample_rate: 1.0, max_per_s: 1000, drift: { min_age_s: 1, moved_m: 250 } }\n").yaml();
      Stack a = Stack.deploy(vertx, yaml, Map.of(), Clock.systemUTC(), Map.of(), redis.url()).await();
      Stack b = Stack.deploy(other, yaml, Map.of(), Clock.systemUTC(), Map.of(), redis.url()).await();
      assertThat(a.geocode("10 Rue de Rivoli, Paris").await().bodyAsJsonObject().getDouble("lon")).isEqualTo(LON);
      Thread.sleep(1200);
      primary.behave(json(generic(east(500), LAT, "EPSG:4326", 0.95)));

      JsonObject onB = b.geocode("10 Rue de Rivoli, Paris").await().bodyAsJsonObject();
      JsonObject onA = a.geocode("10 Rue de Rivoli, Paris").await().bodyAsJsonObject();
      assertThat(onB.getBoolean("replayed")).as("node B replays node A's answer: %s", onB.encode()).isTrue();
      assertThat(onA.getBoolean("replayed")).as(onA.encode()).isTrue();
      for (int i = 0; i < 200 && checks(a) + checks(b) < 2; i++) {
        Thread.sleep(25);
      }
      assertThat(checks(a) + checks(b)).as("each node checked the replay it served").isEqualTo(2.0);
      assertThat(Double.parseDouble(drift(a, "moved")) + Double.parseDouble(drift(b, "moved"))).as("corrected once").isEqualTo(1.0);
      assertThat(Double.parseDouble(drift(a, "known")) + Double.parseDouble(drift(b, "known"))).as("found known once").isEqualTo(1.0);

      JsonArray feedA = corrections(a);
      JsonArray feedB = corrections(b);
      assertThat(feedA).as("one correction in the shared store").hasSize(1);
      assertThat(feedB).isEqualTo(feedA);
      assertThat(feedA.getJsonObject(0).getString("reason")).isEqualTo("drift");
      assertThat(feedA.getJsonObject(0).getDouble("moved_m")).isCloseTo(500.0, within(1.0));
    } finally {
      other.close().await();
    }
  }
}
