package dev.georesolver.issues;

import ch.qos.logback.classic.Level;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.LogCapture;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 12: a Retry-After of millennia, or too large to count, holds a tier's breaker open for retry_after_max_ms and no longer, and says so. */
@ExtendWith(VertxExtension.class)
class Issue9RetryAfterCapTest {

  private static final long CAP_MS = 300_000;

  @ParameterizedTest(name = "Retry-After: {0}")
  @ValueSource(strings = {"99999999999", "Fri, 31 Dec 9999 23:59:59 GMT", "999999999999999999999999999999"})
  @DisplayName("the breaker stays open for the default cap of 300,000 ms, then the provider is asked again; the clip is logged")
  void retryAfterIsCapped(String retryAfter, Vertx vertx) {
    FakeClock clock = new FakeClock();
    FakeProvider p = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.9))).await();
    p.then(FakeProvider.status(429, "Retry-After", retryAfter));
    Stack s = Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800).yaml(), Map.of(), clock,
        Map.of()).await();

    try (LogCapture logs = LogCapture.start()) {
      JsonObject first = s.geocode("address one").await().bodyAsJsonObject();
      assertThat(first.getJsonArray("attempts").getJsonObject(0).getString("outcome")).isEqualTo("quota");

      clock.advanceMs(CAP_MS - 1000);
      assertThat(outcome(s, "address two")).as("still held open inside the cap").isEqualTo("skipped_breaker_open");
      assertThat(p.count()).isEqualTo(1);

      clock.advanceMs(1001);
      JsonObject after = s.geocode("address three").await().bodyAsJsonObject();
      assertThat(after.getString("status")).as("asked again once the cap has passed: %s", after.encode()).isEqualTo("resolved");
      assertThat(p.count()).isEqualTo(2);

      assertThat(logs.atLeast(Level.WARN)).anySatisfy(e -> assertThat(e.getFormattedMessage())
          .contains("tier primary over quota").contains("held open " + CAP_MS + " ms").contains("retry_after_max_ms"));
    }
  }

  private static String outcome(Stack s, String q) {
    return s.geocode(q).await().bodyAsJsonObject().getJsonArray("attempts").getJsonObject(0).getString("outcome");
  }
}
