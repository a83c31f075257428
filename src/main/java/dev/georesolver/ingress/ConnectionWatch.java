package dev.georesolver.ingress;

import dev.georesolver.web.ServerLimits;

/**
 * The read deadlines of one client connection, as pure state: what the connection is doing and
 * since when, and what is due when it is checked. Time is in nanoseconds from one monotonic clock.
 * Not thread-safe: confined to the connection's event loop.
 *
 * <p>The rules: a new connection completes its first request's headers within the header timeout;
 * once a request's headers are in, its body arrives within the body timeout; once it is answered,
 * the next request's headers complete within the idle timeout (a kept-alive connection may wait
 * that long, and no longer, between requests). A request being worked on has no deadline here:
 * its budget bounds it.
 */
final class ConnectionWatch {

  /** What a connection is doing when it is checked. */
  enum Phase {
    /** No request, or the last one answered: waiting for the next request's headers. */
    AWAITING_HEADERS,
    /** A request's headers are in; its body is still arriving. */
    READING_BODY,
    /** A request has been read and is being answered. */
    ANSWERING
  }

  /** What is due. */
  enum Verdict {
    KEEP,
    /** Headers did not complete in time: close the connection (there is no request to answer). */
    HEADERS_LATE,
    /** The body did not arrive in time: answer 408 and close. */
    BODY_LATE
  }

  private final long headerTimeoutNanos;
  private final long bodyTimeoutNanos;
  private final long idleTimeoutNanos;
  private long waitingSince;
  private long requestSince;
  private boolean answeredOne;

  /**
   * @param openedAt when the connection was accepted
   */
  ConnectionWatch(ServerLimits limits, long openedAt) {
    this.headerTimeoutNanos = limits.headerTimeoutMs() * 1_000_000;
    this.bodyTimeoutNanos = limits.bodyTimeoutMs() * 1_000_000;
    this.idleTimeoutNanos = limits.idleTimeoutMs() * 1_000_000;
    this.waitingSince = openedAt;
  }

  /** A request's headers arrived. */
  void requestStarted(long now) {
    requestSince = now;
  }

  /** The request was seen answered: the wait for the next one starts. */
  void answered(long now) {
    answeredOne = true;
    waitingSince = now;
  }

  /** What is due at {@code now} for a connection in {@code phase}. */
  Verdict check(long now, Phase phase) {
    return switch (phase) {
      case AWAITING_HEADERS -> now - waitingSince >= (answeredOne ? idleTimeoutNanos : headerTimeoutNanos)
          ? Verdict.HEADERS_LATE : Verdict.KEEP;
      case READING_BODY -> now - requestSince >= bodyTimeoutNanos ? Verdict.BODY_LATE : Verdict.KEEP;
      case ANSWERING -> Verdict.KEEP;
    };
  }
}
