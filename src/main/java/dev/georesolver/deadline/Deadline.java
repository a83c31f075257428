package dev.georesolver.deadline;

import java.util.concurrent.TimeUnit;

/**
 * One request's deadline on the local monotonic clock: expired once no whole millisecond is left
 * ({@link #remainingMs()} {@code <= 0}).
 *
 * <p>Deadlines cross the event bus as relative milliseconds ({@code x-deadline-ms}), never as
 * instants: the receiver re-bases the remaining time on its own arrival, which survives clock skew
 * between nodes. Immutable and thread-safe.
 */
public final class Deadline {

  private final Ticker ticker;
  private final long expiresAtNanos;

  private Deadline(Ticker ticker, long expiresAtNanos) {
    this.ticker = ticker;
    this.expiresAtNanos = expiresAtNanos;
  }

  /** A deadline {@code ms} milliseconds from now on {@code ticker}. */
  public static Deadline in(Ticker ticker, long ms) {
    return new Deadline(ticker, ticker.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms));
  }

  /** Milliseconds left, rounded down; negative once expired. */
  public long remainingMs() {
    return Math.floorDiv(expiresAtNanos - ticker.nanoTime(), 1_000_000L);
  }

  @Override
  public String toString() {
    return "Deadline[" + remainingMs() + " ms left]";
  }
}
