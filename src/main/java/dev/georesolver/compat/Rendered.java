package dev.georesolver.compat;

import io.vertx.core.buffer.Buffer;

import java.util.Map;

/**
 * A compatible answer ready to send: status, body and the headers particular to it (the common
 * ones — content type, CORS, the {@code X-Georesolver-*} headers — are added by the handler).
 * Immutable.
 *
 * @param status the HTTP status
 * @param contentType the body's content type
 * @param body the body
 * @param headers extra headers such as {@code Retry-After} or {@code WWW-Authenticate}
 */
public record Rendered(int status, String contentType, Buffer body, Map<String, String> headers) {

  /** JSON in UTF-8, the content type of every JSON answer. */
  public static final String JSON = "application/json; charset=utf-8";
  /** Plain text in UTF-8 ({@code /status} in text form). */
  public static final String TEXT = "text/plain; charset=utf-8";

  public Rendered {
    headers = Map.copyOf(headers);
  }

  /** A JSON answer without extra headers. */
  public static Rendered json(int status, Buffer body) {
    return new Rendered(status, JSON, body, Map.of());
  }

  /** The body as text (tests, logs). */
  public String text() {
    return body.toString(java.nio.charset.StandardCharsets.UTF_8);
  }
}
