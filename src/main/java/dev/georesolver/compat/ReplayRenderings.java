package dev.georesolver.compat;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.georesolver.geo.Direction;
import dev.georesolver.bus.StoredAnswer;

import java.util.function.Supplier;

/**
 * Renderings of stored answers, kept so that a replay of a popular answer is not read back and
 * written again on every request. The rendering depends only on the stored answer's content, the
 * direction and the dialect's options (nothing per delivery goes in a compatible body), so it is
 * keyed by those: by content, not identity, because the memory store keeps answers as bytes and
 * hands out a new instance on every read (keyed by identity, no replay ever found its rendering).
 * Bounded by entry count; thread-safe. The cache's upkeep runs on the calling thread: an event loop
 * never wakes a pool thread for it.
 *
 * @param <O> the dialect's rendering options (a record: compared by value)
 */
public final class ReplayRenderings<O> {

  /** Renderings kept per endpoint. */
  static final int MAX_ENTRIES = 2048;

  /** An outcome and its rendering. */
  public record Reply(Outcome outcome, Rendered rendered) {}

  /** Equal when the stored answers' encoded fields, the direction and the options are equal. */
  private record Key(StoredAnswer stable, Direction direction, Object options) {}

  private final Cache<Key, Reply> cache = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).executor(Runnable::run).build();

  /** The reply for a stored answer, rendered by {@code render} the first time. */
  public Reply get(StoredAnswer stable, Direction direction, O options, Supplier<Reply> render) {
    return cache.get(new Key(stable, direction, options), k -> render.get());
  }
}
