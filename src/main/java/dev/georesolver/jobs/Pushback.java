package dev.georesolver.jobs;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.Set;

/**
 * Whether a batch row's answer says a tier pushed back rather than that the address has no answer:
 * a refusal with an attempt skipped for an open breaker, a rate limit or the batch share, or a
 * provider's {@code quota} (429). Such a row is sent again later, and its job slows down; it does
 * not fail. A resolved answer is kept as it is, degraded or not (reconciliation corrects it).
 */
public final class Pushback {

  /** Attempt outcomes that mean "not now". */
  static final Set<String> OUTCOMES = Set.of("skipped_breaker_open", "skipped_rate_limited", "skipped_batch_share", "quota");

  private Pushback() {}

  /** Whether {@code result} (the result JSON of {@code geocode.resolve}) is a refusal caused by push back. */
  public static boolean pushedBack(JsonObject result) {
    if (!"refused".equals(result.getString("status"))) {
      return false;
    }
    JsonArray attempts = result.getJsonArray("attempts");
    if (attempts == null) {
      return false;
    }
    for (Object a : attempts) {
      if (a instanceof JsonObject o && OUTCOMES.contains(o.getString("outcome"))) {
        return true;
      }
    }
    return false;
  }
}
