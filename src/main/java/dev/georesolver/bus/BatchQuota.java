package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * How many live batch jobs (loading, queued or running) one tenant may hold, and how many rows in
 * them together, with the manifest keys that set each bound (a refusal names them). Carried from
 * the ingress, which reads the revision it serves, to the state store, which applies it when it
 * creates a job. Immutable.
 *
 * @param maxJobs live jobs at most
 * @param maxRows rows of live jobs at most, together
 * @param jobsKey the manifest key {@code maxJobs} comes from
 * @param rowsKey the manifest key {@code maxRows} comes from
 */
public record BatchQuota(long maxJobs, long maxRows, String jobsKey, String rowsKey) {

  /** No bound: a store used without the manifest's quotas (a migration, a request that names none). */
  public static final BatchQuota UNLIMITED = new BatchQuota(Long.MAX_VALUE, Long.MAX_VALUE, "none", "none");

  /** As carried in a request. */
  public JsonObject toJson() {
    return new JsonObject().put("max_jobs", maxJobs).put("max_rows", maxRows).put("jobs_key", jobsKey).put("rows_key", rowsKey);
  }

  /** From {@link #toJson}; {@link #UNLIMITED} for null. */
  public static BatchQuota fromJson(JsonObject j) {
    return j == null ? UNLIMITED : new BatchQuota(j.getLong("max_jobs", Long.MAX_VALUE), j.getLong("max_rows", Long.MAX_VALUE),
        j.getString("jobs_key", "none"), j.getString("rows_key", "none"));
  }
}
