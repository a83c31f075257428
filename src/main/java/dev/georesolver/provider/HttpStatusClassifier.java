package dev.georesolver.provider;

import dev.georesolver.geo.FailureClass;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * The HTTP-status rules every adapter shares: which status means which {@link FailureClass}, and
 * how long a {@code Retry-After} asks the tier to stay away. Pure and thread-safe.
 */
public final class HttpStatusClassifier {

  private HttpStatusClassifier() {}

  /**
   * The failure for a non-2xx status, or null for 2xx (the adapter reads the body).
   *
   * @param notFoundIsNoMatch whether 404 means "no match" for this provider (the generic contract
   *     and cache tiers say so); otherwise 404 is unclassified
   */
  public static ProviderAnswer.Failed classify(ProviderResponse r, boolean notFoundIsNoMatch) {
    int s = r.status();
    if (s >= 200 && s < 300) {
      return null;
    }
    return classifyCode(s, r, notFoundIsNoMatch);
  }

  /**
   * The failure for an HTTP-like status code that may come from the body rather than the status
   * line (ArcGIS {@code error.code}, OpenCage {@code status.code}), with the same rules as
   * {@link #classify}. A 2xx code is {@link FailureClass#UNCLASSIFIED}: callers only pass codes
   * that already mean "error".
   *
   * @param r the response, read for {@code Retry-After} when the code is 429
   */
  public static ProviderAnswer.Failed classifyCode(int code, ProviderResponse r, boolean notFoundIsNoMatch) {
    return switch (code) {
      case 502, 503, 504 -> fail(FailureClass.TRANSIENT, "HTTP " + code);
      case 500 -> fail(FailureClass.DEGRADABLE, "HTTP 500");
      case 429 -> quota(r, "HTTP 429");
      case 401, 403 -> fail(FailureClass.CREDENTIAL, "HTTP " + code);
      case 400, 422 -> fail(FailureClass.REJECTED, "HTTP " + code);
      case 404 -> notFoundIsNoMatch ? fail(FailureClass.NO_MATCH, "HTTP 404") : fail(FailureClass.UNCLASSIFIED, "HTTP 404");
      default -> fail(FailureClass.UNCLASSIFIED, "HTTP " + code);
    };
  }

  /**
   * A {@link FailureClass#QUOTA} failure carrying the response's {@code Retry-After}, for HTTP 429
   * and for a provider's in-body over-quota status alike. Reads the wall clock only to resolve the
   * HTTP-date form of the header.
   */
  public static ProviderAnswer.Failed quota(ProviderResponse r, String detail) {
    return new ProviderAnswer.Failed(FailureClass.QUOTA, detail, retryAfterMs(r.header("retry-after"), System.currentTimeMillis()));
  }

  private static ProviderAnswer.Failed fail(FailureClass c, String detail) {
    return new ProviderAnswer.Failed(c, detail, null);
  }

  /**
   * Reads {@code Retry-After}: delta-seconds ({@code 1*DIGIT}) or an HTTP-date (RFC 9110 §10.2.3).
   * Overflow-safe: a number of seconds too large to count in milliseconds, however many digits it
   * has, reads as {@link Long#MAX_VALUE}; the tier caps what it honours at its
   * {@code retry_after_max_ms}.
   *
   * @param nowMs wall-clock epoch millis, for the HTTP-date form
   * @return milliseconds to stay away (never negative), or null when absent or unreadable (a sign,
   *     a fraction, a unit, a date in another form)
   */
  public static Long retryAfterMs(String value, long nowMs) {
    if (value == null || value.isBlank()) {
      return null;
    }
    String v = value.trim();
    if (isDigits(v)) {
      return saturatedMillis(v);
    }
    try {
      long at = ZonedDateTime.parse(v, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli();
      return Math.max(0, at - nowMs);
    } catch (DateTimeParseException | ArithmeticException notDate) {
      return null;
    }
  }

  private static boolean isDigits(String v) {
    for (int i = 0; i < v.length(); i++) {
      char c = v.charAt(i);
      if (c < '0' || c > '9') {
        return false;
      }
    }
    return true;
  }

  /** Seconds written in digits as milliseconds, {@link Long#MAX_VALUE} when they do not fit. */
  private static long saturatedMillis(String digits) {
    long seconds = 0;
    for (int i = 0; i < digits.length(); i++) {
      int d = digits.charAt(i) - '0';
      if (seconds > (Long.MAX_VALUE / 1000 - d) / 10) {
        return Long.MAX_VALUE;
      }
      seconds = seconds * 10 + d;
    }
    return seconds * 1000;
  }
}
