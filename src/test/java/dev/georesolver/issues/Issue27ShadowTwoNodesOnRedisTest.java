package dev.georesolver.issues;

import dev.georesolver.geo.GreatCircle;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
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

/**
 * Issue 27, item 5: two resolvers (each its own Vert.x, as two machines) sharing one real Redis as
 * their state store merge their shadow figures, so each one's {@code /v1/shadow} shows every
 * sample of both, the same figures.
 */
@ExtendWith(VertxExtension.class)
class Issue27ShadowTwoNodesOnRedisTest {

  private static final double LON = 2.35;
  private static final double LAT = 48.85;
  private static final double EAST_120 = LON + Math.toDegrees(120 / (GreatCircle.EARTH_RADIUS_M * Math.cos(Math.toRadians(LAT))));

  private static JsonObject shadow(Stack s) {
    return s.get("/v1/shadow").await().bodyAsJsonObject();
  }

  private static JsonObject pair(JsonObject view) {
    return view.getJsonArray("pairs").stream().map(JsonObject.class::cast)
        .filter(p -> p.getString("served").equals("primary") && p.getString("shadow").equals("second")).findFirst().orElse(null);
  }

  private static long samples(Stack s) {
    JsonObject p = pair(shadow(s));
    return p == null ? 0 : p.getLong("samples");
  }

  @Test
  @DisplayName("10 answers sampled on node A and 7 on node B: both nodes' /v1/shadow show 17 samples at 120 ± 1 m, the same figures")
  void figuresMergeAcrossNodesOnRedis(Vertx vertx) throws Exception {
    Vertx other = Vertx.vertx();
    try (RedisServer redis = RedisServer.start()) {
      FakeProvider primary = FakeProvider.start(vertx, json(generic(LON, LAT, "EPSG:4326", 0.95))).await();
      FakeProvider second = FakeProvider.start(vertx, json(generic(EAST_120, LAT, "EPSG:4326", 0.9))).await();
      String yaml = ManifestBuilder.manifest().budget(6000).maxBudget(10_000)
          .tier("primary", "generic", primary.url(), "exact", 600, "typical_ms: 20")
          .tier("second", "generic", second.url(), "exact", 5000, "typical_ms: 20")
          .extra("state: { store: redis }\nshadow: { sample_rate: 1.0, max_per_s: 1000 }\n").yaml();
      Stack a = Stack.deploy(vertx, yaml, Map.of(), Clock.systemUTC(), Map.of(), redis.url()).await();
      Stack b = Stack.deploy(other, yaml, Map.of(), Clock.systemUTC(), Map.of(), redis.url()).await();
      for (int i = 1; i <= 10; i++) {
        assertThat(a.geocode(i + " Rue de Rivoli, Paris").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("primary");
      }
      for (int i = 11; i <= 17; i++) {
        assertThat(b.geocode(i + " Rue de Rivoli, Paris").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("primary");
      }
      // Each node writes what it counted once a second (and first when asked): wait for both to have written.
      for (int i = 0; i < 200 && (samples(a) < 17 || samples(b) < 17); i++) {
        Thread.sleep(50);
      }
      JsonObject onA = pair(shadow(a));
      JsonObject onB = pair(shadow(b));
      assertThat(onA).as("node A's view").isNotNull();
      assertThat(onA.getLong("samples")).isEqualTo(17);
      assertThat(onB.getLong("samples")).isEqualTo(17);
      assertThat(onA.getJsonObject("distance_m").getDouble("p50")).isCloseTo(120.0, within(1.0));
      assertThat(onB.getJsonObject("distance_m")).isEqualTo(onA.getJsonObject("distance_m"));
      assertThat(onB.getJsonObject("within_count")).isEqualTo(onA.getJsonObject("within_count"));
      assertThat(onB.getJsonObject("window")).isEqualTo(onA.getJsonObject("window"));
      assertThat(second.count()).as("one shadow call per answer, from both nodes").isEqualTo(17);
    } finally {
      other.close().await();
    }
  }
}
