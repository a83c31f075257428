package dev.georesolver.reload;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * What the last reload attempt did, as {@code /manifest}, {@code /health/ready}, the reply of
 * {@code POST /admin/reload} and the log tell it. Immutable.
 *
 * @param outcome what came of it
 * @param trigger what asked for it: {@code file}, {@code http}, {@code signal} ({@code start} before any)
 * @param atMs when it was made, epoch milliseconds (0 before any)
 * @param serving the revision serving after it
 * @param candidate the revision the file read would have had, or null when it could not be read
 * @param problems why it was refused: each manifest problem with its path, or what kept the file
 *     from being read or a tier from starting; empty otherwise
 * @param needsRestart the settings the file changes that only a restart applies (then it is refused)
 * @param diff what it did to the tiers, when applied
 * @param applied reloads applied since the start
 * @param refused reloads refused since the start
 */
public record ReloadStatus(Outcome outcome, String trigger, long atMs, String serving, String candidate,
                           List<String> problems, List<String> needsRestart, ManifestDiff diff, int applied, int refused) {

  /** What came of a reload attempt. */
  public enum Outcome {
    /** None was made yet. */
    NONE,
    /** The new revision serves. */
    APPLIED,
    /** The file is the revision serving: nothing to do. */
    UNCHANGED,
    /** The old revision keeps serving; {@code problems} or {@code needs_restart} say why. */
    REFUSED;

    /** The name on the wire. */
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public ReloadStatus {
    problems = List.copyOf(problems);
    needsRestart = List.copyOf(needsRestart);
  }

  /** Before any attempt. */
  static ReloadStatus initial(String serving) {
    return new ReloadStatus(Outcome.NONE, "start", 0, serving, null, List.of(), List.of(), null, 0, 0);
  }

  /** Whether the last attempt left the file and the serving revision in agreement (false after a refusal). */
  public boolean ok() {
    return outcome != Outcome.REFUSED;
  }

  /** This status after an attempt with {@code outcome}; counts carried on. */
  ReloadStatus next(Outcome outcome, String trigger, long atMs, String serving, String candidate, List<String> problems,
      List<String> needsRestart, ManifestDiff diff) {
    return new ReloadStatus(outcome, trigger, atMs, serving, candidate, problems, needsRestart, diff,
        applied + (outcome == Outcome.APPLIED ? 1 : 0), refused + (outcome == Outcome.REFUSED ? 1 : 0));
  }

  /**
   * {@code {"ok", "serving_revision", "applied", "refused", "last_attempt": {"outcome", "trigger",
   * "at", "candidate_revision", "problems", "needs_restart", "applied_settings", "tiers"}}};
   * {@code last_attempt} is null before any attempt; {@code applied_settings} (the path of each
   * setting the reload applied, as the manifest's fields declare) and {@code tiers} ({@code kept},
   * {@code changed}, {@code added}, {@code removed}) are there when the attempt was applied.
   */
  public JsonObject toJson() {
    JsonObject j = new JsonObject()
        .put("ok", ok())
        .put("serving_revision", serving)
        .put("applied", applied)
        .put("refused", refused);
    if (outcome == Outcome.NONE) {
      return j.putNull("last_attempt");
    }
    JsonObject last = new JsonObject()
        .put("outcome", outcome.wire())
        .put("trigger", trigger)
        .put("at", Instant.ofEpochMilli(atMs).toString())
        .put("candidate_revision", candidate)
        .put("problems", new JsonArray(problems))
        .put("needs_restart", new JsonArray(needsRestart));
    if (diff != null) {
      last.put("applied_settings", new JsonArray(diff.applied()));
      last.put("tiers", diff.tiersJson());
    }
    return j.put("last_attempt", last);
  }

  /**
   * What the manifest file changes that waits for a restart: the last attempt's
   * {@code needs_restart} when it was refused for them, else empty (a refused file serves nothing
   * of it; an applied or unchanged one left nothing waiting).
   */
  public List<String> pendingRestart() {
    return outcome == Outcome.REFUSED ? needsRestart : List.of();
  }
}
