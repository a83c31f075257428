package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * Dedupe's answer to a {@link DedupeClaim}. Immutable.
 *
 * @param kind what the chain should do
 * @param result for {@link Kind#REPLAY} and {@link Kind#JOINED}: the answer
 * @param ageMs for {@link Kind#REPLAY}: the stored answer's age in milliseconds
 */
public record DedupeVerdict(Kind kind, ResolveResult result, long ageMs) {

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

  public JsonObject toJson() {
    return new JsonObject().put("kind", kind.name()).put("result", result == null ? null : result.toJson())
        .put("age_ms", ageMs);
  }

  public static DedupeVerdict fromJson(JsonObject j) {
    JsonObject r = j.getJsonObject("result");
    return new DedupeVerdict(Kind.valueOf(j.getString("kind")), r == null ? null : ResolveResult.fromJson(r),
        j.getLong("age_ms", 0L));
  }
}
