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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23, item 9: two tenants degraded on the same address while the primary is down both get the correction in their own feed. */
@ExtendWith(VertxExtension.class)
class Issue23CorrectionEveryTenantTest {

  private static final String ALPHA = "tk-alpha-23-9";
  private static final String BETA = "tk-beta-23-9";

  private static HttpResponse<Buffer> get(Stack s, String path, String key) {
    return s.client.get(s.port, "localhost", path).putHeader("Authorization", "Bearer " + key).send().await();
  }

  private static JsonArray feed(Stack s, String key) {
    HttpResponse<Buffer> r = get(s, "/v1/corrections", key);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonArray("corrections");
  }

  @Test
  @DisplayName("alpha and beta ask the same address while the primary is down; after recovery both feeds hold its correction")
  void bothTenantsAreCorrected(Vertx vertx) throws Exception {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
    FakeProvider fallback = FakeProvider.start(vertx, FakeProvider.json(FakeProvider.generic(5, 5, "EPSG:4326", 0.5))).await();
    String yaml = TwoTenants.failover(primary.url(), fallback.url(), "reconcile: { interval_ms: 100 }\n");
    Stack s = Stack.deploy(vertx, yaml, Map.of("ALPHA_KEY", ALPHA, "BETA_KEY", BETA), Clock.systemUTC(), Map.of()).await();
    JsonObject a = get(s, "/v1/geocode?q=12%20Shared%20Street", ALPHA).bodyAsJsonObject();
    JsonObject b = get(s, "/v1/geocode?q=12%20Shared%20Street", BETA).bodyAsJsonObject();
    assertThat(a.getBoolean("degraded")).as(a.encode()).isTrue();
    assertThat(b.getBoolean("degraded")).as(b.encode()).isTrue();

    primary.behave(FakeProvider.json(FakeProvider.generic(1, 1, "EPSG:4326", 0.99)));
    JsonArray alpha = new JsonArray();
    JsonArray beta = new JsonArray();
    for (int i = 0; i < 300 && (alpha.isEmpty() || beta.isEmpty()); i++) {
      Thread.sleep(50);
      alpha = feed(s, ALPHA);
      beta = feed(s, BETA);
    }
    assertThat(alpha).as("alpha's feed").hasSize(1);
    assertThat(beta).as("beta's feed").hasSize(1);
    assertThat(alpha.getJsonObject(0).getString("tenant")).isEqualTo("alpha");
    assertThat(beta.getJsonObject(0).getString("tenant")).isEqualTo("beta");
    assertThat(beta.getJsonObject(0).getString("idempotency_key")).isEqualTo(alpha.getJsonObject(0).getString("idempotency_key"));
    assertThat(beta.getJsonObject(0).getString("correction_id")).isNotEqualTo(alpha.getJsonObject(0).getString("correction_id"));
  }
}
