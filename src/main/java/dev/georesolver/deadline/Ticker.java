package dev.georesolver.deadline;

/**
 * A monotonic nanosecond clock ({@link System#nanoTime()} in production), injectable so deadline
 * arithmetic is tested without sleeping. Implementations must be thread-safe.
 */
@FunctionalInterface
public interface Ticker {

  /** The system's monotonic clock. */
  Ticker SYSTEM = System::nanoTime;

  /** Nanoseconds from an arbitrary origin; only differences mean anything. */
  long nanoTime();
}
