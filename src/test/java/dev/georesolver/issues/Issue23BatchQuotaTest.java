package dev.georesolver.issues;

import dev.georesolver.config.Manifest;
import dev.georesolver.reload.ManifestDiff;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 17: a tenant's live batch jobs and their rows are bounded per tenant: over its quota an upload is 429 quota_exceeded, naming the bound and the use, and nothing is stored. */
@ExtendWith(VertxExtension.class)
class Issue23BatchQuotaTest {

  private static final String ACME_KEY = "tk-acme-quota-23";
  private static final String BETA_KEY = "tk-beta-quota-23";

  private static String yaml(String batch, FakeProvider p) {
    // The provider never answers within the test: every job stays running, so it keeps its place in the quota.
    return manifest().budget(30_000).maxBudget(60_000).tier("slow", "generic", p.url(), "exact", 30_000)
        .extra("batch: { budget_ms: 60000" + batch + " }")
        .extra("tenants:\n"
            + "  - { id: \"acme\", keys: [ { env: \"ACME_KEY\" } ], batch_max_live_jobs: 1 }\n"
            + "  - { id: \"beta\", keys: [ { env: \"BETA_KEY\" } ] }\n")
        .yaml();
  }

  private static HttpResponse<Buffer> submit(Stack s, String key, String csv) {
    return s.client.request(HttpMethod.POST, s.port, "localhost", "/v1/batches").putHeader("Authorization", "Bearer " + key)
        .sendBuffer(Buffer.buffer(csv)).await();
  }

  private static int listed(Stack s, String key) {
    return s.client.get(s.port, "localhost", "/v1/batches").putHeader("Authorization", "Bearer " + key).send().await()
        .bodyAsJsonObject().getJsonArray("batches").size();
  }

  @Test
  @DisplayName("acme (its own bound: one live job) and beta (the batch section's: five rows) are refused 429 over quota, each on its own")
  void quotasPerTenant(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, new FakeProvider.Hang()).await();
    Stack s = Stack.deploy(vertx, yaml(", tenant_max_live_rows: 5", p), Map.of("ACME_KEY", ACME_KEY, "BETA_KEY", BETA_KEY),
        Clock.systemUTC(), Map.of()).await();

    HttpResponse<Buffer> first = submit(s, ACME_KEY, "id,address\n1,\"1 Rue du Lac, Vevey\"\n2,\"2 Rue du Lac, Vevey\"\n");
    assertThat(first.statusCode()).as(first.bodyAsString()).isEqualTo(201);
    HttpResponse<Buffer> second = submit(s, ACME_KEY, "id,address\n1,\"3 Rue du Lac, Vevey\"\n");
    assertThat(second.statusCode()).as(second.bodyAsString()).isEqualTo(429);
    assertThat(second.getHeader("Retry-After")).isNotNull();
    JsonObject problem = second.bodyAsJsonObject();
    assertThat(problem.getString("type")).endsWith("quota_exceeded");
    assertThat(problem.getString("detail")).contains("acme has 1 live batch job(s)", "tenants[acme].batch_max_live_jobs");
    assertThat(listed(s, ACME_KEY)).as("acme's jobs after the refusal").isEqualTo(1);

    // Beta's quota is its own: acme's job does not count; beta is bounded by batch.tenant_max_live_rows.
    assertThat(submit(s, BETA_KEY, "id,address\n1,\"4 Rue du Lac, Vevey\"\n2,\"5 Rue du Lac, Vevey\"\n3,\"6 Rue du Lac, Vevey\"\n")
        .statusCode()).isEqualTo(201);
    HttpResponse<Buffer> rows = submit(s, BETA_KEY, "id,address\n1,\"7 Rue du Lac, Vevey\"\n2,\"8 Rue du Lac, Vevey\"\n"
        + "3,\"9 Rue du Lac, Vevey\"\n");
    assertThat(rows.statusCode()).as(rows.bodyAsString()).isEqualTo(429);
    assertThat(rows.bodyAsJsonObject().getString("detail")).contains("hold 3 row(s)", "this file has 3", "batch.tenant_max_live_rows");
    assertThat(listed(s, BETA_KEY)).isEqualTo(1);

    // A cancelled job frees its place: the refused file is accepted now.
    String id = first.bodyAsJsonObject().getString("id");
    assertThat(s.client.delete(s.port, "localhost", "/v1/batches/" + id).putHeader("Authorization", "Bearer " + ACME_KEY).send().await()
        .bodyAsJsonObject().getString("state")).isEqualTo("cancelled");
    HttpResponse<Buffer> again = submit(s, ACME_KEY, "id,address\n1,\"3 Rue du Lac, Vevey\"\n");
    assertThat(again.statusCode()).as(again.bodyAsString()).isEqualTo(201);
  }

  @Test
  @DisplayName("the quotas are applied by a reload: the ingress reads them from the revision it serves")
  void quotasApplyLive() {
    String base = manifest().tier("a", "generic", "http://a.example", "exact", 500).yaml();
    Manifest before = load(base);
    Manifest after = load(base + "batch: { tenant_max_live_jobs: 2, tenant_max_live_rows: 1000 }\n");
    ManifestDiff d = ManifestDiff.of(before, after, false, false);
    assertThat(d.appliable()).isTrue();
    assertThat(d.applied()).containsExactlyInAnyOrder("batch.tenant_max_live_jobs", "batch.tenant_max_live_rows");
  }

  private static Manifest load(String yaml) {
    try {
      return dev.georesolver.config.ManifestLoader.parse(yaml, Map.of());
    } catch (dev.georesolver.config.ManifestException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }
}
