package dev.georesolver.functional;

import dev.georesolver.bus.Addresses;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
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

/**
 * Breakers and failure classes end to end: a failing primary stops being called once its breaker
 * opens and is called again after it recovers; quota, no-match and malformed answers are classified
 * as DESIGN §3 says. Breaker time runs on a fake wall clock, so nothing sleeps.
 */
@ExtendWith(VertxExtension.class)
class BreakerScenarioTest {

  private final FakeClock clock = new FakeClock();

  private Stack stack(Vertx vertx, FakeProvider primary, FakeProvider fallback, String... primaryFields) {
    String[] fields = new String[primaryFields.length + 1];
    fields[0] = "circuit_breaker: { failure_threshold: 3, half_open_timeout_ms: 30000, success_threshold: 2 }";
    System.arraycopy(primaryFields, 0, fields, 1, primaryFields.length);
    return Stack.deploy(vertx, manifest()
        .tier("primary", "generic", primary.url(), "exact", 500, fields)
        .tier("fallback", "generic", fallback.url(), "open_data", 500)
        .yaml(), Map.of(), clock, Map.of()).await();
  }

  private static String source(Stack s, String q) {
    return s.geocode(q).await().bodyAsJsonObject().getString("resolution_source");
  }

  private static String firstOutcome(Stack s, String q) {
    return s.geocode(q).await().bodyAsJsonObject().getJsonArray("attempts").getJsonObject(0).getString("outcome");
  }

  private static List<JsonObject> transitions(Vertx vertx) {
    List<JsonObject> events = new CopyOnWriteArrayList<>();
    vertx.eventBus().<JsonObject>consumer(Addresses.BREAKER_EVENTS, m -> events.add(m.body()));
    return events;
  }

  @Test
  @DisplayName("a failing primary stops being called once its breaker opens, and is called again after it recovers")
  void failingPrimaryIsCutOffThenRestored(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(500, "boom")).await();
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(5, 5, "EPSG:4326", 0.5))).await();
    Stack s = stack(vertx, primary, fallback);
    List<JsonObject> events = transitions(vertx);

    for (int i = 0; i < 3; i++) {
      assertThat(source(s, "a" + i)).isEqualTo("fallback");
    }
    assertThat(primary.count()).isEqualTo(3);
    assertThat(firstOutcome(s, "b")).isEqualTo("skipped_breaker_open");
    assertThat(primary.count()).as("not called while open").isEqualTo(3);

    primary.behave(json(generic(1, 1, "EPSG:4326", 0.9)));
    clock.advanceMs(30_001);
    assertThat(source(s, "c1")).isEqualTo("primary");
    assertThat(source(s, "c2")).isEqualTo("primary");
    assertThat(source(s, "c3")).isEqualTo("primary");
    assertThat(primary.count()).isEqualTo(6);
    assertThat(events).extracting(e -> e.getString("to")).containsExactly("open", "half_open", "closed");
    assertThat(events).allSatisfy(e -> assertThat(e.getString("tier")).isEqualTo("primary"));
  }

  @Test
  @DisplayName("success_threshold successes are needed in half-open, and one failure there reopens the breaker")
  void successThresholdInHalfOpen(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(500, "boom")).await();
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(5, 5, "EPSG:4326", 0.5))).await();
    Stack s = stack(vertx, primary, fallback);
    List<JsonObject> events = transitions(vertx);
    for (int i = 0; i < 3; i++) {
      source(s, "a" + i);
    }
    clock.advanceMs(30_001);
    primary.behave(json(generic(1, 1, "EPSG:4326", 0.9)));
    assertThat(source(s, "h1")).isEqualTo("primary");
    primary.behave(FakeProvider.status(500, "boom"));
    assertThat(source(s, "h2")).isEqualTo("fallback");
    assertThat(firstOutcome(s, "h3")).as("reopened by the half-open failure").isEqualTo("skipped_breaker_open");
    assertThat(events).extracting(e -> e.getString("to")).containsExactly("open", "half_open", "open");
    assertThat(events.get(2).getString("reason")).isEqualTo("failure_in_half_open");
  }

  @Test
  @DisplayName("429 is never retried and opens the breaker for at least Retry-After")
  void quotaHonoursRetryAfter(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(429, "Retry-After", "120")).await();
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(5, 5, "EPSG:4326", 0.5))).await();
    Stack s = stack(vertx, primary, fallback, "retry_budget: 2", "retry_backoff_ms: 1");

    JsonObject first = s.geocode("q1").await().bodyAsJsonObject();
    assertThat(first.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("quota");
    assertThat(first.getJsonArray("attempts").getJsonObject(0).getInteger("tries")).isEqualTo(1);
    assertThat(primary.count()).as("not retried").isEqualTo(1);

    assertThat(firstOutcome(s, "q2")).as("one 429 opened it, below the threshold").isEqualTo("skipped_breaker_open");
    clock.advanceMs(60_000);
    assertThat(firstOutcome(s, "q3")).as("the 30 s half-open timeout does not shorten Retry-After").isEqualTo("skipped_breaker_open");
    primary.behave(json(generic(1, 1, "EPSG:4326", 0.9)));
    clock.advanceMs(60_001);
    assertThat(source(s, "q4")).isEqualTo("primary");
    assertThat(primary.count()).isEqualTo(2);
  }

  @Test
  @DisplayName("a provider's no-match never counts against its breaker, and the walk moves on")
  void noMatchDoesNotTripTheBreaker(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(404, "")).await();
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(5, 5, "EPSG:4326", 0.5))).await();
    Stack s = stack(vertx, primary, fallback);
    for (int i = 0; i < 6; i++) {
      assertThat(firstOutcome(s, "n" + i)).isEqualTo("no_match");
    }
    assertThat(primary.count()).isEqualTo(6);
    primary.behave(json(new JsonObject()));
    assertThat(firstOutcome(s, "empty object")).isEqualTo("no_match");
    primary.behave(FakeProvider.status(200, ""));
    assertThat(firstOutcome(s, "empty body")).isEqualTo("no_match");
  }

  @Test
  @DisplayName("a malformed body is degradable: not retried, and counted against the breaker")
  void malformedBodyIsDegradable(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(200, "{\"x\": oops")).await();
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(5, 5, "EPSG:4326", 0.5))).await();
    Stack s = stack(vertx, primary, fallback, "retry_budget: 2");
    for (int i = 0; i < 3; i++) {
      assertThat(firstOutcome(s, "m" + i)).isEqualTo("degradable");
    }
    assertThat(primary.count()).as("never retried").isEqualTo(3);
    assertThat(firstOutcome(s, "m4")).isEqualTo("skipped_breaker_open");
  }

  @Test
  @DisplayName("a reset connection is transient and retried, and a retry that succeeds answers")
  void resetIsRetried(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    primary.then(new FakeProvider.Reset());
    FakeProvider fallback = FakeProvider.start(vertx, json(generic(5, 5, "EPSG:4326", 0.5))).await();
    Stack s = stack(vertx, primary, fallback, "retry_budget: 1", "retry_backoff_ms: 1");
    JsonObject j = s.geocode("r").await().bodyAsJsonObject();
    assertThat(j.getString("resolution_source")).isEqualTo("primary");
    assertThat(j.getJsonArray("attempts").getJsonObject(0).getInteger("tries")).isEqualTo(2);
    assertThat(primary.count()).isEqualTo(2);
  }
}
