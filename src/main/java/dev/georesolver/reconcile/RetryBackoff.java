package dev.georesolver.reconcile;

import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Jittered exponential backoff for items that failed again: attempt {@code n} (1 = the first
 * failure) waits a uniformly random time in {@code [d/2, d]}, where {@code d = min(max, base × 2^(n-1))}.
 * The lower half keeps a floor so a retry storm cannot form; the jitter spreads items that failed
 * together. Pure; the generator is asked for on each draw, on the drawing thread (production passes
 * {@code ThreadLocalRandom::current}), so it is never shared between threads.
 */
public final class RetryBackoff {

  private final long baseMs;
  private final long maxMs;
  private final Supplier<RandomGenerator> random;

  /**
   * @param baseMs the first delay's upper bound, milliseconds
   * @param maxMs the cap, milliseconds
   * @param random the jitter source, asked for on each draw
   */
  public RetryBackoff(long baseMs, long maxMs, Supplier<RandomGenerator> random) {
    this.baseMs = baseMs;
    this.maxMs = maxMs;
    this.random = random;
  }

  /** The upper bound of attempt {@code n}'s delay, milliseconds. */
  public long ceilingMs(int n) {
    int shift = Math.min(Math.max(0, n - 1), 40);
    long d = baseMs << shift;
    return d <= 0 || d > maxMs ? maxMs : d;
  }

  /** Attempt {@code n}'s delay, milliseconds, in {@code [ceiling/2, ceiling]}. */
  public long delayMs(int n) {
    long c = ceilingMs(n);
    long half = c / 2;
    return half + (c - half == 0 ? 0 : random.get().nextLong(c - half + 1));
  }
}
