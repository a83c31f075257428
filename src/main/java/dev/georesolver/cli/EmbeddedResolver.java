package dev.georesolver.cli;

import dev.georesolver.GeoResolver;
import dev.georesolver.bus.Role;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.config.Manifest;
import dev.georesolver.geo.Direction;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonObject;

import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A resolver deployed in this process on the manifest, as {@code serve} deploys it, asked over the
 * event bus ({@link Addresses#RESOLVE}, {@link Addresses#REVERSE}) with the public request JSON, so
 * its answers are exactly the server's. Batch rows carry {@link Addresses#PRIORITY_HEADER}
 * {@value Addresses#PRIORITY_BATCH}.
 *
 * <p>It runs the chain and the tiers only ({@link Role}): no HTTP port is opened and no durable
 * store is taken, so it runs beside a server on the same manifest and state file.
 */
final class EmbeddedResolver implements Resolver {

  /** How long past a request's budget to wait for the chain's reply: the manifest's ingress grace, as HTTP waits. */
  private final long graceMs;

  /** First wait before asking again after no answer in time, ms; doubled each time, jittered. */
  private static final long RETRY_BASE_MS = 200;

  private final Vertx vertx;
  private final Manifest manifest;
  private final String manifestPath;
  private final int retries;

  private EmbeddedResolver(Vertx vertx, Manifest manifest, String manifestPath, int retries) {
    this.vertx = vertx;
    this.manifest = manifest;
    this.graceMs = manifest.routing().margins().ingressGraceMs();
    this.manifestPath = manifestPath;
    this.retries = retries;
  }

  /**
   * Deploys the resolver and waits until it is ready. Blocks: call from the command's own thread.
   *
   * @param redisUrl the shared store, or null for the manifest's choice
   * @param retries times a request that got no answer in time (the machine busier than the budget
   *     allows) is asked again, after a jittered backoff from 200 ms, before it fails
   */
  static EmbeddedResolver start(Manifest manifest, String manifestPath, String redisUrl, Map<String, String> env, int retries)
      throws CliException {
    Vertx vertx = Vertx.vertx(new VertxOptions().setAddressResolverOptions(ServeCommand.dnsOptions()));
    // The chain and the tiers only, one chain instance: the command's own requests, asked over the
    // event bus, are all it serves. No HTTP port, and no durable store (a running server may hold the
    // state file; a batch resumes from its own progress file; debts would outlive the process).
    GeoResolver.Options options = GeoResolver.Options.defaults(0, env).withRedis(ServeCommand.storeUrl(redisUrl, manifest))
        .withInstances(1).withRoles(Set.of(Role.CHAIN, Role.TIERS));
    try {
      GeoResolver.deploy(vertx, manifest, options).await();
    } catch (Exception e) {
      // await() rethrows the deployment's failure as it is, checked or not.
      vertx.close().await();
      throw new CliException(Exit.UNAVAILABLE, "the in-process resolver did not start: " + e.getMessage());
    }
    awaitReady(vertx);
    return new EmbeddedResolver(vertx, manifest, manifestPath, retries);
  }

  /** How long to wait at most for the chain to say it is ready before the first request, ms. */
  static final long READY_WAIT_MS = 10_000;

  /**
   * Waits until the chain answers its health check with {@code ready} (a tier that can be called),
   * at most {@link #READY_WAIT_MS}: the first rows must not spend their budget on a resolver still
   * starting. Not ready by then (every breaker forced open, say), it goes on: the rows are then
   * answered as they would be. Blocks: the command's own thread.
   */
  static void awaitReady(Vertx vertx) {
    long until = System.nanoTime() + READY_WAIT_MS * 1_000_000L;
    while (System.nanoTime() < until) {
      try {
        JsonObject h = vertx.eventBus().<JsonObject>request(Addresses.HEALTH, "", new DeliveryOptions().setSendTimeout(2000))
            .map(Message::body).await();
        if (h.getBoolean("ready", false)) {
          return;
        }
      } catch (Exception e) {
        // Not answering yet (await rethrows the failure as it is): ask again.
      }
      try {
        Thread.sleep(50);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** The manifest it runs on. */
  Manifest manifest() {
    return manifest;
  }

  @Override
  public Future<JsonObject> resolve(Direction direction, JsonObject request, boolean batch) {
    return attempt(direction, request, batch, 0);
  }

  private Future<JsonObject> attempt(Direction direction, JsonObject request, boolean batch, int n) {
    return send(direction, request, batch).recover(t -> {
      if (!late(t) || n >= retries) {
        return Future.failedFuture(unanswered(t));
      }
      long base = RETRY_BASE_MS << Math.min(n, 6);
      Promise<Void> wait = Promise.promise();
      vertx.setTimer(base / 2 + ThreadLocalRandom.current().nextLong(base / 2 + 1), id -> wait.complete());
      return wait.future().compose(v -> attempt(direction, request, batch, n + 1));
    });
  }

  /** Whether the request got no answer in time (not a refusal, not an error): worth asking again. */
  private static boolean late(Throwable t) {
    return t instanceof ReplyException re && (re.failureType() == ReplyFailure.TIMEOUT
        || (re.failureType() == ReplyFailure.RECIPIENT_FAILURE && re.failureCode() == FailureCode.DEADLINE_EXCEEDED.code()));
  }

  private Future<JsonObject> send(Direction direction, JsonObject request, boolean batch) {
    long budget = budgetMs(request);
    DeliveryOptions o = new DeliveryOptions()
        .setSendTimeout(budget + graceMs)
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(budget));
    if (batch) {
      o.addHeader(Addresses.PRIORITY_HEADER, Addresses.PRIORITY_BATCH);
    }
    String address = direction == Direction.FORWARD ? Addresses.RESOLVE : Addresses.REVERSE;
    return vertx.eventBus().<JsonObject>request(address, request, o).map(Message::body);
  }

  /** The request's {@code budget_ms} capped by the manifest, else the manifest's default. */
  private long budgetMs(JsonObject request) {
    long max = manifest.routing().maxBudgetMs();
    return request.getValue("budget_ms") instanceof Number n && n.longValue() > 0
        ? Math.min(n.longValue(), max)
        : manifest.routing().budgetMs();
  }

  private static Unanswered unanswered(Throwable t) {
    if (!(t instanceof ReplyException re)) {
      return new Unanswered(Unanswered.Kind.FAILED, String.valueOf(t));
    }
    return switch (re.failureType()) {
      case TIMEOUT -> new Unanswered(Unanswered.Kind.FAILED, "no answer within the budget");
      case NO_HANDLERS -> new Unanswered(Unanswered.Kind.UNAVAILABLE, "the in-process resolver is not running");
      case RECIPIENT_FAILURE, ERROR -> switch (FailureCode.of(re.failureCode()).orElse(FailureCode.ROUTER_ERROR)) {
        case BAD_REQUEST -> Unanswered.invalid(re.getMessage());
        case FORBIDDEN -> Unanswered.invalid("forbidden: " + re.getMessage());
        case STORE_UNAVAILABLE, REFUSED -> new Unanswered(Unanswered.Kind.UNAVAILABLE, "the state store: " + re.getMessage());
        case MISCONFIGURED -> new Unanswered(Unanswered.Kind.UNAVAILABLE, "misconfigured: " + re.getMessage());
        case DEADLINE_EXCEEDED -> new Unanswered(Unanswered.Kind.FAILED, "the budget was spent before the router could start");
        case ROUTER_ERROR -> new Unanswered(Unanswered.Kind.FAILED, re.getMessage());
      };
    };
  }

  @Override
  public String describe() {
    return "the in-process resolver (" + manifestPath + ")";
  }

  @Override
  public void close() {
    vertx.close().await();
  }
}
