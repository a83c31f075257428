package dev.georesolver.web;

import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

/**
 * A request refused at the HTTP layer, before its fields are validated: it could not be decoded, or
 * it broke a {@link ServerLimits limit}. Carries what the answer needs: its status, the part of the
 * request at fault, a detail for the caller, how the connection ends (the rest of the request is
 * unread or unreadable, so it cannot carry another), and the reason it is counted under. Cheap: no
 * stack trace. The detail never quotes the request.
 */
public final class RejectedRequest extends RuntimeException {

  /** How the connection ends after the answer. */
  public enum Close {
    /**
     * Closed once the unread rest of the request has been read and dropped, for at most
     * {@link Problems#DRAIN_MS}: closing with unread bytes resets the connection, and a reset can
     * destroy the answer before the client reads it.
     */
    AFTER_DRAINING,
    /** Closed at once: the connection is already failing, or the client is too slow to wait for. */
    NOW
  }

  private final int status;
  private final String title;
  private final String field;
  private final String reason;
  private final Close close;

  private RejectedRequest(int status, String title, String field, String detail, String reason, Close close) {
    super(detail, null, false, false);
    this.status = status;
    this.title = title;
    this.field = field;
    this.reason = reason;
    this.close = close;
  }

  /** The answer to a request the HTTP decoder gave up on: its line, or its headers. */
  public static RejectedRequest undecodable(Throwable cause, ServerLimits limits) {
    if (cause instanceof TooLongHttpLineException) {
      return new RejectedRequest(414, "URI Too Long", "request",
          "the request line is limited to " + limits.maxRequestLineBytes() + " bytes", "request_line_too_long", Close.AFTER_DRAINING);
    }
    if (cause instanceof TooLongHttpHeaderException) {
      return new RejectedRequest(431, "Request Header Fields Too Large", "headers",
          "request headers are limited to " + limits.maxHeaderBytes() + " bytes in all", "headers_too_large", Close.AFTER_DRAINING);
    }
    return new RejectedRequest(400, "Invalid request", "request",
        "is not a well-formed HTTP/1.1 request line with headers", "malformed", Close.AFTER_DRAINING);
  }

  /**
   * A request line naming a protocol other than HTTP/1.0 or HTTP/1.1 ({@code HTTP/2.0} in HTTP/1
   * syntax, {@code HTTX/1.1}): the client's mistake, so a 400 rather than a 505.
   */
  public static RejectedRequest unsupportedVersion() {
    return new RejectedRequest(400, "Invalid request", "request", "must be HTTP/1.0 or HTTP/1.1", "malformed",
        Close.AFTER_DRAINING);
  }

  /** A body over the limit; the connection is closed since the rest of the body is not read. */
  public static RejectedRequest bodyTooLarge(long maxBytes) {
    return new RejectedRequest(413, "Payload Too Large", "body",
        "request bodies are limited to " + maxBytes + " bytes", "body_too_large", Close.AFTER_DRAINING);
  }

  /** A body whose framing broke (chunked encoding) or whose connection failed while it was read. */
  public static RejectedRequest bodyUnreadable() {
    return new RejectedRequest(400, "Invalid request", "body",
        "could not be read: its transfer encoding is malformed", null, Close.NOW);
  }

  /** A body that did not arrive within {@link ServerLimits#bodyTimeoutMs()}. */
  public static RejectedRequest bodyTimeout(long timeoutMs) {
    return new RejectedRequest(408, "Request Timeout", "body",
        "the request body did not arrive within " + timeoutMs + " ms", "body_timeout", Close.NOW);
  }

  /** The HTTP status. */
  public int status() {
    return status;
  }

  /** The problem title. */
  public String title() {
    return title;
  }

  /** The part of the request at fault: {@code request}, {@code headers} or {@code body}. */
  public String field() {
    return field;
  }

  /**
   * What this is counted under in {@code georesolver_http_rejected_total}, or null for a bad request
   * counted by its field.
   */
  public String reason() {
    return reason;
  }

  /** How the connection ends after the answer. */
  public Close close() {
    return close;
  }
}
