package dev.georesolver.support;

import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.DeploymentOptions;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;

/**
 * Runs a store's asynchronous calls on one Vert.x context (a worker context for blocking backends,
 * an event loop otherwise), as the state verticle would, and waits for each from the test's thread.
 */
public final class OnContext implements AutoCloseable {

  private final Vertx vertx;
  private final Context context;
  private final boolean ownsVertx;

  private OnContext(Vertx vertx, Context context, boolean ownsVertx) {
    this.vertx = vertx;
    this.context = context;
    this.ownsVertx = ownsVertx;
  }

  /** A new Vert.x and a context of the given model ({@code WORKER} for JDBC). */
  public static OnContext start(ThreadingModel model) {
    return on(Vertx.vertx(), model, true);
  }

  /** A context of {@code vertx} (left running on close). */
  public static OnContext on(Vertx vertx, ThreadingModel model) {
    return on(vertx, model, false);
  }

  private static OnContext on(Vertx vertx, ThreadingModel model, boolean owns) {
    CompletableFuture<Context> ctx = new CompletableFuture<>();
    vertx.deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        ctx.complete(context);
        return Future.succeededFuture();
      }
    }, new DeploymentOptions().setThreadingModel(model));
    try {
      return new OnContext(vertx, ctx.get(10, TimeUnit.SECONDS), owns);
    } catch (InterruptedException | ExecutionException | TimeoutException e) {
      throw new IllegalStateException(e);
    }
  }

  public Vertx vertx() {
    return vertx;
  }

  /** Runs {@code call} on the context and waits (at most 30 s) for its result; a failure is rethrown. */
  public <T> T await(Supplier<Future<T>> call) {
    CompletableFuture<T> out = new CompletableFuture<>();
    context.runOnContext(v -> {
      Future<T> f;
      try {
        f = call.get();
      } catch (RuntimeException e) {
        out.completeExceptionally(e);
        return;
      }
      f.onComplete(ar -> {
        if (ar.succeeded()) {
          out.complete(ar.result());
        } else {
          out.completeExceptionally(ar.cause());
        }
      });
    });
    try {
      return out.get(30, TimeUnit.SECONDS);
    } catch (ExecutionException e) {
      Throwable c = e.getCause();
      if (c instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(c);
    } catch (InterruptedException | TimeoutException e) {
      throw new IllegalStateException("the store did not answer within 30 s", e);
    }
  }

  /** Runs {@code call} on the context and returns its failure (fails the test if it succeeded). */
  public <T> Throwable failure(Supplier<Future<T>> call) {
    try {
      T v = await(call);
      throw new AssertionError("expected a failure, got " + v);
    } catch (RuntimeException e) {
      return e;
    }
  }

  @Override
  public void close() {
    if (ownsVertx) {
      vertx.close().await();
    }
  }

}
