package dev.georesolver.tier;

import dev.georesolver.bus.TierRequest;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.trace.Hop;
import io.vertx.core.Future;

/**
 * One attempt at a rung's provider, HTTP or in-process. The returned future always completes
 * within the attempt's timeout (each implementation arms its own timer) and never fails: transport
 * problems come back classified as {@link ProviderAnswer.Failed}. The tier still guards against an
 * implementation that breaks this.
 */
interface TierCall {

  /**
   * Makes one attempt that must end within {@code timeoutMs}. {@code span} is the attempt's span,
   * which the caller ends: an HTTP call names it by its method, describes the request (URL
   * redacted) and the response status, and sends its context to the provider.
   */
  Future<ProviderAnswer> attempt(TierRequest request, long timeoutMs, Hop span);

  /** Releases resources (HTTP pool). */
  default Future<Void> close() {
    return Future.succeededFuture();
  }
}
