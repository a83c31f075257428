package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * A batch job as the store holds it. Immutable; travels as JSON ({@link #toJson()}).
 *
 * @param id the job's id (URL-safe)
 * @param tenant the tenant it was submitted for; it alone (and admins) may see it
 * @param idemKey what makes a second submission the same job: the {@code Idempotency-Key} header
 *     ({@code key:<value>}) or else the content's sha256 ({@code sha256:<hex>})
 * @param state {@value #LOADING} (rows being stored, not yet visible to workers), {@value #QUEUED},
 *     {@value #RUNNING}, {@value #DONE}, {@value #CANCELLED} or {@value #FAILED}
 * @param spec what does not change once submitted: {@code intent}, {@code format}, {@code columns}
 *     (the input columns, in order), {@code delimiter}, {@code bom}, {@code sha256},
 *     {@code slice_rows}, {@code name}
 * @param total data rows
 * @param done rows with a result
 * @param resolved rows resolved
 * @param refused rows refused
 * @param invalid rows invalid as read
 * @param failed rows the resolver failed on
 * @param createdAtMs when it was submitted, epoch milliseconds
 * @param startedAtMs when a worker first took a slice, or null
 * @param finishedAtMs when it ended (done, cancelled, failed), or null
 */
public record BatchJob(String id, String tenant, String idemKey, String state, JsonObject spec, long total, long done,
    long resolved, long refused, long invalid, long failed, long createdAtMs, Long startedAtMs, Long finishedAtMs) {

  public static final String LOADING = "loading";
  public static final String QUEUED = "queued";
  public static final String RUNNING = "running";
  public static final String DONE = "done";
  public static final String CANCELLED = "cancelled";
  public static final String FAILED = "failed";

  /** Whether workers may still take its rows. */
  public boolean open() {
    return QUEUED.equals(state) || RUNNING.equals(state);
  }

  /** Whether it has ended. */
  public boolean finished() {
    return DONE.equals(state) || CANCELLED.equals(state) || FAILED.equals(state);
  }

  /** The intent its rows are resolved for. */
  public String intent() {
    return spec.getString("intent");
  }

  /** Rows per slice. */
  public int sliceRows() {
    return spec.getInteger("slice_rows", 200);
  }

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("tenant", tenant).put("idem_key", idemKey).put("state", state)
        .put("spec", spec).put("total", total).put("done", done).put("resolved", resolved).put("refused", refused)
        .put("invalid", invalid).put("failed", failed).put("created_at_ms", createdAtMs).put("started_at_ms", startedAtMs)
        .put("finished_at_ms", finishedAtMs);
  }

  public static BatchJob fromJson(JsonObject j) {
    return new BatchJob(j.getString("id"), j.getString("tenant"), j.getString("idem_key"), j.getString("state"),
        j.getJsonObject("spec", new JsonObject()), j.getLong("total", 0L), j.getLong("done", 0L), j.getLong("resolved", 0L),
        j.getLong("refused", 0L), j.getLong("invalid", 0L), j.getLong("failed", 0L), j.getLong("created_at_ms", 0L),
        j.getLong("started_at_ms"), j.getLong("finished_at_ms"));
  }
}
