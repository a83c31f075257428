package dev.georesolver.web;

import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.config.TierConfig;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.http.HttpConnection;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Locale;

/**
 * The one place where failures become HTTP answers: {@code application/problem+json} (RFC 9457).
 *
 * <ul>
 *   <li>invalid input → 400 naming the fields;
 *   <li>a request refused at the HTTP layer ({@link RejectedRequest}: undecodable, over a limit,
 *       too slow) → its own status (400, 408, 413, 414, 431) naming the part at fault, then the
 *       connection closed, since the rest of the request cannot carry another;
 *   <li>no key or an unknown key → 401 {@code unauthenticated} with {@code WWW-Authenticate};
 *       an intent or endpoint the tenant may not use (also {@link FailureCode#FORBIDDEN}) → 403
 *       {@code forbidden}; a tenant over its rate limit → 429 {@code rate_limited} with
 *       {@code Retry-After};
 *   <li>{@link FailureCode#MISCONFIGURED} → 503 {@code misconfigured} (no rung can serve the intent);
 *   <li>{@link FailureCode#ROUTER_ERROR} and anything unexpected → 500 {@code router_error};
 *   <li>the chain not answering within the budget plus grace → 504 {@code router_timeout};
 *   <li>no chain to ask (an ingress-only node whose cluster has no chain up: no handler, or the
 *       chain's node unreachable) → 503 {@code no_chain}, at once;
 *   <li>an admin command for a tier that does not run → 404 {@code unknown_tier}; one the tier did
 *       not answer in time → 504 {@code tier_timeout}; the operator's feed unavailable or full →
 *       503 {@code events_unavailable}.
 * </ul>
 *
 * A refusal is not a failure: it is a 200 result and never passes through here.
 */
public final class Problems {

  private static final Logger log = LoggerFactory.getLogger(Problems.class);
  private static final String TYPE = "https://georesolver.dev/problems/";

  /** How long the unread rest of a refused request is read and dropped before its connection is closed, ms. */
  public static final long DRAIN_MS = 1000;

  private Problems() {}

  /** The challenge sent with every 401: the key goes in {@code Authorization: Bearer} (or {@code X-Api-Key}). */
  public static final String CHALLENGE = "Bearer realm=\"georesolver\"";

  /**
   * The second challenge on the operator's pages: a browser asks its user for the admin key (any
   * user name, the key as password) and then sends it by itself, the dashboard's event stream too.
   */
  public static final String BROWSER_CHALLENGE = "Basic realm=\"georesolver admin\", charset=\"UTF-8\"";

  /**
   * Sends a 401 for a request without a usable key.
   *
   * @param keyGiven whether a key was presented (then the challenge says it is invalid)
   */
  public static void unauthenticated(HttpServerResponse resp, boolean keyGiven, String detail, String traceId) {
    unauthenticated(resp, keyGiven, false, detail, traceId);
  }

  /**
   * Sends a 401 for a request without a usable key; {@code browser} adds {@link #BROWSER_CHALLENGE}
   * (only on the operator's pages: an API client in a browser must not get a login prompt).
   */
  public static void unauthenticated(HttpServerResponse resp, boolean keyGiven, boolean browser, String detail,
      String traceId) {
    resp.putHeader("WWW-Authenticate", keyGiven ? CHALLENGE + ", error=\"invalid_token\"" : CHALLENGE);
    if (browser) {
      resp.headers().add("WWW-Authenticate", BROWSER_CHALLENGE);
    }
    send(resp, 401, problem("unauthenticated", "Unauthenticated", 401, detail), traceId);
  }

  /** Sends a 403 for an intent or endpoint the caller's tenant may not use. */
  public static void forbidden(HttpServerResponse resp, String detail, String traceId) {
    send(resp, 403, problem("forbidden", "Forbidden", 403, detail), traceId);
  }

  /** Sends a 429 for a tenant over its rate limit, with {@code Retry-After} in whole seconds. */
  public static void rateLimited(HttpServerResponse resp, long retryAfterS, String detail, String traceId) {
    resp.putHeader("Retry-After", Long.toString(retryAfterS));
    send(resp, 429, problem("rate_limited", "Too Many Requests", 429, detail), traceId);
  }

  /** Sends a 400 for field problems. */
  public static void badRequest(HttpServerResponse resp, List<FieldProblem> problems, String traceId) {
    send(resp, 400, RequestValidator.problemJson(problems), traceId);
  }

  /**
   * Sends the answer for a failure while serving {@code req}: a {@link RejectedRequest} as itself,
   * anything else as {@link #fail(HttpServerResponse, Throwable, String)} does.
   */
  public static void fail(HttpServerRequest req, Throwable t, String traceId) {
    if (t instanceof RejectedRequest r) {
      rejected(req, r, traceId);
    } else {
      fail(req.response(), t, traceId);
    }
  }

  /**
   * Answers a request refused at the HTTP layer, then ends its connection as
   * {@link RejectedRequest#close()} says.
   */
  public static void rejected(HttpServerRequest req, RejectedRequest r, String traceId) {
    HttpServerResponse resp = req.response();
    if (!resp.ended() && !resp.headWritten()) {
      JsonObject p = r.status() == 400
          ? RequestValidator.problemJson(List.of(new FieldProblem(r.field(), r.getMessage())))
          : problem(r.title().toLowerCase(Locale.ROOT).replace(' ', '_'), r.title(), r.status(), r.getMessage())
              .put("field", r.field());
      resp.putHeader("connection", "close");
      send(resp, r.status(), p, traceId);
    }
    if (r.close() == RejectedRequest.Close.NOW || req.isEnded() || Vertx.currentContext() == null) {
      req.connection().close();
      return;
    }
    closeAfterDrain(req);
  }

  /**
   * Readies a request that is about to be refused before its body is read (a 401, 403 or 429 from
   * the tenant guard): when it carries a body, the answer says {@code connection: close} and the
   * body is read and dropped, for up to {@link #DRAIN_MS}, before the connection is closed, so the
   * client sees the answer whatever the body does (a broken chunk included). A request without a
   * body keeps its connection.
   */
  public static void beforeBody(HttpServerRequest req) {
    String length = req.getHeader("content-length");
    boolean body = req.headers().contains("transfer-encoding") || (length != null && !length.strip().equals("0"));
    if (!body || req.isEnded() || Vertx.currentContext() == null) {
      return;
    }
    req.response().putHeader("connection", "close");
    closeAfterDrain(req);
  }

  /** Reads and drops the rest of the request, then closes its connection (at its end, at a broken body, or after {@link #DRAIN_MS}). */
  private static void closeAfterDrain(HttpServerRequest req) {
    HttpConnection conn = req.connection();
    Context context = Vertx.currentContext();
    req.handler(dropped -> { });
    req.exceptionHandler(t -> conn.close());
    req.endHandler(v -> conn.close());
    req.resume();
    context.owner().setTimer(DRAIN_MS, id -> conn.close());
  }

  /**
   * Answers a request the router refused as malformed (status 400 with no handler of its own): a
   * percent-escape in the path or the query that does not decode. Names the part at fault.
   */
  public static void malformedUri(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    FieldProblem problem;
    if (QueryString.hasMalformedEscape(req.path())) {
      problem = new FieldProblem("path", "has a malformed percent-escape");
    } else {
      List<FieldProblem> query = QueryString.parse(req.query()).problems();
      problem = query.isEmpty() ? new FieldProblem("request", "is malformed") : query.get(0);
    }
    badRequest(ctx.response(), List.of(problem), null);
  }

  /** Sends the answer for a failure of the chain request, or of the route itself. */
  public static void fail(HttpServerResponse resp, Throwable t, String traceId) {
    if (t instanceof ReplyException re) {
      if (re.failureType() == ReplyFailure.RECIPIENT_FAILURE) {
        FailureCode code = FailureCode.of(re.failureCode()).orElse(FailureCode.ROUTER_ERROR);
        switch (code) {
          case BAD_REQUEST -> {
            send(resp, 400, parseProblem(re.getMessage()), traceId);
            return;
          }
          case FORBIDDEN -> {
            forbidden(resp, re.getMessage(), traceId);
            return;
          }
          case MISCONFIGURED -> {
            send(resp, 503, problem("misconfigured", "Misconfigured", 503, re.getMessage()), traceId);
            return;
          }
          case DEADLINE_EXCEEDED -> {
            send(resp, 504, problem("router_timeout", "Budget spent before the router could start", 504, re.getMessage()), traceId);
            return;
          }
          default -> {
            send(resp, 500, problem("router_error", "Router error", 500, re.getMessage()), traceId);
            return;
          }
        }
      }
      if (re.failureType() == ReplyFailure.TIMEOUT) {
        log.error("router did not answer in time (trace {})", traceId);
        send(resp, 504, problem("router_timeout", "The router did not answer within the budget", 504,
            "no result within the budget; see trace " + traceId), traceId);
        return;
      }
      if (re.failureType() == ReplyFailure.NO_HANDLERS) {
        // An ingress-only node with no chain up in its cluster (or one going away): nothing walked, try again.
        log.warn("no chain to ask (trace {}): {}", traceId, re.getMessage());
        send(resp, 503, problem("no_chain", "No resolver chain is running", 503,
            "no ladder walker is running on this node or in its cluster; try again later"), traceId);
        return;
      }
      log.error("router unreachable (trace {}): {}", traceId, re.getMessage());
      send(resp, 503, problem("no_chain", "No resolver chain is running", 503, "router unreachable: " + re.getMessage()), traceId);
      return;
    }
    log.error("router_error (trace {})", traceId, t);
    send(resp, 500, problem("router_error", "Router error", 500, String.valueOf(t)), traceId);
  }

  /**
   * Sends 404 {@code unknown_tier}: no tier of that name runs. The name is repeated only when it
   * can be a tier's name, so the answer never echoes arbitrary path text.
   */
  public static void unknownTier(HttpServerResponse resp, String name) {
    String detail = TierConfig.isName(name) ? "no tier named '" + name + "' is running" : "no such tier";
    send(resp, 404, problem("unknown_tier", "Unknown tier", 404, detail), null);
  }

  /** Sends the answer for an admin command to tier {@code name} that failed on the bus. */
  public static void tierCommandFailed(HttpServerResponse resp, String name, Throwable t) {
    if (t instanceof ReplyException re && re.failureType() == ReplyFailure.NO_HANDLERS) {
      unknownTier(resp, name);
    } else if (t instanceof ReplyException re && re.failureType() == ReplyFailure.TIMEOUT) {
      send(resp, 504, problem("tier_timeout", "Tier did not answer", 504, "tier '" + name + "' did not answer in time"), null);
    } else {
      fail(resp, t, null);
    }
  }

  /** Sends 503 {@code events_unavailable}: the operator's feed cannot be served now, and why. */
  public static void eventsUnavailable(HttpServerResponse resp, String detail) {
    send(resp, 503, problem("events_unavailable", "Events unavailable", 503, detail), null);
  }

  /**
   * Sends 422 {@code reload_refused}: the manifest file was not applied and the old revision keeps
   * serving. {@code detail} lists the loader's problems (each with its path) and the settings only a
   * restart applies; {@code reload} is the whole status.
   */
  public static void reloadRefused(HttpServerResponse resp, JsonObject status) {
    JsonObject last = status.getJsonObject("last_attempt");
    java.util.List<String> why = new java.util.ArrayList<>();
    if (last != null) {
      last.getJsonArray("problems").forEach(p -> why.add(String.valueOf(p)));
      last.getJsonArray("needs_restart").forEach(p -> why.add("needs a restart: " + p));
    }
    send(resp, 422, problem("reload_refused", "Reload refused", 422, "revision " + status.getString("serving_revision")
        + " keeps serving: " + String.join("; ", why)).put("reload", status), null);
  }

  /** Sends 503 {@code reload_unavailable}: no reloader answered, and why. */
  public static void reloadUnavailable(HttpServerResponse resp, String detail) {
    send(resp, 503, problem("reload_unavailable", "Reload unavailable", 503, detail), null);
  }

  /**
   * Sends a batch submission's refusal, before any job exists: the problem the batch verticle gave
   * (its {@code status} 400 for a file that is no batch or names no accepted column set, 413 for
   * one over {@code batch.max_rows} or a record too long), a refusal for now ({@code REFUSED}: its
   * {@code status} 429, 503 or 507 with {@code Retry-After} from its {@code retry_after_s}), or a
   * 503 when the store could not take it.
   */
  public static void batchRefused(HttpServerResponse resp, Throwable t) {
    if (t instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE
        && re.failureCode() == FailureCode.REFUSED.code()) {
      JsonObject p = parseProblem(re.getMessage());
      int status = p.getInteger("status", 503);
      long retry = p.getLong("retry_after_s", 5L);
      p.remove("retry_after_s");
      if (!p.containsKey("type")) {
        p.put("type", TYPE + (status == 507 ? "insufficient_storage" : status == 429 ? "quota_exceeded" : "batch_busy"));
      }
      resp.putHeader("Retry-After", Long.toString(Math.max(1, retry)));
      send(resp, status == 429 || status == 507 ? status : 503, p, null);
      return;
    }
    if (t instanceof ReplyException re && re.failureType() == ReplyFailure.RECIPIENT_FAILURE
        && re.failureCode() == FailureCode.BAD_REQUEST.code()) {
      JsonObject p = parseProblem(re.getMessage());
      send(resp, p.getInteger("status", 400) == 413 ? 413 : 400, p, null);
      return;
    }
    storeUnavailable(resp, "the batch could not be stored now: " + t.getMessage());
  }

  /** Sends 413 {@code batch_too_large}: the upload is over {@code batch.max_upload_mb}. */
  public static void batchTooLarge(HttpServerResponse resp, long maxBytes) {
    send(resp, 413, problem("batch_too_large", "Batch file too large", 413,
        "a batch file may take at most " + maxBytes + " bytes (batch.max_upload_mb)"), null);
  }

  /** Sends 408 {@code upload_too_slow}: a batch upload fell below its minimum pace. */
  public static void uploadTooSlow(HttpServerResponse resp, String detail) {
    send(resp, 408, problem("upload_too_slow", "Upload too slow", 408, detail), null);
  }

  /** Sends 404 {@code no_such_batch}: no job of that id that the caller may see (another tenant's reads as none). */
  public static void noSuchBatch(HttpServerResponse resp) {
    send(resp, 404, problem("no_such_batch", "No such batch", 404, "no batch job of that id for this tenant"), null);
  }

  /** Sends 409 {@code batch_not_finished}: results are served once the job has ended. */
  public static void batchNotFinished(HttpServerResponse resp, String state) {
    send(resp, 409, problem("batch_not_finished", "Batch not finished", 409,
        "the job is " + state + "; its results can be read once it is done or cancelled"), null);
  }

  /** Sends 503 {@code store_unavailable}: the durable store did not answer. */
  public static void storeUnavailable(HttpServerResponse resp, String detail) {
    send(resp, 503, problem("store_unavailable", "Store unavailable", 503, detail), null);
  }

  /** A problem object. */
  public static JsonObject problem(String type, String title, int status, String detail) {
    return new JsonObject().put("type", TYPE + type).put("title", title).put("status", status).put("detail", detail);
  }

  /** Sends a problem for a status the router itself produced (404, 405, 413). */
  public static void status(HttpServerResponse resp, int status, String title, String detail, String traceId) {
    send(resp, status, problem(title.toLowerCase().replace(' ', '_'), title, status, detail), traceId);
  }

  private static JsonObject parseProblem(String message) {
    try {
      return new JsonObject(message);
    } catch (DecodeException | NullPointerException e) {
      return problem("invalid-request", "Invalid request", 400, message);
    }
  }

  private static void send(HttpServerResponse resp, int status, JsonObject problem, String traceId) {
    if (resp.ended()) {
      return;
    }
    if (traceId != null) {
      problem.put("trace_id", traceId);
    }
    resp.setStatusCode(status)
        .putHeader("content-type", "application/problem+json")
        .end(problem.toBuffer());
  }
}
