package dev.georesolver.web;

import dev.georesolver.compat.Credentials;
import dev.georesolver.compat.Gate;
import dev.georesolver.compat.GateVerdict;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.metrics.Metrics.TenantOutcome;
import dev.georesolver.tenant.Tenant;
import dev.georesolver.tenant.Tenants;
import dev.georesolver.tenant.Verdict;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

/**
 * The tenant guard: a route handler any route puts in front of itself. It reads the key
 * ({@code Authorization: Bearer <key>}, else {@code X-Api-Key}), authenticates it, takes one request
 * from the tenant's rate limit, remembers the tenant on the routing context ({@link #tenant}) and
 * lets the route go on; otherwise it answers — 401 with {@code WWW-Authenticate}, 429 with
 * {@code Retry-After}, problem+json through {@link Problems} — and nothing reaches the chain. Each
 * outcome is counted per tenant in {@code /metrics}; a key is never logged, counted or echoed.
 *
 * <pre>{@code
 * TenantAuth auth = new TenantAuth(tenants, metrics);
 * router.route("/v1/*").handler(auth);                 // every /v1 route: some tenant's key
 * router.route("/admin/*").handler(auth.admin());      // and an admin's for these
 * router.get("/v1/corrections").handler(ctx -> { String feed = auth.feedTenant(ctx, ctx.queryParams().get("tenant")); … });
 * }</pre>
 *
 * <p>Guards stack: a route behind two guards is authenticated and rate-limited once, the second
 * only checking what it adds. Without tenants configured every request is {@link Tenant#PUBLIC},
 * which may use every intent and every admin endpoint, and the guard only calls the next handler.
 * Thread-safe and stateless apart from the shared {@link Tenants}; the handler is synchronous, so
 * a request body is read by the route behind it exactly as without it, and the body of a refused
 * request is read and dropped before its connection is closed ({@link Problems#beforeBody}).
 */
public final class TenantAuth implements Handler<RoutingContext> {

  /** Where the admitted tenant is kept on the routing context. */
  private static final String TENANT_KEY = "georesolver.tenant";

  private final Tenants tenants;
  private final Metrics metrics;
  private final boolean adminOnly;

  /** The guard for any tenant's key. */
  public TenantAuth(Tenants tenants, Metrics metrics) {
    this(tenants, metrics, false);
  }

  private TenantAuth(Tenants tenants, Metrics metrics, boolean adminOnly) {
    this.tenants = tenants;
    this.metrics = metrics;
    this.adminOnly = adminOnly;
  }

  /** The same guard, which lets through only the keys of tenants with {@code admin: true} (403 for others). */
  public TenantAuth admin() {
    return new TenantAuth(tenants, metrics, true);
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (!tenants.configured()) {
      ctx.next();
      return;
    }
    Tenant t = ctx.get(TENANT_KEY);
    if (t == null) {
      t = admit(ctx);
      if (t == null) {
        return;
      }
      ctx.put(TENANT_KEY, t);
    }
    if (adminOnly && !t.admin()) {
      metrics.tenant(t.id(), TenantOutcome.FORBIDDEN);
      Problems.beforeBody(ctx.request());
      Problems.forbidden(ctx.response(), "this endpoint needs an admin key", null);
      return;
    }
    ctx.next();
  }

  /** The admitted tenant, or null after answering why not. */
  private Tenant admit(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    Credentials c = adminOnly ? Credentials.fromOperatorHeaders(req.getHeader("Authorization"), req.getHeader("X-Api-Key"))
        : Credentials.fromHeaders(req.getHeader("Authorization"), req.getHeader("X-Api-Key"));
    Verdict v = tenants.admit(c.key());
    if (v instanceof Verdict.Admitted a) {
      metrics.tenant(a.tenant().id(), TenantOutcome.ADMITTED);
      return a.tenant();
    }
    Problems.beforeBody(req);
    if (v instanceof Verdict.RateLimited r) {
      metrics.tenant(r.tenant().id(), TenantOutcome.RATE_LIMITED);
      Problems.rateLimited(ctx.response(), r.retryAfterS(), "over the rate limit of tenant " + r.tenant().id()
          + "; retry after " + r.retryAfterS() + " s", null);
      return null;
    }
    Verdict.Unauthenticated u = (Verdict.Unauthenticated) v;
    metrics.unauthenticated(u.reason());
    Problems.unauthenticated(ctx.response(), c.key() != null, adminOnly, u.message(), null);
    return null;
  }

  /**
   * The tenant this request was admitted as by a guard in front of its route; {@link Tenant#PUBLIC}
   * when no tenants are configured.
   *
   * @throws IllegalStateException when tenants are configured and no guard ran: the route is mounted
   *     without one, which is a bug to be found, not a request to let through
   */
  public Tenant tenant(RoutingContext ctx) {
    if (!tenants.configured()) {
      return Tenant.PUBLIC;
    }
    Tenant t = ctx.get(TENANT_KEY);
    if (t == null) {
      throw new IllegalStateException("no tenant guard in front of " + ctx.request().path());
    }
    return t;
  }

  /**
   * Whether the request's tenant may ask for {@code intent}; when not, answers 403 and counts it.
   *
   * @param traceId the request's trace id, for the answer
   */
  public boolean permits(RoutingContext ctx, String intent, String traceId) {
    Tenant t = tenant(ctx);
    if (t.allows(intent)) {
      return true;
    }
    metrics.tenant(t.id(), TenantOutcome.FORBIDDEN);
    Problems.forbidden(ctx.response(), "tenant " + t.id() + " may not use intent '" + intent + "'", traceId);
    return false;
  }

  /**
   * The tenant whose feed (corrections, audit) the request may read: its own when it asks for none
   * or for itself; another only with an admin key. Otherwise answers 403 and returns null.
   *
   * @param asked the tenant the request names (a {@code tenant=} parameter), or null
   */
  public String feedTenant(RoutingContext ctx, String asked) {
    Tenant t = tenant(ctx);
    if (asked == null || asked.isEmpty() || asked.equals(t.id())) {
      return t.id();
    }
    if (t.admin()) {
      return asked;
    }
    metrics.tenant(t.id(), TenantOutcome.FORBIDDEN);
    Problems.forbidden(ctx.response(), "a tenant reads its own feed; another tenant's needs an admin key", null);
    return null;
  }

  /**
   * The same decisions for the compatible endpoints, which answer in their own dialects: the gate
   * they ask ({@link Gate#open()} when no tenants are configured).
   */
  public Gate gate() {
    if (!tenants.configured()) {
      return Gate.open();
    }
    return new Gate() {
      @Override
      public Future<GateVerdict> admit(Credentials credentials) {
        Verdict v = tenants.admit(credentials.key());
        if (v instanceof Verdict.Admitted a) {
          metrics.tenant(a.tenant().id(), TenantOutcome.ADMITTED);
          return Future.succeededFuture(new GateVerdict.Admitted(a.tenant().id()));
        }
        if (v instanceof Verdict.RateLimited r) {
          metrics.tenant(r.tenant().id(), TenantOutcome.RATE_LIMITED);
          return Future.succeededFuture(new GateVerdict.RateLimited(r.retryAfterS(), "Over the rate limit of this key."));
        }
        Verdict.Unauthenticated u = (Verdict.Unauthenticated) v;
        metrics.unauthenticated(u.reason());
        return Future.succeededFuture(new GateVerdict.Denied(401, credentials.key() == null
            ? "An API key is required." : "The provided API key is invalid."));
      }

      @Override
      public GateVerdict authorize(GateVerdict.Admitted admitted, String intent) {
        Tenant t = tenants.byId(admitted.tenant());
        if (t != null && t.allows(intent)) {
          return admitted;
        }
        metrics.tenant(admitted.tenant(), TenantOutcome.FORBIDDEN);
        return new GateVerdict.Denied(403, "This API key may not use intent '" + intent + "'.");
      }
    };
  }
}
