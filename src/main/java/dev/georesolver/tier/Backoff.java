package dev.georesolver.tier;

import java.util.random.RandomGenerator;

/**
 * Full-jitter exponential backoff between retries: a uniform wait in
 * {@code [0, min(cap, base × 2^(retry−1))]}. Thread-safe if the random generator is.
 */
public final class Backoff {

  /** The longest a single wait may be, milliseconds. */
  public static final long CAP_MS = 1000;

  private final long baseMs;
  private final RandomGenerator random;

  public Backoff(long baseMs, RandomGenerator random) {
    this.baseMs = baseMs;
    this.random = random;
  }

  /**
   * The wait before retry number {@code retry} (1 for the first retry), milliseconds.
   */
  public long delayMs(int retry) {
    if (baseMs <= 0) {
      return 0;
    }
    int shift = Math.max(0, Math.min(retry - 1, 20));
    // Compare before shifting: baseMs << shift can overflow to a negative ceiling.
    long ceiling = baseMs > (CAP_MS >> shift) ? CAP_MS : baseMs << shift;
    return random.nextLong(ceiling + 1);
  }
}
