package dev.georesolver.state.rules;

import java.util.List;

/**
 * How long the corrections outbox keeps a correction, the same for both stores. Pure and thread-safe.
 *
 * <p>A correction stays {@link #KEEP_MS} (30 days) after it was made — as long as its answer is
 * remembered as corrected, so no answer is corrected twice while its correction can still be read.
 * Trimming removes the oldest entries only, a prefix of the log: the entries up to the last one of
 * the oldest run made before the cut-off ({@link #trimThrough}). Numbering goes on where it was, so
 * the cursors consumers hold stay valid; a consumer further behind than the retention resumes at the
 * oldest entry kept.
 */
public final class OutboxRetention {

  /** How long a correction stays in the outbox, milliseconds: 30 days. */
  public static final long KEEP_MS = 30L * 86_400_000L;

  private OutboxRetention() {}

  /** One outbox entry as the rule sees it: its number and when its correction was made (ms since the epoch). */
  public record Aged(long seq, long correctedAtMs) {}

  /**
   * The highest entry number to trim among the oldest entries {@code oldestFirst}: the last of the
   * leading run corrected more than {@code keepMs} before {@code nowMs}; 0 when the first is still
   * kept. An entry whose time is unknown (negative) ends the run: it is kept.
   */
  public static long trimThrough(List<Aged> oldestFirst, long nowMs, long keepMs) {
    long cutoff = nowMs - keepMs;
    long through = 0;
    for (Aged a : oldestFirst) {
      if (a.correctedAtMs() < 0 || a.correctedAtMs() >= cutoff) {
        break;
      }
      through = a.seq();
    }
    return through;
  }
}
