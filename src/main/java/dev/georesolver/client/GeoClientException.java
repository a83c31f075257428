package dev.georesolver.client;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Why a request got no result: the one exception a {@link GeoClient} future fails with. Its
 * {@link #code()} says what to do about it; a refusal (no rung could answer) is not one of these
 * but a {@link GeocodeResult} with {@code status} {@code refused}.
 *
 * <table>
 *   <caption>The codes, and the resolver's failure each comes from</caption>
 *   <tr><th>code</th><th>when</th><th>what to do</th></tr>
 *   <tr><td>{@link Code#BAD_REQUEST}</td><td>the request is invalid, or names no tenant (or an unknown
 *       one) while tenants are configured; {@link #problems()} names each field</td><td>fix the request</td></tr>
 *   <tr><td>{@link Code#FORBIDDEN}</td><td>the tenant may not use the intent</td><td>ask with another intent or tenant</td></tr>
 *   <tr><td>{@link Code#MISCONFIGURED}</td><td>no rung of the ladder can serve the intent (all disabled,
 *       or none in a strict tenant's region)</td><td>fix the manifest; asking again will not help</td></tr>
 *   <tr><td>{@link Code#UNAVAILABLE}</td><td>no resolver is listening on the bus (not deployed yet, or
 *       no chain in the cluster), or its store could not do it now, or it refused for now what it
 *       could not take (429)</td><td>ask again later</td></tr>
 *   <tr><td>{@link Code#TIMEOUT}</td><td>no reply within the budget and the margin, or the request
 *       arrived with its budget spent</td><td>ask again, with a longer budget if it keeps happening</td></tr>
 *   <tr><td>{@link Code#INTERNAL}</td><td>a bug in the resolver, or a reply that is not a result</td><td>report it</td></tr>
 * </table>
 *
 * <p>Immutable and thread-safe.
 */
public final class GeoClientException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** What went wrong. */
  public enum Code {
    /** The request is invalid; {@link #problems()} names the fields. */
    BAD_REQUEST,
    /** The tenant may not use the intent. */
    FORBIDDEN,
    /** No rung can serve the request's intent as the resolver is configured. */
    MISCONFIGURED,
    /** No resolver answers on the bus now, or its store is unavailable. */
    UNAVAILABLE,
    /** No reply in time, or the budget was spent before the resolver started. */
    TIMEOUT,
    /** A bug in the resolver, or a reply that is not a result. */
    INTERNAL
  }

  /**
   * One problem of a bad request.
   *
   * @param field the field as the request JSON names it ({@code q}, {@code address.street},
   *     {@code lat}, {@code bbox}, {@code intent}, {@code language}, {@code x-tenant}, …)
   * @param message what is wrong with it ({@code must not be empty})
   */
  public record Problem(String field, String message) {}

  private final Code code;
  private final int failureCode;
  private final transient JsonObject problem;
  private final List<Problem> problems;

  GeoClientException(Code code, int failureCode, String message, JsonObject problem, List<Problem> problems, Throwable cause) {
    super(message, cause);
    this.code = code;
    this.failureCode = failureCode;
    this.problem = problem;
    this.problems = List.copyOf(problems);
  }

  /** A failure that is not a bad request. */
  GeoClientException(Code code, int failureCode, String message, Throwable cause) {
    this(code, failureCode, message, null, List.of(), cause);
  }

  /**
   * A bad request from the resolver's problem JSON (RFC 9457: {@code detail}, {@code field},
   * {@code errors: [{field, message}…]}); a message that is not one is kept as the message.
   */
  static GeoClientException badRequest(String message, Throwable cause) {
    JsonObject p;
    try {
      p = message == null ? null : new JsonObject(message);
    } catch (RuntimeException notJson) {
      p = null;
    }
    if (p == null) {
      return new GeoClientException(Code.BAD_REQUEST, Wire.BAD_REQUEST, message, null, List.of(), cause);
    }
    List<Problem> problems = new ArrayList<>();
    if (p.getValue("errors") instanceof JsonArray errors) {
      for (Object o : errors) {
        if (o instanceof JsonObject e && e.getValue("field") instanceof String f) {
          problems.add(new Problem(f, e.getValue("message") instanceof String m ? m : ""));
        }
      }
    }
    if (problems.isEmpty() && p.getValue("field") instanceof String f) {
      problems.add(new Problem(f, p.getValue("detail") instanceof String d ? d : ""));
    }
    String detail = p.getValue("detail") instanceof String d ? d : message;
    return new GeoClientException(Code.BAD_REQUEST, Wire.BAD_REQUEST, detail, p, problems, cause);
  }

  /** What went wrong. */
  public Code code() {
    return code;
  }

  /**
   * The resolver's numeric failure code ({@code Message.fail}: 400, 403, 408, 500, 503, 507), or -1
   * when the failure did not come from the resolver (no handler, no reply in time, a reply that is
   * not a result).
   */
  public int failureCode() {
    return failureCode;
  }

  /** A bad request's problems, each naming its field, in the resolver's order; empty for other codes. */
  public List<Problem> problems() {
    return problems;
  }

  /** The field of a bad request's first problem ({@code q}, {@code x-tenant}, …), or null. */
  public String field() {
    return problems.isEmpty() ? null : problems.get(0).field();
  }

  /** A bad request's problem JSON as the resolver sent it (a copy), or null. */
  public JsonObject problem() {
    return problem == null ? null : problem.copy();
  }
}
