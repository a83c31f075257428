package dev.georesolver.compat;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.georesolver.provider.Direction;
import dev.georesolver.bus.StoredAnswer;

import java.util.function.Supplier;

/**
 * Renderings of stored answers, kept so that a replay of a popular answer is not read back and
 * written again on every request. A stored answer is one immutable instance shared by every replay
 * of it; the rendering depends only on that answer, the direction and the dialect's
 * options (nothing per delivery goes in a compatible body), so it is keyed by the answer's identity
 * and those. Bounded by entry count; thread-safe.
 *
 * @param <O> the dialect's rendering options (a record: compared by value)
 */
final class ReplayRenderings<O> {

  /** Renderings kept per endpoint. */
  static final int MAX_ENTRIES = 2048;

  /** An outcome and its rendering. */
  record Reply(Outcome outcome, Rendered rendered) {}

  private record Key(StoredAnswer stable, Direction direction, Object options) {
    @Override
    public boolean equals(Object o) {
      return o instanceof Key k && k.stable == stable && k.direction == direction && k.options.equals(options);
    }

    @Override
    public int hashCode() {
      return (System.identityHashCode(stable) * 31 + direction.hashCode()) * 31 + options.hashCode();
    }
  }

  private final Cache<Key, Reply> cache = Caffeine.newBuilder().maximumSize(MAX_ENTRIES).build();

  /** The reply for a stored answer, rendered by {@code render} the first time. */
  Reply get(StoredAnswer stable, Direction direction, O options, Supplier<Reply> render) {
    return cache.get(new Key(stable, direction, options), k -> render.get());
  }
}
