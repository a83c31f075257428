package dev.georesolver.shadow;

/**
 * The Wilson score interval of a share: the range of true shares that {@code successes} out of
 * {@code n} draws is consistent with at a given confidence. Unlike the normal approximation
 * ({@code p ± z·√(p(1-p)/n)}) it stays inside [0, 1] and is honest for small {@code n} and shares near
 * 0 or 1 (9 of 10 reads as 60 %–98 % at 95 %, not 71 %–109 %). Pure.
 *
 * @param low the lower bound, in [0, 1]
 * @param high the upper bound, in [0, 1]
 */
public record Wilson(double low, double high) {

  /** z for a two-sided 95 % interval. */
  public static final double Z95 = 1.959964;

  /** The 95 % interval of {@code successes} out of {@code n}; [0, 1] when {@code n} is 0. */
  public static Wilson of(long successes, long n) {
    return of(successes, n, Z95);
  }

  /**
   * The interval at the confidence {@code z} stands for (1.96: 95 %, 2.576: 99 %).
   *
   * @throws IllegalArgumentException unless 0 &le; successes &le; n and z &gt; 0
   */
  public static Wilson of(long successes, long n, double z) {
    if (successes < 0 || successes > n || !(z > 0)) {
      throw new IllegalArgumentException("a Wilson interval needs 0 <= successes <= n and z > 0");
    }
    if (n == 0) {
      return new Wilson(0, 1);
    }
    double p = (double) successes / n;
    double z2n = z * z / n;
    double centre = (p + z2n / 2) / (1 + z2n);
    double half = z / (1 + z2n) * Math.sqrt(p * (1 - p) / n + z2n / (4 * n));
    return new Wilson(successes == 0 ? 0 : Math.max(0, centre - half), successes == n ? 1 : Math.min(1, centre + half));
  }

  /** Whether {@code share} lies in the interval. */
  public boolean contains(double share) {
    return share >= low && share <= high;
  }
}
