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
import io.vertx.core.http.HttpMethod;
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
 * only checking what it adds. Without tenants configured every request is a {@code public} tenant
 * that may use every intent; it is an admin ({@link Tenant#PUBLIC}) only when it comes from this
 * machine ({@link LocalCaller}), else it is {@link Tenant#PUBLIC_REMOTE}: with no admin key
 * configured, the admin surface answers only on loopback.
 *
 * <p>A request through the admin guard that changes something (any method but GET, HEAD and
 * OPTIONS) must also be one a browser does not send across sites without a preflight: it carries
 * {@value #ADMIN_REQUEST_HEADER} (any value) or a JSON {@code Content-Type}, and presents its key
 * as a Bearer token or {@code X-Api-Key} — Basic credentials, which a browser caches and then sends
 * by itself with any request to the origin, are enough for reading only (403 otherwise).
 *
 * <p>Thread-safe and stateless apart from the shared {@link Tenants}; the handler is synchronous, so
 * a request body is read by the route behind it exactly as without it, and the body of a refused
 * request is read and dropped before its connection is closed ({@link Problems#beforeBody}).
 */
public final class TenantAuth implements Handler<RoutingContext> {

  /**
   * The header that marks a request changing something on the admin surface as sent on purpose
   * (any non-blank value): a page on another site cannot add it without the browser asking this
   * server first, which it does not allow.
   */
  public static final String ADMIN_REQUEST_HEADER = "X-Requested-By";

  /** Where the admitted tenant is kept on the routing context. */
  private static final String TENANT_KEY = "georesolver.tenant";
  /** Set on the routing context when the admitted key came as HTTP Basic credentials. */
  private static final String BASIC_KEY = "georesolver.basic";

  /** Who a guard lets through. */
  private enum Mode {
    /** Any tenant's key (anyone without tenants). */
    TENANT,
    /** An admin's key; without tenants, a local caller only. */
    ADMIN,
    /** An admin's key once tenants exist; anyone without tenants (what names no tenant then). */
    OPERATOR_DATA
  }

  private final Tenants tenants;
  private final Metrics metrics;
  private final Mode mode;
  private final Revocations revocations;

  /** The guard for any tenant's key, on tenants that never change (its streams are never revoked). */
  public TenantAuth(Tenants tenants, Metrics metrics) {
    this(tenants, metrics, Revocations.fixed(tenants));
  }

  /**
   * The guard for any tenant's key.
   *
   * @param revocations where the streams it admits are watched across reloads (one per ingress instance)
   */
  public TenantAuth(Tenants tenants, Metrics metrics, Revocations revocations) {
    this(tenants, metrics, Mode.TENANT, revocations);
  }

  private TenantAuth(Tenants tenants, Metrics metrics, Mode mode, Revocations revocations) {
    this.tenants = tenants;
    this.metrics = metrics;
    this.mode = mode;
    this.revocations = revocations;
  }

  /**
   * The same guard, which lets through only the keys of tenants with {@code admin: true} (403 for
   * others) and, without tenants, only local callers; a request changing something must also pass
   * the cross-site checks (see the class comment).
   */
  public TenantAuth admin() {
    return new TenantAuth(tenants, metrics, Mode.ADMIN, revocations);
  }

  /**
   * The guard of what tells about every tenant ({@code /metrics}): an admin's key once tenants exist
   * (Basic credentials do, it only reads); open without tenants, when there is no tenant to tell about.
   */
  public TenantAuth operatorData() {
    return new TenantAuth(tenants, metrics, Mode.OPERATOR_DATA, revocations);
  }

  @Override
  public void handle(RoutingContext ctx) {
    if (!tenants.configured()) {
      if (mode == Mode.ADMIN) {
        if (!local(ctx.request())) {
          metrics.tenant(Tenant.PUBLIC_ID, TenantOutcome.FORBIDDEN);
          Problems.beforeBody(ctx.request());
          Problems.forbidden(ctx.response(), "with no admin key configured the admin endpoints answer only on this machine "
              + "(loopback, not through a proxy); configure a tenant with admin: true and send its key", null);
          return;
        }
        if (!sentOnPurpose(ctx, Tenant.PUBLIC_ID)) {
          return;
        }
      }
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
    if (mode != Mode.TENANT && !t.admin()) {
      metrics.tenant(t.id(), TenantOutcome.FORBIDDEN);
      Problems.beforeBody(ctx.request());
      Problems.forbidden(ctx.response(), "this endpoint needs an admin key", null);
      return;
    }
    if (mode == Mode.ADMIN && !sentOnPurpose(ctx, t.id())) {
      return;
    }
    ctx.next();
  }

  /** Whether the request comes from this machine ({@link LocalCaller}). */
  static boolean local(HttpServerRequest req) {
    var peer = req.remoteAddress();
    boolean forwarded = req.headers().contains("Forwarded") || req.headers().contains("X-Forwarded-For")
        || req.headers().contains("X-Real-IP");
    return LocalCaller.isLocal(peer == null ? null : peer.hostAddress(), req.getHeader("Host"), forwarded);
  }

  /** Whether the method changes nothing (the only ones a cross-site page or cached Basic credentials may cause). */
  private static boolean reads(HttpMethod m) {
    return m == HttpMethod.GET || m == HttpMethod.HEAD || m == HttpMethod.OPTIONS;
  }

  /**
   * Whether an admin request is one a browser does not send by itself across sites: it reads, or it
   * carries {@link #ADMIN_REQUEST_HEADER} or a JSON content type and no Basic key. Otherwise answers 403.
   */
  private boolean sentOnPurpose(RoutingContext ctx, String tenantId) {
    HttpServerRequest req = ctx.request();
    if (reads(req.method())) {
      return true;
    }
    String problem = null;
    if (Boolean.TRUE.equals(ctx.get(BASIC_KEY))) {
      problem = "a request that changes something needs the admin key as Authorization: Bearer or X-Api-Key; Basic "
          + "credentials, which a browser keeps and sends by itself, are for reading only";
    } else if (!marked(req)) {
      problem = "a request that changes something must carry " + ADMIN_REQUEST_HEADER
          + " (any value) or Content-Type: application/json, which a page on another site cannot send without asking first";
    }
    if (problem == null) {
      return true;
    }
    metrics.tenant(tenantId, TenantOutcome.FORBIDDEN);
    Problems.beforeBody(req);
    Problems.forbidden(ctx.response(), problem, null);
    return false;
  }

  /** Whether the request carries the admin header or a JSON content type. */
  private static boolean marked(HttpServerRequest req) {
    String h = req.getHeader(ADMIN_REQUEST_HEADER);
    if (h != null && !h.isBlank()) {
      return true;
    }
    String type = req.getHeader("Content-Type");
    if (type == null) {
      return false;
    }
    int semi = type.indexOf(';');
    String media = (semi < 0 ? type : type.substring(0, semi)).strip().toLowerCase(java.util.Locale.ROOT);
    return media.equals("application/json") || (media.startsWith("application/") && media.endsWith("+json"));
  }

  /**
   * Watches a long-lived request this guard admitted (an event stream) until it ends: after every
   * applied reload the key it presented is asked again of the tenants serving then, and when it no
   * longer admits the same tenant — revoked, moved, no longer an admin where {@code needsAdmin}, or
   * now needed where none was sent — {@code onRevoked} ends the stream. Only the key's sha256 is
   * kept, for as long as the stream is open.
   *
   * @param needsAdmin whether the stream needs its tenant to stay an admin (without tenants: to stay local)
   * @param onRevoked ends the stream; run at most once, on this instance's event loop
   * @return the registration: close it when the stream ends by itself
   */
  public Revocations.Watch watch(RoutingContext ctx, boolean needsAdmin, Runnable onRevoked) {
    HttpServerRequest req = ctx.request();
    Credentials c = mode != Mode.TENANT || needsAdmin
        ? Credentials.fromOperatorHeaders(req.getHeader("Authorization"), req.getHeader("X-Api-Key"))
        : Credentials.fromHeaders(req.getHeader("Authorization"), req.getHeader("X-Api-Key"));
    byte[] digest = c.key() == null ? null : dev.georesolver.config.KeyDigest.sha256(c.key());
    boolean local = local(req);
    String id = tenant(ctx).id();
    return revocations.register(now -> {
      if (!now.configured()) {
        return !needsAdmin || local;
      }
      Tenant t = digest == null ? null : now.identify(digest);
      return t != null && t.id().equals(id) && (!needsAdmin || t.admin());
    }, onRevoked);
  }

  /**
   * Whether this request may see what only an operator sees ({@code /health/ready}'s detail),
   * without refusing it: an admin tenant's key (any form, no rate limit taken) once tenants exist;
   * a local caller without tenants.
   */
  public boolean operator(RoutingContext ctx) {
    if (!tenants.configured()) {
      return local(ctx.request());
    }
    Tenant t = ctx.get(TENANT_KEY);
    if (t == null) {
      HttpServerRequest req = ctx.request();
      t = tenants.identify(Credentials.fromOperatorHeaders(req.getHeader("Authorization"), req.getHeader("X-Api-Key")).key());
    }
    return t != null && t.admin();
  }

  /** The admitted tenant, or null after answering why not. */
  private Tenant admit(RoutingContext ctx) {
    HttpServerRequest req = ctx.request();
    boolean operator = mode != Mode.TENANT;
    Credentials c = operator ? Credentials.fromOperatorHeaders(req.getHeader("Authorization"), req.getHeader("X-Api-Key"))
        : Credentials.fromHeaders(req.getHeader("Authorization"), req.getHeader("X-Api-Key"));
    Verdict v = tenants.admit(c.key());
    if (v instanceof Verdict.Admitted a) {
      metrics.tenant(a.tenant().id(), TenantOutcome.ADMITTED);
      if (Credentials.BASIC.equals(c.where())) {
        ctx.put(BASIC_KEY, true);
      }
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
    Problems.unauthenticated(ctx.response(), c.key() != null, operator, u.message(), null);
    return null;
  }

  /**
   * The tenant this request was admitted as by a guard in front of its route; when no tenants are
   * configured, {@link Tenant#PUBLIC} for a local caller and {@link Tenant#PUBLIC_REMOTE} (no admin) for others.
   *
   * @throws IllegalStateException when tenants are configured and no guard ran: the route is mounted
   *     without one, which is a bug to be found, not a request to let through
   */
  public Tenant tenant(RoutingContext ctx) {
    if (!tenants.configured()) {
      return local(ctx.request()) ? Tenant.PUBLIC : Tenant.PUBLIC_REMOTE;
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
