package dev.georesolver.jobs;

import dev.georesolver.bus.BatchJob;
import io.vertx.core.json.JsonObject;

import java.time.Instant;

/**
 * A job as the API shows it: {@code {"id", "state", "total", "done", "resolved", "refused",
 * "invalid", "failed", "rate_per_s", "eta_s", "created_at", "started_at", "finished_at",
 * "results"}}, and {@code "reason"} for a failed job. A job still being loaded reads as
 * {@code queued}. {@code rate_per_s}: rows done per
 * second since it started (until it finished); {@code eta_s}: the rows left at that rate, null
 * before there is a rate, 0 once finished.
 */
public final class JobView {

  private JobView() {}

  /** The view of {@code j} at {@code nowMs}. */
  public static JsonObject of(BatchJob j, long nowMs) {
    String state = BatchJob.LOADING.equals(j.state()) ? BatchJob.QUEUED : j.state();
    Double rate = null;
    if (j.startedAtMs() != null) {
      long until = j.finishedAtMs() != null ? j.finishedAtMs() : nowMs;
      double s = Math.max(0.001, (until - j.startedAtMs()) / 1000.0);
      rate = Math.round(j.done() / s * 10) / 10.0;
    }
    Long eta = null;
    if (j.finished()) {
      eta = 0L;
    } else if (rate != null && rate > 0) {
      eta = (long) Math.ceil((j.total() - j.done()) / rate);
    }
    JsonObject view = new JsonObject()
        .put("id", j.id())
        .put("state", state)
        .put("total", j.total())
        .put("done", j.done())
        .put("resolved", j.resolved())
        .put("refused", j.refused())
        .put("invalid", j.invalid())
        .put("failed", j.failed())
        .put("rate_per_s", rate)
        .put("eta_s", eta)
        .put("created_at", iso(j.createdAtMs()))
        .put("started_at", j.startedAtMs() == null ? null : iso(j.startedAtMs()))
        .put("finished_at", j.finishedAtMs() == null ? null : iso(j.finishedAtMs()))
        .put("results", "/v1/batches/" + j.id() + "/results");
    if (j.spec().getString("reason") != null) {
      view.put("reason", j.spec().getString("reason"));
    }
    return view;
  }

  private static String iso(long ms) {
    return Instant.ofEpochMilli(ms).toString();
  }
}
