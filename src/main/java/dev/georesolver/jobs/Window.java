package dev.georesolver.jobs;

/**
 * How many rows of one job may be in flight: additive increase, multiplicative decrease. It starts
 * at {@code max}, halves (not below 1) when a tier pushes back, and grows by one for every
 * {@code size} rows answered without push back, up to {@code max}. Not thread-safe: one context.
 */
public final class Window {

  private final int max;
  private int size;
  private int calm;

  /** @param max rows in flight at most ({@code batch.concurrency}) */
  public Window(int max) {
    if (max < 1) {
      throw new IllegalArgumentException("max must be >= 1");
    }
    this.max = max;
    this.size = max;
  }

  /** Rows that may be in flight now. */
  public int size() {
    return size;
  }

  /** A tier pushed back (429, an open breaker, a rate limit, the batch share): halve. */
  public void pushedBack() {
    size = Math.max(1, size / 2);
    calm = 0;
  }

  /** A row answered without push back. */
  public void answered() {
    if (size < max && ++calm >= size) {
      size++;
      calm = 0;
    }
  }
}
