package dev.georesolver.support;

import dev.georesolver.deadline.Ticker;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** A wall clock and monotonic ticker that move only when a test says so; advanced from one thread at a time. */
public final class FakeClock extends Clock implements Ticker {

  private volatile Instant now = Instant.parse("2026-01-01T00:00:00Z");
  private volatile long nanos = 1_000_000_000L;

  /** Moves both clocks forward. */
  public void advance(Duration d) {
    now = now.plus(d);
    nanos += d.toNanos();
  }

  /** Moves both clocks forward by milliseconds. */
  public void advanceMs(long ms) {
    advance(Duration.ofMillis(ms));
  }

  @Override
  public long nanoTime() {
    return nanos;
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }

  @Override
  public Instant instant() {
    return now;
  }
}
