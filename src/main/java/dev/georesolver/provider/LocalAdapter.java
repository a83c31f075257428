package dev.georesolver.provider;

import dev.georesolver.geo.ForwardQuery;
import dev.georesolver.geo.ReverseQuery;
import io.vertx.core.Future;

/**
 * A rung answered in-process, with no HTTP call: the cached index and the offline gazetteer.
 *
 * <p>Runs on the tier verticle's event loop, so it must never block: in-memory work that is quick,
 * or a non-blocking client. The tier still applies admission, the deadline, the bbox check and CRS
 * normalization to what it returns. Its name and the directions it answers are stated in
 * {@link AdapterRegistry}, not here.
 */
public interface LocalAdapter {

  /** A forward lookup. */
  Future<ProviderAnswer> forward(ForwardQuery query);

  /**
   * A reverse lookup; only called when the adapter's {@link AdapterRegistry} capabilities include
   * reverse.
   */
  default Future<ProviderAnswer> reverse(ReverseQuery query) {
    return Future.failedFuture(new UnsupportedOperationException("this adapter does not answer reverse lookups"));
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
