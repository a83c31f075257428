package dev.georesolver.functional;

import dev.georesolver.bus.Addresses;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Drills end to end over HTTP: {@code POST /admin/tiers/{name}/force-open | force-closed | release}
 * reach the tier's breaker through its control address; the forced state holds whatever the time
 * and the calls do, and shows in the answer, {@code /health/ready}, {@code /metrics} and the
 * breaker transitions; unknown tiers are 404 problems.
 */
@ExtendWith(VertxExtension.class)
class DrillScenarioTest {

  private final FakeClock clock = new FakeClock();

  private Stack stack(Vertx vertx, FakeProvider primary, FakeProvider secondary) {
    return Stack.deploy(vertx, manifest()
        .tier("primary", "generic", primary.url(), "exact", 500, "retry_budget: 0",
            "circuit_breaker: { failure_threshold: 3, half_open_timeout_ms: 30000, success_threshold: 1 }")
        .tier("secondary", "generic", secondary.url(), "open_data", 500)
        .yaml(), Map.of(), clock, Map.of()).await();
  }

  private static HttpResponse<Buffer> post(Stack s, String path) {
    return s.client.post(s.port, "localhost", path).putHeader("X-Requested-By", "test").send().await();
  }

  private static JsonObject geocode(Stack s, String q) {
    return s.geocode(q).await().bodyAsJsonObject();
  }

  private static JsonObject tierInHealth(Stack s, String tier) {
    JsonObject h = s.get("/health/ready").await().bodyAsJsonObject();
    return h.getJsonArray("tiers").stream().map(JsonObject.class::cast).filter(t -> tier.equals(t.getString("tier"))).findFirst().orElseThrow();
  }

  private static List<JsonObject> transitions(Vertx vertx) {
    List<JsonObject> events = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_EVENTS, m -> events.add(m.body()));
    return events;
  }

  @Test
  @DisplayName("force-open: the rung is never called, whatever the time, and it shows everywhere; release brings it back")
  void forceOpenThenRelease(Vertx vertx) throws Exception {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.95))).await();
    FakeProvider secondary = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.8))).await();
    Stack s = stack(vertx, primary, secondary);
    List<JsonObject> events = transitions(vertx);

    HttpResponse<Buffer> forced = post(s, "/admin/tiers/primary/force-open");
    assertThat(forced.statusCode()).isEqualTo(200);
    assertThat(forced.getHeader("content-type")).isEqualTo("application/json");
    assertThat(forced.bodyAsJsonObject().getMap()).containsEntry("tier", "primary").containsEntry("state", "forced_open")
        .containsEntry("claim", "exact").containsKey("typical_ms");

    clock.advanceMs(3_600_000);
    for (int i = 0; i < 3; i++) {
      JsonObject r = geocode(s, i + " Forced Street");
      assertThat(r.getString("resolution_source")).isEqualTo("secondary");
      assertThat(r.getDouble("confidence")).isEqualTo(0.8);
      assertThat(r.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("skipped_breaker_open");
    }
    assertThat(primary.count()).as("a forced-open rung is never called, an hour later too").isZero();

    JsonObject health = s.get("/health/ready").await().bodyAsJsonObject();
    assertThat(health.getBoolean("ready")).as("the rung below still serves").isTrue();
    assertThat(tierInHealth(s, "primary").getString("state")).isEqualTo("forced_open");
    String metrics = s.get("/metrics").await().bodyAsString();
    assertThat(metrics).contains("georesolver_breaker_state{tier=\"primary\"} 2.0", "georesolver_breaker_forced{tier=\"primary\"} 1.0",
        "georesolver_breaker_forced{tier=\"secondary\"} 0.0",
        "georesolver_breaker_transitions_total{tier=\"primary\",to=\"forced_open\"} 1.0");

    HttpResponse<Buffer> released = post(s, "/admin/tiers/primary/release");
    assertThat(released.statusCode()).isEqualTo(200);
    assertThat(released.bodyAsJsonObject().getString("state")).isEqualTo("closed");
    assertThat(geocode(s, "9 Released Street").getString("resolution_source")).isEqualTo("primary");
    assertThat(s.get("/metrics").await().bodyAsString()).contains("georesolver_breaker_forced{tier=\"primary\"} 0.0",
        "georesolver_breaker_state{tier=\"primary\"} 0.0");
    assertThat(events).extracting(e -> e.getString("to") + "/" + e.getString("reason"))
        .containsExactly("forced_open/force_open", "closed/release");
  }

  @Test
  @DisplayName("force-closed: a failing rung is called every time and its breaker does not open until released")
  void forceClosedKeepsCalling(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
    FakeProvider secondary = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.8))).await();
    Stack s = stack(vertx, primary, secondary);

    assertThat(post(s, "/admin/tiers/primary/force-closed").bodyAsJsonObject().getString("state")).isEqualTo("forced_closed");
    for (int i = 0; i < 6; i++) {
      assertThat(geocode(s, i + " Pinned Street").getString("resolution_source")).isEqualTo("secondary");
    }
    assertThat(primary.count()).as("called for every request, though it failed twice its threshold").isEqualTo(6);
    assertThat(tierInHealth(s, "primary").getString("state")).isEqualTo("forced_closed");
    assertThat(s.get("/metrics").await().bodyAsString()).contains("georesolver_breaker_state{tier=\"primary\"} 0.0",
        "georesolver_breaker_forced{tier=\"primary\"} 1.0");

    assertThat(post(s, "/admin/tiers/primary/release").bodyAsJsonObject().getString("state")).isEqualTo("closed");
    for (int i = 0; i < 3; i++) {
      geocode(s, i + " Unpinned Street");
    }
    assertThat(tierInHealth(s, "primary").getString("state")).as("counted again after release").isEqualTo("open");
  }

  @Test
  @DisplayName("an unknown tier is a 404 problem; a name no tier could have is not echoed; other methods are 405")
  void unknownTiers(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Stack s = stack(vertx, p, p);

    HttpResponse<Buffer> unknown = post(s, "/admin/tiers/nope/force-open");
    assertThat(unknown.statusCode()).isEqualTo(404);
    assertThat(unknown.getHeader("content-type")).isEqualTo("application/problem+json");
    assertThat(unknown.bodyAsJsonObject().getString("type")).endsWith("/unknown_tier");
    assertThat(unknown.bodyAsJsonObject().getString("detail")).isEqualTo("no tier named 'nope' is running");

    HttpResponse<Buffer> hostile = post(s, "/admin/tiers/%3Cscript%3EX/release");
    assertThat(hostile.statusCode()).isEqualTo(404);
    assertThat(hostile.bodyAsJsonObject().getString("detail")).isEqualTo("no such tier");

    assertThat(s.get("/admin/tiers/primary/force-open").await().statusCode()).isEqualTo(405);
    assertThat(post(s, "/admin/tiers/primary/explode").statusCode()).isEqualTo(404);
  }

  @Test
  @DisplayName("the control address refuses a body that names no action, with BAD_REQUEST")
  void controlAddressRefusesNonsense(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    stack(vertx, p, p);
    for (Object body : List.of(new JsonObject().put("action", "explode"), new JsonObject(), "force_open")) {
      assertThatThrownBy(() -> vertx.eventBus().request(Addresses.tierControl("primary"), body).await())
          .isInstanceOfSatisfying(ReplyException.class, e -> assertThat(e.failureCode()).isEqualTo(400));
    }
    JsonObject ok = vertx.eventBus().<JsonObject>request(Addresses.tierControl("primary"), new JsonObject().put("action", "force_closed"))
        .await().body();
    assertThat(ok.getString("state")).isEqualTo("forced_closed");
  }
}
