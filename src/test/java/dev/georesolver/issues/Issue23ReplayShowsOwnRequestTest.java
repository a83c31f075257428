package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TwoTenants;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import dev.georesolver.support.Backends;
import org.junit.jupiter.api.extension.ExtendWith;
import java.time.Clock;
import java.util.Map;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23, item 8: a replay of another tenant's walk shows the replaying request's own facts, never the walk's attempts, time or age. */
@ExtendWith(VertxExtension.class)
class Issue23ReplayShowsOwnRequestTest {

  private static final String ALPHA = "tk-alpha-23-8";
  private static final String BETA = "tk-beta-23-8";

  private static JsonObject ask(Stack s, String key, String address) {
    HttpResponse<Buffer> r = s.client.get(s.port, "localhost", "/v1/geocode?q=" + address).putHeader("Authorization", "Bearer " + key)
        .send().await();
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject();
  }

  @ParameterizedTest(name = "shared store in Redis: {0}")
  @ValueSource(booleans = {false, true})
  @DisplayName("alpha walks past a failing primary; beta's replay shows no attempts, its own time and no age; alpha's own replay shows the walk")
  void aReplayShowsOnlyTheViewersRequest(boolean redis, Vertx vertx) throws Exception {
    // An address no other run stored in the shared Redis.
    String address = "8%20Oracle%20Lane%20" + java.util.UUID.randomUUID().toString().substring(0, 8);
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
    FakeProvider fallback = FakeProvider.start(vertx, FakeProvider.json(FakeProvider.generic(5, 5, "EPSG:4326", 0.5))).await();
    String yaml = TwoTenants.failover(primary.url(), fallback.url(), "");
    Stack s = Stack.deploy(vertx, yaml, Map.of("ALPHA_KEY", ALPHA, "BETA_KEY", BETA), Clock.systemUTC(), Map.of(),
        redis ? Backends.redis().url() : null).await();
    JsonObject walked = ask(s, ALPHA, address);
    assertThat(walked.getBoolean("degraded")).as(walked.encode()).isTrue();
    assertThat(walked.getJsonArray("attempts")).as(walked.encode()).hasSize(2);
    Thread.sleep(1100);

    long before = System.currentTimeMillis();
    JsonObject beta = ask(s, BETA, address);
    assertThat(beta.getBoolean("replayed", false)).as(beta.encode()).isTrue();
    assertThat(beta.getJsonArray("attempts")).as("beta's request called no rung").isEmpty();
    assertThat(beta.containsKey("replay_age_s")).as("how old alpha's walk is: " + beta.encode()).isFalse();
    assertThat(beta.containsKey("observed_at_ms")).isFalse();
    assertThat(beta.getLong("resolved_at_ms")).as("beta's own request's time").isGreaterThanOrEqualTo(before);
    assertThat(beta.containsKey("walked_by")).isFalse();
    assertThat(beta.encode()).doesNotContain("alpha");
    for (String same : new String[] {"lon", "lat", "label", "resolution_source", "claim", "confidence", "degraded", "idempotency_key"}) {
      assertThat(beta.getValue(same)).as(same).isEqualTo(walked.getValue(same));
    }

    JsonObject own = ask(s, ALPHA, address);
    assertThat(own.getBoolean("replayed", false)).as(own.encode()).isTrue();
    assertThat(own.getJsonArray("attempts")).as("alpha's own walk").isEqualTo(walked.getJsonArray("attempts"));
    assertThat(own.getLong("replay_age_s")).isGreaterThanOrEqualTo(1);
    assertThat(own.getLong("resolved_at_ms")).isEqualTo(walked.getLong("resolved_at_ms"));
    assertThat(own.containsKey("walked_by")).isFalse();
    assertThat(primary.count() + fallback.count()).as("one walk served all three").isLessThanOrEqualTo(2);
  }
}
