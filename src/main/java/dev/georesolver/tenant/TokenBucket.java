package dev.georesolver.tenant;

import dev.georesolver.deadline.Ticker;

/**
 * A token bucket: {@code burst} tokens at most, refilled continuously at {@code ratePerS} a second;
 * each request takes one. Thread-safe (one lock, held for a few arithmetic operations), so every
 * ingress instance may share one bucket per tenant.
 */
public final class TokenBucket {

  private static final double NANOS_PER_S = 1e9;

  private final double ratePerS;
  private final double ratePerNano;
  private final double burst;
  private final Ticker ticker;
  private double tokens;
  private long lastNanos;

  /**
   * A full bucket.
   *
   * @param ratePerS tokens added per second, &gt; 0
   * @param burst the bucket's size, at least 1
   */
  public TokenBucket(double ratePerS, int burst, Ticker ticker) {
    if (!(ratePerS > 0) || burst < 1) {
      throw new IllegalArgumentException("a bucket needs a rate > 0 and a burst >= 1");
    }
    this.ratePerS = ratePerS;
    this.ratePerNano = ratePerS / NANOS_PER_S;
    this.burst = burst;
    this.ticker = ticker;
    this.tokens = burst;
    this.lastNanos = ticker.nanoTime();
  }

  /**
   * Takes one token if there is one.
   *
   * @return 0 when taken, else the nanoseconds until one will be there (at least 1)
   */
  public synchronized long tryTake() {
    long now = ticker.nanoTime();
    long elapsed = now - lastNanos;
    if (elapsed > 0) {
      tokens = Math.min(burst, tokens + elapsed * ratePerNano);
      lastNanos = now;
    }
    if (tokens >= 1) {
      tokens -= 1;
      return 0;
    }
    return Math.max(1, (long) Math.ceil((1 - tokens) / ratePerNano));
  }

  /** Whether this bucket has that rate and size (so a reload that changes neither keeps it). */
  public boolean sameLimit(double ratePerS, int burst) {
    return this.ratePerS == ratePerS && this.burst == burst;
  }
}
