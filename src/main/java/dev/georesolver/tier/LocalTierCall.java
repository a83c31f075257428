package dev.georesolver.tier;

import dev.georesolver.bus.TierRequest;
import dev.georesolver.geo.Direction;
import dev.georesolver.geo.FailureClass;
import dev.georesolver.provider.LocalAdapter;
import dev.georesolver.provider.ProviderAnswer;
import dev.georesolver.trace.Hop;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;

/**
 * A rung answered in-process by a {@link LocalAdapter}, still bounded by the attempt's timeout (a
 * store lookup can hang as an HTTP call can).
 */
final class LocalTierCall implements TierCall {

  private final Vertx vertx;
  private final String name;
  private final LocalAdapter adapter;

  /**
   * @param name the manifest {@code adapter:} name, for failure details
   */
  LocalTierCall(Vertx vertx, String name, LocalAdapter adapter) {
    this.vertx = vertx;
    this.name = name;
    this.adapter = adapter;
  }

  @Override
  public Future<ProviderAnswer> attempt(TierRequest req, long timeoutMs, Hop span) {
    Promise<ProviderAnswer> done = Promise.promise();
    long timer = vertx.setTimer(Math.max(1, timeoutMs), id -> done.tryFail(new AttemptTimeoutException(timeoutMs)));
    Future<ProviderAnswer> f;
    try {
      f = req.direction() == Direction.FORWARD
          ? adapter.forward(req.forward(), req.maxCacheAgeMs())
          : adapter.reverse(req.reverse(), req.maxCacheAgeMs());
    } catch (RuntimeException e) {
      f = Future.failedFuture(e);
    }
    f.onComplete(ar -> {
      vertx.cancelTimer(timer);
      if (ar.succeeded()) {
        done.tryComplete(ar.result());
      } else {
        done.tryFail(ar.cause());
      }
    });
    return done.future().otherwise(t -> t instanceof AttemptTimeoutException
        ? TransportClassifier.classify(t)
        : new ProviderAnswer.Failed(FailureClass.UNCLASSIFIED, name + ": " + t.getClass().getSimpleName()
            + (t.getMessage() == null ? "" : ": " + t.getMessage()), null));
  }
}
