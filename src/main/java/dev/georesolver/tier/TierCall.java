package dev.georesolver.tier;

import dev.georesolver.bus.TierRequest;
import dev.georesolver.provider.ProviderAnswer;
import io.vertx.core.Future;

/**
 * One attempt at a rung's provider, HTTP or in-process. The returned future always completes
 * within the attempt's timeout (each implementation arms its own timer) and never fails: transport
 * problems come back classified as {@link ProviderAnswer.Failed}. The tier still guards against an
 * implementation that breaks this.
 */
interface TierCall {

  /** Makes one attempt that must end within {@code timeoutMs}. */
  Future<ProviderAnswer> attempt(TierRequest request, long timeoutMs);

  /** Releases resources (HTTP pool). */
  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
