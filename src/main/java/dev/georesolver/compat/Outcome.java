package dev.georesolver.compat;

import dev.georesolver.bus.FailureCode;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;

/**
 * What became of one compatible request, before it is put in a dialect's words. Every way a
 * request can end is one of these; {@link NominatimShapes} and {@link GoogleShapes} each render
 * every case. Immutable.
 */
public sealed interface Outcome {

  /** A rung answered. */
  record Found(Answer answer) implements Outcome {}

  /**
   * Every rung asked answered and found nothing, or there was nothing to look for: the dialect's
   * "no result".
   *
   * @param answer the refusal, or null when the request was not sent (an empty query)
   */
  record NotFound(Answer answer) implements Outcome {}

  /**
   * No answer because rungs failed, were skipped or ran out of time, or because no rung can serve
   * the request as configured: the dialect's "unavailable, try again" — never a fake "no result".
   *
   * @param status the HTTP status a dialect that uses statuses gives it: 503, or 504 when the
   *     router itself did not answer in time
   * @param message what happened (the refusal's notice when there is one)
   * @param answer the refusal, or null when the chain did not answer
   */
  record Unavailable(int status, String message, Answer answer) implements Outcome {}

  /**
   * The request is invalid.
   *
   * @param param the dialect's parameter at fault, or null
   * @param message what is wrong, a sentence ending in a full stop
   */
  record Invalid(String param, String message) implements Outcome {}

  /** The gate refused the credentials: 401 or 403. */
  record Denied(int status, String message) implements Outcome {}

  /** The tenant is over its rate limit. */
  record RateLimited(long retryAfterS, String message) implements Outcome {}

  /** The router itself failed (a bug, or the chain unreachable). */
  record Failed(String message) implements Outcome {}

  /** The outcome of an answer from the chain: found, not found, or unavailable. */
  static Outcome of(Answer a) {
    if (a.resolved()) {
      return new Found(a);
    }
    if (a.notFound()) {
      return new NotFound(a);
    }
    return new Unavailable(503, a.notice() != null ? a.notice() : "No rung could answer.", a);
  }

  /** The outcome of a gate verdict that is not an admission. */
  static Outcome of(GateVerdict v) {
    if (v instanceof GateVerdict.Denied d) {
      return new Denied(d.status(), d.message());
    }
    if (v instanceof GateVerdict.RateLimited r) {
      return new RateLimited(r.retryAfterS(), r.message());
    }
    throw new IllegalArgumentException("an admission has no outcome of its own");
  }

  /** The outcome of a failed request to the chain (the same cases {@code /v1} maps to HTTP). */
  static Outcome ofFailure(Throwable t) {
    if (t instanceof ReplyException re) {
      if (re.failureType() == ReplyFailure.TIMEOUT) {
        return new Unavailable(504, "The router did not answer within the budget.", null);
      }
      if (re.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
        FailureCode code = FailureCode.of(re.failureCode()).orElse(FailureCode.ROUTER_ERROR);
        return switch (code) {
          case BAD_REQUEST -> new Invalid(null, problemDetail(re.getMessage()));
          case FORBIDDEN -> new Denied(403, "This key may not use that intent.");
          case MISCONFIGURED -> new Unavailable(503, "Misconfigured: " + re.getMessage(), null);
          case DEADLINE_EXCEEDED -> new Unavailable(504, "The budget was spent before the router could start.", null);
          case ROUTER_ERROR -> new Failed("Router error.");
          case STORE_UNAVAILABLE, REFUSED -> new Unavailable(503, "The durable store is unavailable.", null);
        };
      }
      // No chain up in the cluster (no handler), or its node unreachable: unavailable, not an error of ours.
      return new Unavailable(503, "No resolver chain is running.", null);
    }
    return new Failed("Router error.");
  }

  private static String problemDetail(String message) {
    try {
      return new JsonObject(message).getString("detail", "Invalid request.");
    } catch (DecodeException | NullPointerException e) {
      return "Invalid request.";
    }
  }
}
