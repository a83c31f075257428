package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * Dedupe's answer to a {@link DedupeClaim}. Immutable.
 *
 * @param kind what the chain should do
 * @param answer for {@link Kind#REPLAY} and {@link Kind#JOINED}: the stored answer; else null
 * @param ageMs for {@link Kind#REPLAY}: the stored answer's age in milliseconds; else 0
 */
public record DedupeVerdict(Kind kind, StoredAnswer answer, long ageMs) {

  /** What the chain does next. */
  public enum Kind {
    /** A stored answer young enough for the intent: reply with it. */
    REPLAY,
    /** Nobody is resolving this now: walk the ladder, then send {@link DedupeComplete}. */
    LEAD,
    /** An identical request was being resolved; this is its answer. */
    JOINED,
    /** Walk without coalescing (the leader was lost, or the wait ran out of budget). */
    BYPASS
  }

  public static final DedupeVerdict LEAD = new DedupeVerdict(Kind.LEAD, null, 0);
  public static final DedupeVerdict BYPASS = new DedupeVerdict(Kind.BYPASS, null, 0);

  /** Replay {@code answer}, stored {@code ageMs} ago. */
  public static DedupeVerdict replay(StoredAnswer answer, long ageMs) {
    return new DedupeVerdict(Kind.REPLAY, answer, ageMs);
  }

  /** {@code answer} is the outcome of an identical request's walk. */
  public static DedupeVerdict joined(StoredAnswer answer) {
    return new DedupeVerdict(Kind.JOINED, answer, 0);
  }

  public JsonObject toJson() {
    return new JsonObject().put("kind", kind.name()).put("result", answer == null ? null : answer.toJson())
        .put("age_ms", ageMs);
  }

  public static DedupeVerdict fromJson(JsonObject j) {
    JsonObject r = j.getJsonObject("result");
    return new DedupeVerdict(Kind.valueOf(j.getString("kind")), r == null ? null : StoredAnswer.fromJson(r),
        j.getLong("age_ms", 0L));
  }
}
