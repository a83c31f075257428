package dev.georesolver.provider;

import io.vertx.core.Future;

/**
 * A rung answered in-process, with no HTTP call: the cached index and the offline gazetteer.
 *
 * <p>Runs on the tier verticle's event loop, so it must never block: in-memory work that is quick,
 * or a non-blocking client. The tier still applies admission, the deadline, the bbox check and CRS
 * normalization to what it returns.
 */
public interface LocalAdapter {

  /** The manifest {@code adapter:} name. */
  String name();

  /** A forward lookup. */
  Future<ProviderAnswer> forward(ForwardQuery query);

  /** Whether {@link #reverse} is supported. */
  default boolean supportsReverse() {
    return false;
  }

  /** A reverse lookup; only called when {@link #supportsReverse()}. */
  default Future<ProviderAnswer> reverse(ReverseQuery query) {
    return Future.failedFuture(new UnsupportedOperationException(name() + " does not support reverse lookups"));
  }

  /**
   * A forward lookup for a request whose intent accepts stored answers up to {@code maxCacheAgeMs}
   * old (0: none). Adapters that answer from a store override this; others ignore the age.
   */
  default Future<ProviderAnswer> forward(ForwardQuery query, long maxCacheAgeMs) {
    return forward(query);
  }

  /** As {@link #forward(ForwardQuery, long)}, for reverse lookups. */
  default Future<ProviderAnswer> reverse(ReverseQuery query, long maxCacheAgeMs) {
    return reverse(query);
  }
}
