package dev.georesolver.jobs;

import java.util.ArrayDeque;

/**
 * Whether an upload keeps a minimum pace: at least {@code minBytesPerS} over every whole window of
 * {@code windowMs}, instead of one deadline for the whole body (a large upload on a steady link
 * takes as long as it takes; a stalled or trickling one is cut off after one window). Time that
 * the receiver itself held the sender back (backpressure) is not the client's: {@link #held} starts
 * the judging again. Pure; times in milliseconds from the caller's clock. Not thread-safe.
 */
final class UploadPace {

  private record Sample(long atMs, long total) {}

  private final long minBytesPerS;
  private final long windowMs;
  private final ArrayDeque<Sample> samples = new ArrayDeque<>();
  private long total;

  UploadPace(long minBytesPerS, long windowMs, long nowMs) {
    this.minBytesPerS = minBytesPerS;
    this.windowMs = windowMs;
    samples.add(new Sample(nowMs, 0));
  }

  /** {@code n} more bytes arrived. */
  void received(long n) {
    total += n;
  }

  /** The receiver held the sender back until {@code nowMs}: the window starts again from here. */
  void held(long nowMs) {
    samples.clear();
    samples.add(new Sample(nowMs, total));
  }

  /**
   * Whether, at {@code nowMs}, less than the minimum arrived over the last whole window. Never true
   * before one window has passed since the start (or the last hold). Call it regularly (a quarter
   * window apart or closer): each call is a sample.
   */
  boolean tooSlow(long nowMs) {
    samples.addLast(new Sample(nowMs, total));
    // Keep as the baseline the newest sample at least one window old.
    while (samples.size() > 1 && nowMs - secondOldest().atMs() >= windowMs) {
      samples.removeFirst();
    }
    Sample base = samples.peekFirst();
    long elapsed = nowMs - base.atMs();
    if (elapsed < windowMs) {
      return false;
    }
    return (total - base.total()) * 1000 < minBytesPerS * elapsed;
  }

  private Sample secondOldest() {
    var it = samples.iterator();
    it.next();
    return it.next();
  }

  /** The bytes that arrived. */
  long total() {
    return total;
  }
}
