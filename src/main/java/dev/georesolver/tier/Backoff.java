package dev.georesolver.tier;

import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Full-jitter exponential backoff between retries: a uniform wait in
 * {@code [0, min(cap, base × 2^(retry−1))]}.
 *
 * <p>The random source is asked for on every draw, on the drawing thread: in production
 * {@link #THREAD_LOCAL} ({@code ThreadLocalRandom.current()}, which must never be captured on
 * one thread and used on another: a thread that never asked for its own would draw from an
 * unseeded state, the same in every replica). Thread-safe if the source is.
 */
public final class Backoff {

  /** The longest a single wait may be, milliseconds. */
  public static final long CAP_MS = 1000;

  /** The production source: the drawing thread's own {@link ThreadLocalRandom}. */
  public static final Supplier<RandomGenerator> THREAD_LOCAL = ThreadLocalRandom::current;

  private final long baseMs;
  private final Supplier<? extends RandomGenerator> random;

  /**
   * @param baseMs the first retry's ceiling, milliseconds (0: no wait)
   * @param random the source to draw from, asked for on each draw
   */
  public Backoff(long baseMs, Supplier<? extends RandomGenerator> random) {
    this.baseMs = baseMs;
    this.random = random;
  }

  /**
   * A backoff drawing from one fixed, thread-safe generator (a seeded one in tests).
   *
   * @throws IllegalArgumentException for a {@link ThreadLocalRandom}, which belongs to the thread
   *     that asked for it: use {@link #THREAD_LOCAL}
   */
  public Backoff(long baseMs, RandomGenerator random) {
    this(baseMs, fixed(random));
  }

  private static Supplier<RandomGenerator> fixed(RandomGenerator random) {
    if (random instanceof ThreadLocalRandom) {
      throw new IllegalArgumentException("a ThreadLocalRandom cannot be shared between threads; use Backoff.THREAD_LOCAL");
    }
    return () -> random;
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
    return random.get().nextLong(ceiling + 1);
  }
}
