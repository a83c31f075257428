package dev.georesolver.tier;

import java.util.Arrays;

/**
 * The median latency of a tier's recent successful calls, used for admission and reserves.
 *
 * <p>A ring of the last {@value #SIZE} observations, primed with {@value #SEED_COPIES} copies of the
 * manifest's {@code typical_ms} so one lucky or unlucky call does not swing it. Not thread-safe:
 * confined to the tier verticle's context.
 */
public final class LatencyWindow {

  static final int SIZE = 32;
  static final int SEED_COPIES = 3;

  private final long[] ring = new long[SIZE];
  private final long[] scratch = new long[SIZE];
  private int count;
  private int next;
  private long median;

  /** A window seeded with {@code seedMs}. */
  public LatencyWindow(long seedMs) {
    for (int i = 0; i < SEED_COPIES; i++) {
      record(seedMs);
    }
  }

  /** Records one successful call's latency in milliseconds; returns true if the median changed. */
  public boolean record(long ms) {
    ring[next] = Math.max(0, ms);
    next = (next + 1) % SIZE;
    count = Math.min(count + 1, SIZE);
    long before = median;
    System.arraycopy(ring, 0, scratch, 0, count);
    Arrays.sort(scratch, 0, count);
    median = scratch[(count - 1) / 2];
    return median != before;
  }

  /** The current median, milliseconds (the lower median for an even count). */
  public long median() {
    return median;
  }
}
