package dev.georesolver.reconcile;

import dev.georesolver.deadline.Ticker;

import java.util.ArrayDeque;

/**
 * Events per second over the last {@code windowMs} (the reconciler's drain rate): each settled item
 * is one event. Pure apart from the injected ticker; not thread-safe (one owner).
 */
public final class RateWindow {

  private final long windowNs;
  private final Ticker ticker;
  private final ArrayDeque<Long> events = new ArrayDeque<>();

  public RateWindow(long windowMs, Ticker ticker) {
    this.windowNs = windowMs * 1_000_000L;
    this.ticker = ticker;
  }

  /** Records one event now. */
  public void record() {
    events.addLast(ticker.nanoTime());
    trim();
  }

  /** Events per second over the window (0 when none). */
  public double perSecond() {
    trim();
    return events.size() / (windowNs / 1e9);
  }

  private void trim() {
    long from = ticker.nanoTime() - windowNs;
    while (!events.isEmpty() && events.peekFirst() < from) {
      events.removeFirst();
    }
  }
}
