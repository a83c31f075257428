package dev.georesolver.ingress;

import dev.georesolver.bus.RequestValidator;
import dev.georesolver.compat.CompatRoutes;
import dev.georesolver.compat.Gate;
import dev.georesolver.config.Manifest;
import dev.georesolver.corrections.CorrectionRoutes;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.provider.Direction;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.BodyHandler;

/**
 * The HTTP face (DESIGN §1, §9): routing, input validation and budget parsing; each route a small
 * handler. Talks to the rest only over the event bus. Several instances may share the port.
 */
public final class IngressVerticle extends VerticleBase {

  /** The largest request body accepted, bytes. */
  static final long MAX_BODY_BYTES = 64 * 1024;

  private final Manifest manifest;
  private final int port;
  private HttpServer server;

  private final Metrics metrics;

  public IngressVerticle(Manifest manifest, int port, Metrics metrics) {
    this.metrics = metrics;
    this.manifest = manifest;
    this.port = port;
  }

  @Override
  public Future<?> start() {
    RequestValidator validator = new RequestValidator(manifest.intentNames(), manifest.defaultIntent(),
        manifest.routing().budgetMs(), manifest.routing().maxBudgetMs());
    var bus = vertx.eventBus();
    Router router = Router.router(vertx);
    router.get("/v1/geocode").handler(new GeocodeHandler(bus, validator, Direction.FORWARD, metrics));
    router.post("/v1/geocode").handler(BodyHandler.create().setBodyLimit(MAX_BODY_BYTES))
        .handler(new GeocodeHandler(bus, validator, Direction.FORWARD, metrics));
    router.get("/v1/reverse").handler(new GeocodeHandler(bus, validator, Direction.REVERSE, metrics));
    // Drop-in Nominatim and Google endpoints in front of the same chain; open access until tenants exist.
    CompatRoutes.mount(router, bus, validator, Gate.open());
    // The corrections feed and stream, and the reconcile figures.
    CorrectionRoutes.mount(router, bus);
    router.get("/health/live").handler(ctx -> ctx.response().putHeader("content-type", "application/json")
        .end(new JsonObject().put("status", "live").toBuffer()));
    router.get("/health/ready").handler(new HealthHandler(bus));
    router.get("/metrics").handler(ctx -> ctx.response()
        .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
        .end(metrics.scrape()));
    JsonObject described = manifest.describe();
    router.get("/manifest").handler(ctx -> ctx.response().putHeader("content-type", "application/json")
        .end(described.toBuffer()));
    router.errorHandler(404, ctx -> Problems.status(ctx.response(), 404, "Not Found", "no route " + ctx.request().path(), null));
    router.errorHandler(405, ctx -> Problems.status(ctx.response(), 405, "Method Not Allowed",
        ctx.request().method() + " is not allowed on " + ctx.request().path(), null));
    router.errorHandler(413, ctx -> Problems.status(ctx.response(), 413, "Payload Too Large",
        "request bodies are limited to " + MAX_BODY_BYTES + " bytes", null));
    router.errorHandler(500, ctx -> Problems.fail(ctx.response(), ctx.failure() == null ? new IllegalStateException("500") : ctx.failure(), null));
    server = vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true).setCompressionSupported(true));
    return server.requestHandler(router).listen(port);
  }

  /** The port actually bound. */
  public int actualPort() {
    return server.actualPort();
  }
}
