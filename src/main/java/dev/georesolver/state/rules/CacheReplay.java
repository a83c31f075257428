package dev.georesolver.state.rules;


import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads one of the write-behind's append-only logs back: the writes of one kind, replayed in the
 * order they were committed, leave per key the entry the old upsert-in-place would have kept.
 * <ul>
 *   <li>a plain write replaces the key's entry unless that one was resolved later (newer wins; of
 *       two equally new, the later write);
 *   <li>a correction (a write with a {@code basisMs}, the resolution time of the degraded answer it
 *       corrects) replaces the entry only when that was resolved no later than the degraded answer
 *       ({@link Corrections#replaces}): a fresher answer stored since is kept.
 * </ul>
 * Then {@link #newest} keeps the live entries, most recent first. The value is opaque here (the
 * stored bytes, decoded only for the entries kept).
 *
 * <p>Pure; not thread-safe.
 *
 * @param <V> what a write carries
 */
public final class CacheReplay<V> {

  /**
   * One write of the log.
   *
   * @param seq the write's place in the log (later writes are larger)
   * @param recentMs the time the entries are ordered by, most recent first (stored at, or resolved at)
   * @param expiresAtMs wall-clock ms after which the entry is not loaded
   * @param resolvedAtMs when the answer was resolved (newer wins)
   * @param basisMs for a correction, the resolution time of the answer it corrects; null otherwise
   */
  public record Write<V>(long seq, String key, long recentMs, long expiresAtMs, long resolvedAtMs, Long basisMs, V value) {}

  private final Map<String, Write<V>> kept = new HashMap<>();

  /** Applies the next write, in the log's order. */
  public void apply(Write<V> w) {
    Write<V> current = kept.get(w.key());
    boolean wins = w.basisMs() != null
        ? Corrections.replaces(current == null ? null : current.resolvedAtMs(), w.basisMs())
        : current == null || w.resolvedAtMs() >= current.resolvedAtMs();
    if (wins) {
      kept.put(w.key(), w);
    }
  }

  /** The entries kept that are live at {@code nowMs}, most recent first (of two as recent, the later write), at most {@code limit}. */
  public List<Write<V>> newest(int limit, long nowMs) {
    List<Write<V>> live = new ArrayList<>();
    for (Write<V> w : kept.values()) {
      if (w.expiresAtMs() > nowMs) {
        live.add(w);
      }
    }
    live.sort(Comparator.comparingLong((Write<V> w) -> w.recentMs()).thenComparingLong(Write::seq).reversed());
    return live.size() > limit ? new ArrayList<>(live.subList(0, Math.max(0, limit))) : live;
  }
}
