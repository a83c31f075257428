package dev.georesolver.functional;

import dev.georesolver.geo.GreatCircle;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.Map;
import java.util.function.Predicate;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Shadow sampling end to end: two real HTTP stand-ins whose answers lie 120 m apart (the second one
 * east of the first), the primary serving and the second asked in its shadow after each reply.
 */
@ExtendWith(VertxExtension.class)
class ShadowScenarioTest {

  static final double LON = 2.35;
  static final double LAT = 48.85;
  /** 120 m east of (LON, LAT) on the mean Earth sphere the distance is measured on. */
  static final double EAST_120 = LON + Math.toDegrees(120 / (GreatCircle.EARTH_RADIUS_M * Math.cos(Math.toRadians(LAT))));

  private FakeProvider primary;
  private FakeProvider second;

  private Stack deploy(Vertx vertx, String shadow, String secondFields, String extra, Map<String, String> env) {
    primary = FakeProvider.start(vertx, json(generic(LON, LAT, "EPSG:4326", 0.95))).await();
    second = FakeProvider.start(vertx, json(generic(EAST_120, LAT, "EPSG:4326", 0.9))).await();
    String yaml = ManifestBuilder.manifest().budget(6000).maxBudget(10_000)
        .tier("primary", "generic", primary.url(), "exact", 600, "typical_ms: 20", "region: eu")
        .tier("second", "generic", second.url(), "exact", 5000, "typical_ms: 20", secondFields)
        .extra(shadow + extra).yaml();
    return Stack.deploy(vertx, yaml, env, Clock.systemUTC(), Map.of()).await();
  }

  private static JsonObject shadow(Stack s, String... auth) {
    var r = s.client.get(s.port, "localhost", "/v1/shadow");
    if (auth.length > 0) {
      r.putHeader("Authorization", "Bearer " + auth[0]);
    }
    var resp = r.send().await();
    assertThat(resp.statusCode()).as(resp.bodyAsString()).isEqualTo(200);
    return resp.bodyAsJsonObject();
  }

  /** Asks for the figures until {@code done} holds of them (the shadow calls run after the replies). */
  private static JsonObject shadowUntil(Stack s, Predicate<JsonObject> done, String... auth) throws InterruptedException {
    JsonObject v = shadow(s, auth);
    for (int i = 0; i < 400 && !done.test(v); i++) {
      Thread.sleep(25);
      v = shadow(s, auth);
    }
    return v;
  }

  private static JsonObject pair(JsonObject view, String served, String shadow) {
    return view.getJsonArray("pairs").stream().map(JsonObject.class::cast)
        .filter(p -> p.getString("served").equals(served) && p.getString("shadow").equals(shadow)).findFirst().orElseThrow();
  }

  @Test
  @DisplayName("the second rung lands 120 m east of the primary: /v1/shadow and /metrics show 120 ± 1 m, every sample within 250 m and none within 50 m")
  void shouldMeasureTheKnownDistance(Vertx vertx) throws Exception {
    Stack s = deploy(vertx, "shadow: { sample_rate: 1.0, max_per_s: 1000 }\n", "region: global", "", Map.of());
    for (int i = 0; i < 20; i++) {
      JsonObject r = s.geocode((i + 1) + " Rue de Rivoli, Paris").await().bodyAsJsonObject();
      assertThat(r.getString("resolution_source")).isEqualTo("primary");
    }
    JsonObject view = shadowUntil(s, v -> v.getLong("samples") >= 20);

    JsonObject p = pair(view, "primary", "second");
    assertThat(p.getString("intent")).isEqualTo("describe");
    assertThat(p.getLong("samples")).isEqualTo(20);
    assertThat(p.getLong("both_found")).isEqualTo(20);
    assertThat(p.getJsonObject("distance_m").getDouble("p50")).isCloseTo(120.0, within(1.0));
    assertThat(p.getJsonObject("distance_m").getDouble("p99")).isCloseTo(120.0, within(1.0));
    assertThat(p.getJsonObject("within_m").getDouble("250")).isEqualTo(1.0);
    assertThat(p.getJsonObject("within_m").getDouble("50")).isEqualTo(0.0);
    assertThat(p.getDouble("found_disagreement")).isEqualTo(0.0);
    assertThat(p.getDouble("latency_ratio")).isPositive();
    assertThat(view.getJsonObject("window").getLong("first_ms")).isPositive();
    assertThat(second.count()).as("one shadow call per answer").isEqualTo(20);
    assertThat(second.seen().get(0).headers().get("Idempotency-Key")).as("the request's own key").isNotBlank();

    String metrics = s.get("/metrics").await().bodyAsString();
    assertThat(metrics).contains("georesolver_shadow_distance_meters_bucket{served=\"primary\",shadow=\"second\",le=\"250.0\"} 20");
    assertThat(metrics).contains("georesolver_shadow_distance_meters_bucket{served=\"primary\",shadow=\"second\",le=\"100.0\"} 0");
    assertThat(metrics).contains("georesolver_shadow_samples_total{served=\"primary\",shadow=\"second\"} 20.0");
    assertThat(metrics).contains("georesolver_shadow_disagreements_total{served=\"primary\",shadow=\"second\"} 0.0");
  }

  @Test
  @DisplayName("a shadow rung that never answers: the reply arrives while its shadow call is still open, unchanged")
  void shouldNotDelayTheReply(Vertx vertx) throws Exception {
    Stack s = deploy(vertx, "shadow: { sample_rate: 1.0, max_per_s: 1000 }\n", "region: global", "", Map.of());
    second.behave(new FakeProvider.Hang());

    JsonObject r = s.geocode("1 Rue de Rivoli, Paris").await().bodyAsJsonObject();
    // Order of events: the reply is in hand; the shadow call is made (or about to be) and is never answered.
    assertThat(r.getString("resolution_source")).isEqualTo("primary");
    assertThat(r.getDouble("lon")).as("the served answer, not the shadow's").isEqualTo(LON);
    for (int i = 0; i < 400 && second.count() == 0; i++) {
      Thread.sleep(25);
    }
    assertThat(second.count()).as("the shadow call was made after the reply, and is still unanswered").isEqualTo(1);
    assertThat(shadow(s).getLong("samples")).as("nothing measured while it hangs").isZero();
  }

  @Test
  @DisplayName("a queue of one with the shadow rung hanging: four calls in flight, one queued, every further sample dropped and counted")
  void shouldDropAndCountWhenTheQueueIsFull(Vertx vertx) throws Exception {
    Stack s = deploy(vertx, "shadow: { sample_rate: 1.0, max_per_s: 1000, queue: 1 }\n", "region: global", "", Map.of());
    second.behave(new FakeProvider.Hang());
    for (int i = 0; i < 10; i++) {
      s.geocode((i + 1) + " Main Street, Lyon").await();
    }
    JsonObject node = shadowUntil(s, v -> v.getJsonObject("node").getLong("offered") >= 10).getJsonObject("node");
    assertThat(node.getLong("offered")).isEqualTo(10);
    assertThat(node.getLong("dropped")).as(node.encode()).isEqualTo(5);
    assertThat(node.getLong("queued")).isEqualTo(1);
    assertThat(s.get("/metrics").await().bodyAsString()).contains("georesolver_shadow_dropped_total{reason=\"queue_full\"} 5.0");
  }

  @Test
  @DisplayName("the shadow rung's breaker forced open: it is never asked, and each sample is counted as skipped")
  void shouldNotAskARungWhoseBreakerIsOpen(Vertx vertx) throws Exception {
    Stack s = deploy(vertx, "shadow: { sample_rate: 1.0, max_per_s: 1000 }\n", "region: global", "", Map.of());
    assertThat(s.post("/admin/tiers/second/force-open", new JsonObject()).await().statusCode()).isEqualTo(200);
    for (int i = 0; i < 5; i++) {
      assertThat(s.geocode((i + 1) + " Rue Oberkampf, Paris").await().bodyAsJsonObject().getString("resolution_source"))
          .isEqualTo("primary");
    }
    JsonObject node = shadowUntil(s, v -> v.getJsonObject("node").getJsonObject("skipped").getLong("breaker_open", 0L) >= 5)
        .getJsonObject("node");
    assertThat(node.getJsonObject("skipped").getLong("breaker_open")).isEqualTo(5);
    assertThat(second.count()).as("requests the open rung saw").isZero();
  }

  @Test
  @DisplayName("a tenant that opted out is never sampled; another tenant's answers are, and a strict tenant's never leave its region")
  void shouldHonourOptOutAndResidency(Vertx vertx) throws Exception {
    Stack s = deploy(vertx, "shadow: { sample_rate: 1.0, max_per_s: 1000, opt_out_tenants: [ quiet ] }\n", "region: us", """
        tenants:
          - { id: "quiet", keys: [ { env: "QUIET_KEY" } ] }
          - { id: "eu_strict", keys: [ { env: "EU_KEY" } ], region: "eu", residency: "strict" }
          - { id: "ops", keys: [ { env: "OPS_KEY" } ], admin: true }
        """, Map.of("QUIET_KEY", "tk-quiet-0001", "EU_KEY", "tk-eu-strict-02", "OPS_KEY", "tk-ops-admin-03"));
    for (int i = 0; i < 5; i++) {
      ask(s, "tk-quiet-0001", (i + 1) + " Quiet Lane, Paris");
      ask(s, "tk-eu-strict-02", (i + 1) + " Strict Lane, Paris");
    }
    ask(s, "tk-ops-admin-03", "1 Open Lane, Paris");
    JsonObject view = shadowUntil(s, v -> v.getLong("samples") >= 1
        && v.getJsonObject("node").getJsonObject("skipped").getLong("no_shadow_rung", 0L) >= 5, "tk-ops-admin-03");

    assertThat(view.getLong("samples")).as("only the tenant that did not opt out").isEqualTo(1);
    assertThat(view.getJsonObject("node").getLong("offered")).as("the quiet tenant's answers were never offered").isEqualTo(6);
    assertThat(view.getJsonObject("node").getJsonObject("skipped").getLong("no_shadow_rung"))
        .as("the strict tenant's ladder ends at its in-region rung").isEqualTo(5);
    assertThat(second.count()).as("the out-of-region rung saw only the open tenant's address").isEqualTo(1);
    assertThat(s.client.get(s.port, "localhost", "/v1/shadow").putHeader("Authorization", "Bearer tk-quiet-0001").send().await()
        .statusCode()).as("an admin's figures").isEqualTo(403);
  }

  @Test
  @DisplayName("the figures are in the state store: a restart on the same file shows every sample counted before it")
  void shouldKeepTheFiguresOverARestart(Vertx vertx) throws Exception {
    String state = "state: { path: \"" + dev.georesolver.support.TestState.freshFile() + "\" }\n";
    Stack s = deploy(vertx, "shadow: { sample_rate: 1.0, max_per_s: 1000 }\n", "region: global", state, Map.of());
    for (int i = 0; i < 7; i++) {
      s.geocode((i + 1) + " Kept Street, Paris").await();
    }
    assertThat(shadowUntil(s, v -> v.getLong("samples") >= 7).getLong("samples")).isEqualTo(7);
    for (String id : java.util.Set.copyOf(vertx.deploymentIDs())) {
      if (vertx.deploymentIDs().contains(id)) {
        vertx.undeploy(id).otherwiseEmpty().await();
      }
    }

    String yaml = ManifestBuilder.manifest().budget(6000).maxBudget(10_000)
        .tier("primary", "generic", primary.url(), "exact", 600, "typical_ms: 20", "region: eu")
        .tier("second", "generic", second.url(), "exact", 5000, "typical_ms: 20")
        .extra("shadow: { sample_rate: 1.0, max_per_s: 1000 }\n" + state).yaml();
    Stack again = Stack.deploy(vertx, yaml, Map.of(), Clock.systemUTC(), Map.of()).await();
    JsonObject p = pair(shadow(again), "primary", "second");
    assertThat(p.getLong("samples")).isEqualTo(7);
    assertThat(p.getJsonObject("distance_m").getDouble("p50")).isCloseTo(120.0, within(1.0));
  }

  private static void ask(Stack s, String key, String q) {
    var r = s.client.get(s.port, "localhost", "/v1/geocode").addQueryParam("q", q).putHeader("Authorization", "Bearer " + key)
        .send().await();
    assertThat(r.bodyAsJsonObject().getString("resolution_source")).as(r.bodyAsString()).isEqualTo("primary");
  }
}
