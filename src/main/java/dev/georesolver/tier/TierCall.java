package dev.georesolver.tier;

import dev.georesolver.bus.TierRequest;
import dev.georesolver.provider.ProviderAnswer;
import io.vertx.core.Future;

/**
 * One attempt at a rung's provider, HTTP or in-process. The returned future never fails: transport
 * problems come back classified as {@link ProviderAnswer.Failed}.
 */
interface TierCall {

  /** Makes one attempt that must end within {@code timeoutMs}. */
  Future<ProviderAnswer> attempt(TierRequest request, long timeoutMs);

  /** Whether this rung can answer reverse lookups. */
  boolean supportsReverse();

  /** Releases resources (HTTP pool). */
  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
