package dev.georesolver.reconcile;

import dev.georesolver.deadline.Ticker;

/**
 * A token bucket: {@code ratePerS} tokens a second, holding at most {@code burst}. The reconciler
 * keeps one for all its calls and one per tier, so it never takes more than its share. Pure apart
 * from the injected ticker; not thread-safe (one owner).
 */
public final class TokenBucket {

  private final double ratePerNs;
  private final double burst;
  private final Ticker ticker;
  private double tokens;
  private long lastNs;

  /**
   * @param ratePerS tokens per second, &gt; 0
   * @param burst the most tokens held (and the start), &ge; 1
   */
  public TokenBucket(double ratePerS, double burst, Ticker ticker) {
    this.ratePerNs = ratePerS / 1e9;
    this.burst = Math.max(1, burst);
    this.ticker = ticker;
    this.tokens = this.burst;
    this.lastNs = ticker.nanoTime();
  }

  private void refill() {
    long now = ticker.nanoTime();
    tokens = Math.min(burst, tokens + (now - lastNs) * ratePerNs);
    lastNs = now;
  }

  /** Milliseconds until a token is there (0: now). Takes nothing. */
  public long waitMs() {
    refill();
    return tokens >= 1 ? 0 : (long) Math.ceil((1 - tokens) / ratePerNs / 1e6);
  }

  /** Takes a token if one is there. */
  public boolean tryTake() {
    refill();
    if (tokens >= 1) {
      tokens -= 1;
      return true;
    }
    return false;
  }
}
