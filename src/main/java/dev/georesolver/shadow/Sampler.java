package dev.georesolver.shadow;

import java.util.random.RandomGenerator;

/**
 * Whether an answer is sampled, at a rate in [0, 1]. Immutable and thread-safe (a new one per
 * reload of the rate).
 *
 * <p>The decision compares the top 53 bits of a uniform 64-bit number with {@code rate · 2^53}, so
 * rate 0 never samples, rate 1 always does, and a rate r samples a share r of uniform inputs
 * (exactly, to one part in 2^53). Two ways to feed it:
 * <ul>
 *   <li>{@link #decide(RandomGenerator)}: each answer on its own chance;
 *   <li>{@link #decide(long)} with {@link KeyHasher#bitsOf} of the request's id: the same address
 *       is sampled or not on every node and every time at one rate, and raising the rate only adds
 *       addresses (the set at 1 % is inside the set at 5 %). Its repeats, though, are all sampled
 *       or none are.
 * </ul>
 */
public final class Sampler {

  private static final double TWO_53 = 0x1p53;

  private final double rate;
  private final long threshold;

  /**
   * @param rate the share to sample, in [0, 1]
   * @throws IllegalArgumentException when it is not
   */
  public Sampler(double rate) {
    if (!(rate >= 0 && rate <= 1)) {
      throw new IllegalArgumentException("a sample rate is in [0, 1]");
    }
    this.rate = rate;
    this.threshold = (long) Math.ceil(rate * TWO_53);
  }

  /** The rate. */
  public double rate() {
    return rate;
  }

  /** Whether sampling is off (rate 0). */
  public boolean off() {
    return threshold == 0;
  }

  /** Whether the input {@code bits} (a uniform 64-bit number) is sampled. */
  public boolean decide(long bits) {
    return (bits >>> 11) < threshold;
  }

  /** Whether to sample, on one draw of {@code random}. */
  public boolean decide(RandomGenerator random) {
    return !off() && decide(random.nextLong());
  }
}
