package dev.georesolver.state.rules;

import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.BatchQuota;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Quotas and expiry of batch jobs: a tenant's live jobs and rows are bounded, and only jobs that ended past their keep expire. */
class BatchRulesQuotaTest {

  private static final BatchQuota Q = new BatchQuota(2, 100, "batch.tenant_max_live_jobs", "tenants[acme].batch_max_live_rows");

  private static BatchJob job(String state, Long finishedAt) {
    return new BatchJob("j", "acme", "key:j", state, new JsonObject(), 10, 0, 0, 0, 0, 0, 1_000L, null, finishedAt);
  }

  @Test
  @DisplayName("within both bounds a job may be created; the bound reached is named with the tenant's use")
  void overQuota() {
    assertThat(BatchRules.overQuota("acme", Map.of(), Q, 100)).isNull();
    assertThat(BatchRules.overQuota("acme", Map.of("a", 40L), Q, 60)).as("exactly at the row bound").isNull();
    assertThat(BatchRules.overQuota("acme", Map.of("a", 40L, "b", 1L), Q, 1))
        .contains("acme has 2 live batch job(s)", "at most 2", "batch.tenant_max_live_jobs");
    assertThat(BatchRules.overQuota("acme", Map.of("a", 40L), Q, 61))
        .contains("hold 40 row(s)", "this file has 61", "100", "tenants[acme].batch_max_live_rows");
    assertThat(BatchRules.overQuota("acme", Map.of("a", 1L, "b", 1L), BatchQuota.UNLIMITED, 1_000_000)).isNull();
  }

  @Test
  @DisplayName("a job is live until it ends: loading, queued and running count, done, failed and cancelled do not")
  void live() {
    assertThat(BatchRules.live(job(BatchJob.LOADING, null))).isTrue();
    assertThat(BatchRules.live(job(BatchJob.QUEUED, null))).isTrue();
    assertThat(BatchRules.live(job(BatchJob.RUNNING, null))).isTrue();
    assertThat(BatchRules.live(job(BatchJob.DONE, 5L))).isFalse();
    assertThat(BatchRules.live(job(BatchJob.FAILED, 5L))).isFalse();
    assertThat(BatchRules.live(job(BatchJob.CANCELLED, 5L))).isFalse();
    assertThat(BatchRules.live(null)).isFalse();
  }

  @Test
  @DisplayName("a job expires once it ended more than its keep ago; one that has not ended never does")
  void expired() {
    long keep = 7L * 86_400_000L;
    assertThat(BatchRules.expired(job(BatchJob.DONE, 0L), keep, keep)).as("exactly keep ago").isFalse();
    assertThat(BatchRules.expired(job(BatchJob.DONE, 0L), keep + 1, keep)).isTrue();
    assertThat(BatchRules.expired(job(BatchJob.CANCELLED, 0L), keep + 1, keep)).isTrue();
    assertThat(BatchRules.expired(job(BatchJob.FAILED, 0L), keep + 1, keep)).isTrue();
    assertThat(BatchRules.expired(job(BatchJob.RUNNING, null), Long.MAX_VALUE, keep)).isFalse();
    assertThat(BatchRules.expired(job(BatchJob.QUEUED, null), Long.MAX_VALUE, keep)).isFalse();
  }

  @Test
  @DisplayName("a quota travels as JSON and back; none carried is no bound")
  void quotaJson() {
    assertThat(BatchQuota.fromJson(Q.toJson())).isEqualTo(Q);
    assertThat(BatchQuota.fromJson(null)).isEqualTo(BatchQuota.UNLIMITED);
  }
}
