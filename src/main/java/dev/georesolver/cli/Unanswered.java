package dev.georesolver.cli;

import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * A request that got no result JSON, and why, the same from the event bus and from HTTP. Cheap: no
 * stack trace.
 */
final class Unanswered extends RuntimeException {

  /** Why there is no result. */
  enum Kind {
    /** The request is invalid: the resolver named the field. */
    INVALID,
    /** The server refused the key (401, 403). */
    DENIED,
    /** Nothing can be answered: the server is missing or not a resolver, the ladder cannot serve the intent. */
    UNAVAILABLE,
    /** Worth trying again later: the server unreachable, overloaded (429, 502–504) or not answering in time. */
    TRANSIENT,
    /** This request failed (the router's own error, no answer within the budget); others may not. */
    FAILED
  }

  private final Kind kind;
  private final String field;
  private final long retryAfterMs;

  Unanswered(Kind kind, String message) {
    this(kind, message, null, -1);
  }

  Unanswered(Kind kind, String message, String field, long retryAfterMs) {
    super(message, null, false, false);
    this.kind = kind;
    this.field = field;
    this.retryAfterMs = retryAfterMs;
  }

  Kind kind() {
    return kind;
  }

  /** For {@link Kind#INVALID}: the first field the resolver named, or null. */
  String field() {
    return field;
  }

  /** For {@link Kind#TRANSIENT}: how long the server asked to wait (Retry-After), ms; -1 when it did not say. */
  long retryAfterMs() {
    return retryAfterMs;
  }

  /** The exit status of a single request that ended so. */
  int exitStatus() {
    return kind == Kind.INVALID || kind == Kind.DENIED ? Exit.USAGE : Exit.UNAVAILABLE;
  }

  /** An invalid request from the resolver's problem JSON: every field problem, joined. */
  static Unanswered invalid(String problemJson) {
    try {
      JsonObject p = new JsonObject(problemJson);
      JsonArray errors = p.getJsonArray("errors");
      if (errors == null || errors.isEmpty()) {
        return new Unanswered(Kind.INVALID, String.valueOf(p.getValue("detail", "invalid request")));
      }
      StringBuilder sb = new StringBuilder();
      for (int i = 0; i < errors.size(); i++) {
        JsonObject e = errors.getJsonObject(i);
        sb.append(i == 0 ? "" : "; ").append(e.getString("field", "")).append(' ').append(e.getString("message", ""));
      }
      return new Unanswered(Kind.INVALID, sb.toString(), errors.getJsonObject(0).getString("field"), -1);
    } catch (DecodeException | ClassCastException e) {
      return new Unanswered(Kind.INVALID, Terminal.safe(problemJson, 300));
    }
  }
}
