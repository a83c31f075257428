package dev.georesolver.deadline;

/** Elapsed time since a start on a {@link Ticker}. Immutable and thread-safe. */
public record Stopwatch(Ticker ticker, long startNanos) {

  /** Starts now. */
  public static Stopwatch start(Ticker ticker) {
    return new Stopwatch(ticker, ticker.nanoTime());
  }

  /** Whole milliseconds since the start. */
  public long elapsedMs() {
    return (ticker.nanoTime() - startNanos) / 1_000_000L;
  }
}
