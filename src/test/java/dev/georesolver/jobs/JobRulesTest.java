package dev.georesolver.jobs;

import dev.georesolver.batch.BatchRow;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/** The batch verticle's pure rules: the in-flight window, what a push back is, a job's view, a stored row. */
class JobRulesTest {

  @Test
  @DisplayName("the window halves on push back, not below one, and grows back by one per window of calm answers")
  void window() {
    Window w = new Window(8);
    assertThat(w.size()).isEqualTo(8);
    w.pushedBack();
    assertThat(w.size()).isEqualTo(4);
    w.pushedBack();
    w.pushedBack();
    w.pushedBack();
    assertThat(w.size()).isEqualTo(1);
    w.answered();
    assertThat(w.size()).isEqualTo(2);
    for (int i = 0; i < 100; i++) {
      w.answered();
    }
    assertThat(w.size()).isEqualTo(8);
  }

  private static JsonObject result(String status, String... outcomes) {
    JsonArray a = new JsonArray();
    Arrays.stream(outcomes).forEach(o -> a.add(new JsonObject().put("tier", "t").put("outcome", o)));
    return new JsonObject().put("status", status).put("attempts", a);
  }

  @Test
  @DisplayName("a refusal for an open breaker, a rate limit, the batch share or a 429 is a push back; an honest refusal or any answer is not")
  void pushback() {
    assertThat(Pushback.pushedBack(result("refused", "skipped_batch_share"))).isTrue();
    assertThat(Pushback.pushedBack(result("refused", "not_found", "skipped_rate_limited"))).isTrue();
    assertThat(Pushback.pushedBack(result("refused", "skipped_breaker_open"))).isTrue();
    assertThat(Pushback.pushedBack(result("refused", "quota"))).isTrue();
    assertThat(Pushback.pushedBack(result("refused", "not_found"))).isFalse();
    assertThat(Pushback.pushedBack(result("resolved", "skipped_batch_share", "hit"))).as("a degraded answer is kept").isFalse();
  }

  private static BatchJob job(String state, long total, long done, Long started, Long finished) {
    return new BatchJob("b_1", "public", "sha256:x", state, new JsonObject(), total, done, done, 0, 0, 0, 1_000, started, finished);
  }

  @Test
  @DisplayName("a job's view: rate since it started, ETA from the rows left, 0 once finished, loading reads as queued")
  void view() {
    JsonObject queued = JobView.of(job(BatchJob.LOADING, 100, 0, null, null), 5_000);
    assertThat(queued.getString("state")).isEqualTo("queued");
    assertThat(queued.getValue("rate_per_s")).isNull();
    assertThat(queued.getValue("eta_s")).isNull();
    JsonObject running = JobView.of(job(BatchJob.RUNNING, 100, 20, 2_000L, null), 12_000);
    assertThat(running.getDouble("rate_per_s")).isEqualTo(2.0);
    assertThat(running.getLong("eta_s")).isEqualTo(40);
    assertThat(running.getString("results")).isEqualTo("/v1/batches/b_1/results");
    JsonObject done = JobView.of(job(BatchJob.DONE, 100, 100, 2_000L, 52_000L), 99_000);
    assertThat(done.getDouble("rate_per_s")).isEqualTo(2.0);
    assertThat(done.getLong("eta_s")).isZero();
    assertThat(done.getString("finished_at")).isEqualTo("1970-01-01T00:00:52Z");
  }

  @Test
  @DisplayName("a stored row comes back as it was read: values, direction, request, problem")
  void storedRow() {
    BatchRow valid = BatchRow.of(3, java.util.List.of("3", "1 Main St"), Direction.FORWARD, new JsonObject().put("q", "1 Main St"));
    assertThat(StoredRows.row(3, new JsonObject(StoredRows.of(valid).encode()))).isEqualTo(valid);
    BatchRow invalid = BatchRow.invalid(4, java.util.Arrays.asList("4", null), "address: missing");
    assertThat(StoredRows.row(4, new JsonObject(StoredRows.of(invalid).encode()))).isEqualTo(invalid);
  }
}
