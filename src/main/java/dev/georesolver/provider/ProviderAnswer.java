package dev.georesolver.provider;

import dev.georesolver.geo.FailureClass;
import java.util.List;
import java.util.Objects;

/**
 * What an adapter read from one provider response: candidates, or a classified failure.
 *
 * <p>"No match" is a {@link Failed} of class {@link FailureClass#NO_MATCH}: it ends the rung without
 * counting against the breaker.
 */
public sealed interface ProviderAnswer {

  /**
   * The provider found something.
   *
   * @param hits at least one candidate, best first
   */
  record Found(List<RawHit> hits) implements ProviderAnswer {
    public Found {
      Objects.requireNonNull(hits, "hits");
      if (hits.isEmpty()) {
        throw new IllegalArgumentException("Found needs at least one hit; use noMatch()");
      }
      hits = List.copyOf(hits);
    }

    /** The best candidate. */
    public RawHit best() {
      return hits.get(0);
    }
  }

  /**
   * The provider did not give a usable answer.
   *
   * @param failureClass how the walk, retries and breaker treat it
   * @param detail a short operator-facing reason, never containing credentials
   * @param retryAfterMs for {@link FailureClass#QUOTA}, how long the provider asked us to stay away
   *     (from {@code Retry-After}), else null
   */
  record Failed(FailureClass failureClass, String detail, Long retryAfterMs) implements ProviderAnswer {
    public Failed {
      Objects.requireNonNull(failureClass, "failureClass");
    }
  }

  /** One candidate. */
  static ProviderAnswer found(RawHit hit) {
    return new Found(List.of(hit));
  }

  /** A healthy "nothing found". */
  static ProviderAnswer noMatch(String detail) {
    return new Failed(FailureClass.NO_MATCH, detail, null);
  }

  /** A classified failure without Retry-After. */
  static ProviderAnswer failed(FailureClass c, String detail) {
    return new Failed(c, detail, null);
  }
}
