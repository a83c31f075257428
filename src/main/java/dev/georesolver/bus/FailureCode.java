package dev.georesolver.bus;

import java.util.Arrays;
import java.util.Optional;

/** Failure codes used with {@code Message.fail(code, message)}; never {@code -1}. */
public enum FailureCode {
  /** The request is invalid; the message is problem JSON naming the fields. */
  BAD_REQUEST(400),
  /** The tenant named by the request may not use its intent. */
  FORBIDDEN(403),
  /** The message arrived with its budget already spent. */
  DEADLINE_EXCEEDED(408),
  /** No rung can serve this request's intent as the ladder is configured. */
  MISCONFIGURED(503),
  /** A bug in the router: an exception in the walker. */
  ROUTER_ERROR(500),
  /**
   * Refused for now, nothing kept: the message is a problem JSON whose {@code status} (429, 503 or
   * 507) and {@code retry_after_s} the ingress answers with (too many uploads at once, a tenant's
   * quota, no room to write).
   */
  REFUSED(429),
  /** The durable store could not do it now (slow, down, or refusing for lack of disk); retry later. */
  STORE_UNAVAILABLE(507);

  private final int code;

  FailureCode(int code) {
    this.code = code;
  }

  /** The numeric code passed to {@code Message.fail}. */
  public int code() {
    return code;
  }

  /** The failure code for a numeric code, if it is one of ours. */
  public static Optional<FailureCode> of(int code) {
    return Arrays.stream(values()).filter(f -> f.code == code).findFirst();
  }
}
