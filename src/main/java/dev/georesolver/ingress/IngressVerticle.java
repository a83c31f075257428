package dev.georesolver.ingress;

import dev.georesolver.web.ServerLimits;
import dev.georesolver.web.RejectedRequest;
import dev.georesolver.web.Problems;
import dev.georesolver.web.RouteModule;
import dev.georesolver.web.TenantAuth;
import dev.georesolver.web.Revocations;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.compat.CompatRoutes;
import dev.georesolver.config.Manifest;
import dev.georesolver.trace.TraceHandler;
import dev.georesolver.trace.Tracing;
import dev.georesolver.config.MarginsConfig;
import dev.georesolver.deadline.Ticker;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.geo.Direction;
import dev.georesolver.reload.LiveManifest;
import dev.georesolver.reload.ReloadStatus;
import dev.georesolver.tenant.Tenants;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.core.shareddata.LocalMap;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.management.ManagementFactory;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP face: tenant authentication, routing, input validation and budget parsing; each route a
 * small handler; the operator's routes ({@link AdminRoutes}). Talks to the rest only over the event bus. Several instances may share the port;
 * they share its connection cap, and must share one {@link Tenants} (the tenants' rate limits).
 *
 * <p>Guards come first ({@link TenantAuth}): every {@code /v1} route needs a tenant's key (when
 * tenants are configured), {@code /admin/*}, {@code /v1/reconcile} and {@code /manifest} an admin's;
 * a route mounted later under those prefixes is behind the same guard; without tenants the admin
 * routes answer only local callers. {@code /health/live}, the status of {@code /health/ready} and
 * Nominatim's {@code /status} stay open and name no tenant; {@code /metrics} and the readiness
 * detail need an admin key once tenants exist; the compatible
 * endpoints ask the same tenants through their {@link dev.georesolver.compat.Gate}.
 *
 * <p>The server speaks HTTP/1.1 and holds clients to {@link ServerLimits}: connections are counted
 * and deadlined from the moment they are accepted ({@link ConnectionGuard}), and every request the
 * HTTP layer refuses but can still answer gets a problem+json answer ({@link Problems}).
 */
public final class IngressVerticle extends VerticleBase {

  private static final Logger log = LoggerFactory.getLogger(IngressVerticle.class);

  /** Shared-data map of the connection counts, by port, that instances on one port share. */
  private static final String COUNTS = "georesolver.ingress.connections";

  /** The revision started with: what only a restart changes (margins, budgets, limits) comes from it. */
  private final Manifest manifest;
  private final LiveManifest live;
  private final int port;
  /** The address listened on. */
  private String host;
  private final Metrics metrics;
  private final ServerLimits limits;
  /** Spans of the resolving routes; off unless {@link #tracing} says otherwise. */
  private Tracing tracing = Tracing.off();
  private List<RouteModule> modules = List.of();
  private DashboardHandler dashboard;
  /** The live feed's handler, kept across revisions: it counts the streams this instance serves. */
  private EventStreamHandler events;
  /** The open event streams of this instance and the keys they were admitted with, asked again on every reload. */
  private Revocations revocations;
  /** The revision the router was built for, and the router; confined to this verticle's context. */
  private LiveManifest.Revision routed;
  private Router router;
  private HttpServer server;
  private ConnectionGuard guard;
  private ConnectionCount count;

  /**
   * An ingress with the manifest's {@code server:} limits, overridden by the environment's
   * {@code GEO_SERVER_*}.
   *
   * @param tenants the manifest's tenants, shared by every ingress instance of the process
   */
  public IngressVerticle(Manifest manifest, int port, Metrics metrics, Tenants tenants) {
    this(manifest, port, metrics, ServerLimits.of(manifest.server(), System.getenv()), tenants);
  }

  /** A lone ingress instance with its own {@link Tenants} (rate limits of its own). */
  public IngressVerticle(Manifest manifest, int port, Metrics metrics, ServerLimits limits) {
    this(manifest, port, metrics, limits, Tenants.of(manifest));
  }

  /**
   * @param port the port to listen on; 0 picks a free one
   * @param limits what clients are allowed
   * @param tenants the manifest's tenants, shared by every ingress instance of the process
   */
  public IngressVerticle(Manifest manifest, int port, Metrics metrics, ServerLimits limits, Tenants tenants) {
    this(LiveManifest.fixed(manifest, tenants), port, metrics, limits);
  }

  /**
   * An ingress that follows the revisions {@code live} serves: each request is routed by the router
   * of the revision serving when it arrives (intents, tenants and their keys, {@code /manifest}).
   */
  public IngressVerticle(LiveManifest live, int port, Metrics metrics, ServerLimits limits) {
    this.metrics = metrics;
    this.live = live;
    this.manifest = live.current().manifest();
    this.port = port;
    this.host = manifest.server().host();
    this.limits = limits;
  }

  /** An ingress following {@code live}, with the start revision's {@code server:} limits and the environment's. */
  public IngressVerticle(LiveManifest live, int port, Metrics metrics) {
    this(live, port, metrics, ServerLimits.of(live.current().manifest().server(), System.getenv()));
  }

  /**
   * Mounts {@code modules} (default none) on every router, after the resolving and compatible
   * routes and before the operator's; before deploying.
   */
  public IngressVerticle modules(List<RouteModule> modules) {
    this.modules = List.copyOf(modules);
    return this;
  }

  /**
   * Listens on {@code host} (an interface's address or name; {@code 0.0.0.0} for all, the default:
   * the manifest's {@code server.host}); before deploying. Null keeps the manifest's.
   */
  public IngressVerticle host(String host) {
    if (host != null && !host.isBlank()) {
      this.host = host.strip();
    }
    return this;
  }

  /** Records the resolving routes' server spans with {@code tracing} (default {@link Tracing#off()}); before deploying. */
  public IngressVerticle tracing(Tracing tracing) {
    this.tracing = tracing;
    return this;
  }

  @Override
  public Future<?> start() {
    return DashboardHandler.load(vertx).compose(this::listen);
  }

  private Future<?> listen(DashboardHandler dashboard) {
    this.dashboard = dashboard;
    this.events = new EventStreamHandler(vertx.eventBus(), manifest.routing().margins().statusTimeoutMs(),
        EventStreamHandler.DEFAULT_MAX_STREAMS);
    this.revocations = new Revocations(() -> live.current().tenants());
    // Published after each reload attempt, once the new revision serves: streams whose key it revoked end.
    vertx.eventBus().localConsumer(Addresses.MANIFEST_EVENTS, m -> {
      int ended = revocations.recheck();
      if (ended > 0) {
        log.info("ended {} event stream(s) whose key the reload revoked", ended);
      }
    });
    router();
    count = connectionCount();
    guard = new ConnectionGuard(vertx, limits, count, metrics, Ticker.SYSTEM, req -> modules.stream().anyMatch(m -> m.pacesBody(req)));
    server = vertx.createHttpServer(serverOptions())
        .connectionHandler(guard::onConnection)
        .invalidRequestHandler(guard.watching(req -> refuse(req, RejectedRequest.undecodable(req.decoderResult().cause(), limits))))
        // Any handshake handler routes requests with an unknown HTTP version to the request handler
        // (else Vert.x answers a bare 501); WebSocket upgrades are not part of the API.
        .webSocketHandshakeHandler(handshake -> handshake.reject(400))
        .requestHandler(guard.watching(req -> {
          if (req.version() == null) {
            refuse(req, RejectedRequest.unsupportedVersion());
          } else {
            router().handle(req);
          }
        }));
    return server.listen(port, host).onSuccess(s -> {
      if (port == 0) {
        counts().put(s.actualPort(), count);
      }
      guard.start();
    });
  }

  /** The router of the revision serving now, built once per revision per instance. */
  private Router router() {
    LiveManifest.Revision r = live.current();
    if (r != routed) {
      router = routes(r);
      routed = r;
    }
    return router;
  }

  private Router routes(LiveManifest.Revision rev) {
    RequestValidator validator = RequestValidator.forManifest(rev.manifest());
    MarginsConfig margins = manifest.routing().margins();
    Tenants tenants = rev.tenants();
    var bus = vertx.eventBus();
    Router router = Router.router(vertx);
    long body = limits.maxBodyBytes();
    long grace = margins.ingressGraceMs();
    TenantAuth auth = new TenantAuth(tenants, metrics, revocations);
    // The trace first, so that even a request the guards refuse has its span and its X-Trace-Id.
    TraceHandler trace = new TraceHandler(tracing);
    router.route("/v1/*").handler(trace);
    CompatRoutes.PATHS.forEach(path -> router.route(path).handler(trace));
    // Guards before every route: whatever is mounted under these prefixes, now or later, is behind them.
    router.route("/v1/*").handler(auth);
    router.route("/v1/reconcile").handler(auth.admin());
    router.route("/v1/reconcile/*").handler(auth.admin());
    router.route("/admin/*").handler(auth.admin());
    // The page holds no data, but it is the operator's: guarded so that a browser is asked for the
    // admin key once and then sends it (Basic) with the page's event stream, which cannot set headers.
    router.route("/dashboard").handler(auth.admin());
    router.route("/dashboard/*").handler(auth.admin());
    router.get("/v1/geocode").handler(new GeocodeHandler(bus, validator, Direction.FORWARD, metrics, body, grace, auth));
    router.post("/v1/geocode").handler(new GeocodeHandler(bus, validator, Direction.FORWARD, metrics, body, grace, auth));
    router.get("/v1/reverse").handler(new GeocodeHandler(bus, validator, Direction.REVERSE, metrics, body, grace, auth));
    // Drop-in Nominatim and Google endpoints in front of the same chain, asking the same tenants.
    CompatRoutes.mount(router, bus, validator, auth.gate(), margins);
    // The feature modules (corrections, audit, batches, …): each its own routes behind the guards above.
    RouteModule.Mount mount = new RouteModule.Mount(vertx, auth, rev.manifest());
    modules.forEach(m -> m.mount(router, mount));
    router.get("/health/live").handler(ctx -> ctx.response().putHeader("content-type", "application/json")
        .end(new JsonObject().put("status", "live").toBuffer()));
    router.get("/health/ready").handler(new HealthHandler(bus, margins.healthTimeoutMs(), auth));
    // Per-tenant figures: an admin's to read once tenants exist (a scraper gets an admin key).
    router.get("/metrics").handler(auth.operatorData()).handler(ctx -> ctx.response()
        .putHeader("content-type", "text/plain; version=0.0.4; charset=utf-8")
        .end(metrics.scrape()));
    // It names every tenant, its region and its key references: an admin's to read once tenants exist.
    router.get("/manifest").handler(auth.admin()).handler(this::manifest);
    // Drills, reloads, the live feed and the dashboard: everything that acts or tells is under /admin/.
    AdminRoutes.mount(router, bus, auth, margins, manifest.routing().maxBudgetMs(), dashboard, events);
    router.errorHandler(400, Problems::malformedUri);
    router.errorHandler(404, ctx -> Problems.status(ctx.response(), 404, "Not Found", "no route " + ctx.request().path(), null));
    router.errorHandler(405, ctx -> Problems.status(ctx.response(), 405, "Method Not Allowed",
        ctx.request().method() + " is not allowed on " + ctx.request().path(), null));
    router.errorHandler(413, ctx -> Problems.status(ctx.response(), 413, "Payload Too Large",
        "request bodies are limited to " + limits.maxBodyBytes() + " bytes", null));
    router.errorHandler(500, ctx -> Problems.fail(ctx.response(), ctx.failure() == null ? new IllegalStateException("500") : ctx.failure(), null));
    return router;
  }

  /**
   * {@code GET /manifest}: the revision serving now (the values running, not the file's), the last
   * reload attempt, and {@code pending_restart}: what the file changes that only a restart applies.
   * The status is read first: a revision is swapped in before its status is reported, so the two
   * never disagree.
   */
  private void manifest(RoutingContext ctx) {
    ReloadStatus status = live.status();
    ctx.response().putHeader("content-type", "application/json")
        .end(live.current().manifest().describe().put("pending_restart", new JsonArray(status.pendingRestart()))
            .put("reload", status.toJson()).toBuffer());
  }

  @Override
  public Future<?> stop() {
    if (guard != null) {
      guard.stop();
      counts().removeIfPresent(server.actualPort(), count);
    }
    return Future.succeededFuture();
  }

  private void refuse(HttpServerRequest req, RejectedRequest r) {
    metrics.httpRejected(r.reason());
    Problems.rejected(req, r, null);
  }

  /** The port actually bound. */
  public int actualPort() {
    return server.actualPort();
  }

  /**
   * HTTP/1.1 only: with cleartext HTTP/2 on, Vert.x reads a connection's first bytes before it
   * hands the connection over, so a client that sends nothing would be neither counted nor
   * deadlined. (HTTP/2 belongs at the TLS-terminating proxy in front.)
   */
  private HttpServerOptions serverOptions() {
    long idle = limits.effectiveIdleTimeoutMs(manifest.routing().maxBudgetMs(), manifest.routing().margins().ingressGraceMs(),
        raised -> log.info("idle timeout raised from {} ms to {} ms: requests may wait max_budget_ms plus grace for an answer",
            limits.idleTimeoutMs(), raised));
    return new HttpServerOptions()
        .setTcpNoDelay(true)
        .setCompressionSupported(true)
        .setHttp2ClearTextEnabled(false)
        .setIdleTimeout((int) Math.min(Integer.MAX_VALUE, idle))
        .setIdleTimeoutUnit(TimeUnit.MILLISECONDS)
        .setMaxInitialLineLength(limits.maxRequestLineBytes())
        .setMaxHeaderSize(limits.maxHeaderBytes());
  }

  /**
   * The count this instance shares with the others on its port: the first instance makes it (with
   * the cap), the others, deployed with the port it bound, find it.
   */
  private ConnectionCount connectionCount() {
    if (port != 0) {
      ConnectionCount shared = counts().get(port);
      if (shared != null) {
        return shared;
      }
    }
    int cap = limits.effectiveMaxConnections(fileDescriptorLimit());
    if (cap < limits.maxConnections()) {
      log.warn("connection cap lowered from {} to {}: three quarters of the process's file-descriptor limit",
          limits.maxConnections(), cap);
    }
    ConnectionCount c = new ConnectionCount(cap);
    if (port != 0) {
      ConnectionCount raced = counts().putIfAbsent(port, c);
      c = raced != null ? raced : c;
    }
    metrics.httpConnections(c::open);
    return c;
  }

  private LocalMap<Integer, ConnectionCount> counts() {
    return vertx.sharedData().getLocalMap(COUNTS);
  }

  /** The process's file-descriptor limit, or -1 when the platform does not say. */
  private static long fileDescriptorLimit() {
    return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix
        ? unix.getMaxFileDescriptorCount() : -1;
  }
}
