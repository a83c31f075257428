package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Priority under contention: a batch that would saturate the tier's rate limit and connections on
 * its own is held to {@code batch.max_share} of them, so a live request made while it runs is still
 * answered by the tier within its budget (not rate limited down the ladder), and the batch itself
 * only slows down: it still finishes with every row resolved.
 */
@ExtendWith(VertxExtension.class)
class BatchPriorityScenarioTest {

  @Test
  @DisplayName("a live request during a saturating batch is answered by the tier within its budget; the batch still finishes")
  void liveFirst(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, r -> BatchApiScenarioTest.answer(r, 40)).await();
    String yaml = manifest().budget(2000)
        .tier("stand_in", "generic", p.url(), "exact", 1500, "typical_ms: 40", "rate_limit_per_s: 20", "pool_size: 4",
            "circuit_breaker: { failure_threshold: 100000, half_open_timeout_ms: 200, success_threshold: 1 }")
        .extra("batch: { concurrency: 32, max_in_flight: 32, max_share: 0.5, backoff_ms: 20, slice_rows: 50 }")
        .yaml();
    Stack s = Stack.deploy(vertx, yaml).await();
    StringBuilder csv = new StringBuilder("address\n");
    for (int i = 0; i < 120; i++) {
      csv.append(i).append(" Contention Ave\n");
    }
    String id = s.client.request(HttpMethod.POST, s.port, "localhost", "/v1/batches").sendBuffer(Buffer.buffer(csv.toString()))
        .await().bodyAsJsonObject().getString("id");
    BatchApiScenarioTest.await("the batch under way", 30_000, () -> p.count() >= 10);
    for (int i = 0; i < 8; i++) {
      JsonObject live = s.geocode(i + " Live Lane").await().bodyAsJsonObject();
      assertThat(live.getString("status")).as(live.encode()).isEqualTo("resolved");
      assertThat(live.getString("resolution_source")).as("answered by the tier, not rate limited away").isEqualTo("stand_in");
      assertThat(live.getLong("elapsed_ms")).as("within its budget").isLessThanOrEqualTo(2000);
      assertThat(s.get("/v1/batches/" + id).await().bodyAsJsonObject().getString("state"))
          .as("the batch still running while the live request was answered").isIn("running", "done");
      Thread.sleep(250);
    }
    JsonObject end = BatchApiScenarioTest.awaitEnd(s, id);
    assertThat(end.getString("state")).isEqualTo("done");
    assertThat(end.getLong("resolved")).as("the batch slowed down, it did not fail").isEqualTo(120);
  }
}
