package dev.georesolver.ingress;

import io.netty.handler.codec.http.TooLongHttpHeaderException;
import io.netty.handler.codec.http.TooLongHttpLineException;

/**
 * A request refused at the HTTP layer, before its fields are validated: it could not be decoded, or
 * it broke a {@link ServerLimits limit}. Carries what the answer needs: its status, the part of the
 * request at fault, a detail for the caller, whether the connection must be closed (the rest of
 * the request is unread or unreadable), and the reason it is counted under. Cheap: no stack trace.
 * The detail never quotes the request.
 */
public final class RejectedRequest extends RuntimeException {

  private final int status;
  private final String title;
  private final String field;
  private final String reason;
  private final boolean closeConnection;

  private RejectedRequest(int status, String title, String field, String detail, String reason, boolean closeConnection) {
    super(detail, null, false, false);
    this.status = status;
    this.title = title;
    this.field = field;
    this.reason = reason;
    this.closeConnection = closeConnection;
  }

  /** The answer to a request the HTTP decoder gave up on: its line, or its headers. */
  public static RejectedRequest undecodable(Throwable cause, ServerLimits limits) {
    if (cause instanceof TooLongHttpLineException) {
      return new RejectedRequest(414, "URI Too Long", "request",
          "the request line is limited to " + limits.maxRequestLineBytes() + " bytes", "request_line_too_long", true);
    }
    if (cause instanceof TooLongHttpHeaderException) {
      return new RejectedRequest(431, "Request Header Fields Too Large", "headers",
          "request headers are limited to " + limits.maxHeaderBytes() + " bytes in all", "headers_too_large", true);
    }
    return new RejectedRequest(400, "Invalid request", "request",
        "is not a well-formed HTTP/1.1 request line with headers", "malformed", true);
  }

  /** A body over the limit; the connection is closed since the rest of the body is not read. */
  public static RejectedRequest bodyTooLarge(long maxBytes) {
    return new RejectedRequest(413, "Payload Too Large", "body",
        "request bodies are limited to " + maxBytes + " bytes", "body_too_large", true);
  }

  /** A body whose framing broke (chunked encoding) or whose connection failed while it was read. */
  public static RejectedRequest bodyUnreadable() {
    return new RejectedRequest(400, "Invalid request", "body",
        "could not be read: its transfer encoding is malformed", null, true);
  }

  /** A body that did not arrive within {@link ServerLimits#bodyTimeoutMs()}. */
  public static RejectedRequest bodyTimeout(long timeoutMs) {
    return new RejectedRequest(408, "Request Timeout", "body",
        "the request body did not arrive within " + timeoutMs + " ms", "body_timeout", true);
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

  /** Whether the connection must be closed after the answer. */
  public boolean closeConnection() {
    return closeConnection;
  }
}
