package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * The reconcile queue's figures.
 *
 * @param pending items waiting (due or backing off)
 * @param inProgress items leased by a reconciler
 * @param done items corrected or confirmed
 * @param dead items that failed {@code reconcile.max_attempts} times (kept, visible)
 * @param oldestPendingAgeS seconds since the oldest item not done was queued, 0 when none
 */
public record QueueStats(long pending, long inProgress, long done, long dead, double oldestPendingAgeS) {

  public JsonObject toJson() {
    return new JsonObject().put("pending", pending).put("in_progress", inProgress).put("done", done).put("dead", dead)
        .put("oldest_pending_age_s", oldestPendingAgeS);
  }

  public static QueueStats fromJson(JsonObject j) {
    return new QueueStats(j.getLong("pending", 0L), j.getLong("in_progress", 0L), j.getLong("done", 0L),
        j.getLong("dead", 0L), j.getDouble("oldest_pending_age_s", 0.0));
  }
}
