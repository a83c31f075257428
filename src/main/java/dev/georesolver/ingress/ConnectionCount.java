package dev.georesolver.ingress;

import io.vertx.core.shareddata.Shareable;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The client connections open on one port, shared by every ingress instance listening on it, and
 * the cap on them. Thread-safe (instances run on different event loops).
 *
 * <p>Refusals are reported for a log line at most once per {@link #LOG_INTERVAL_NANOS}, with how
 * many were refused since the last line, so a flood of connections writes a handful of lines.
 */
final class ConnectionCount implements Shareable {

  /** At most one log line per this many nanoseconds about refused connections (10 s). */
  static final long LOG_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(10);

  private final int cap;
  private final AtomicInteger open = new AtomicInteger();
  private final AtomicInteger refusedSinceLine = new AtomicInteger();
  private final AtomicLong lastLine = new AtomicLong();
  private volatile boolean logged;

  /** @param cap open connections at most */
  ConnectionCount(int cap) {
    this.cap = cap;
  }

  /** The cap. */
  int cap() {
    return cap;
  }

  /** Open connections now. */
  int open() {
    return open.get();
  }

  /** Takes a place for a new connection; false when the cap is reached (then nothing is taken). */
  boolean tryAcquire() {
    for (;;) {
      int n = open.get();
      if (n >= cap) {
        return false;
      }
      if (open.compareAndSet(n, n + 1)) {
        return true;
      }
    }
  }

  /** Gives back the place of a connection that {@link #tryAcquire} admitted, once it closes. */
  void release() {
    open.decrementAndGet();
  }

  /**
   * Counts a refused connection.
   *
   * @param now the monotonic clock, nanoseconds
   * @return how many were refused since the last line (this one included) when a line is due now,
   *     else 0
   */
  int refused(long now) {
    refusedSinceLine.incrementAndGet();
    long last = lastLine.get();
    if (logged && now - last < LOG_INTERVAL_NANOS || !lastLine.compareAndSet(last, now)) {
      return 0;
    }
    logged = true;
    return refusedSinceLine.getAndSet(0);
  }

  @Override
  public Shareable copy() {
    return this;
  }
}
