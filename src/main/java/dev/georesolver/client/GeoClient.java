package dev.georesolver.client;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;

import java.time.Duration;
import java.util.Objects;

/**
 * Asks a GeoResolver over the event bus: {@link #geocode} sends a {@link GeocodeRequest} to
 * {@code geocode.resolve} (an address) or {@code geocode.reverse} (a point) and completes with the
 * {@link GeocodeResult}, or fails with a {@link GeoClientException}.
 *
 * <pre>{@code
 * GeoClient geo = GeoClient.create(vertx).withTenant("acme").withBudget(Duration.ofMillis(1500));
 * geo.geocode(GeocodeRequest.address("10 Downing St, London")).onSuccess(r -> ...);
 * }</pre>
 *
 * <p>The resolver may run in this JVM (deployed by the application: {@code docs/embedding.md}) or
 * on a node of the same clustered event bus: the client sends the public JSON request either way,
 * so it needs no codec and no other georesolver class. It holds nothing but the Vert.x instance
 * and its defaults, so it is cheap: make one per verticle, or share one.
 *
 * <p><b>Time.</b> Each request has a budget — its own ({@link GeocodeRequest#budget}), else the
 * client's ({@link #withBudget}, default {@link #DEFAULT_BUDGET}) — sent as {@code x-deadline-ms}: the
 * resolver walks its ladder inside it and answers (a refusal when it runs out). The client waits for
 * the reply that budget plus a margin ({@link #withMargin}, default {@link #DEFAULT_MARGIN}) for the
 * bus and the reply, then fails {@link GeoClientException.Code#TIMEOUT}.
 *
 * <p><b>Thread-safety.</b> Immutable: the {@code with…} methods return a new client, and any
 * thread may call {@link #geocode}. Called on a Vert.x context (a verticle), the future completes
 * on that context.
 */
public final class GeoClient {

  /** The budget of a request that names none, on a client that sets none: 2.5 s, the default manifest's {@code budget_ms}. */
  public static final Duration DEFAULT_BUDGET = Duration.ofMillis(2500);

  /** How long past the budget the client waits for the reply by default: 250 ms, as the HTTP ingress waits for the chain. */
  public static final Duration DEFAULT_MARGIN = Duration.ofMillis(250);

  private final Vertx vertx;
  private final String tenant;
  private final long budgetMs;
  private final long marginMs;

  private GeoClient(Vertx vertx, String tenant, long budgetMs, long marginMs) {
    this.vertx = vertx;
    this.tenant = tenant;
    this.budgetMs = budgetMs;
    this.marginMs = marginMs;
  }

  /** A client on {@code vertx}'s event bus: no tenant, {@link #DEFAULT_BUDGET}, {@link #DEFAULT_MARGIN}. */
  public static GeoClient create(Vertx vertx) {
    Objects.requireNonNull(vertx, "vertx");
    return new GeoClient(vertx, null, DEFAULT_BUDGET.toMillis(), DEFAULT_MARGIN.toMillis());
  }

  /**
   * This client acting for {@code tenant} (sent as {@code x-tenant} unless a request names its own);
   * needed when the resolver has tenants configured. Null: none.
   */
  public GeoClient withTenant(String tenant) {
    return new GeoClient(vertx, tenant, budgetMs, marginMs);
  }

  /**
   * This client with {@code budget} for the requests that name none.
   *
   * @throws IllegalArgumentException for a budget under one millisecond
   */
  public GeoClient withBudget(Duration budget) {
    return new GeoClient(vertx, tenant, checkBudget(budget), marginMs);
  }

  /**
   * This client waiting {@code margin} past each request's budget for its reply.
   *
   * @throws IllegalArgumentException for a negative margin
   */
  public GeoClient withMargin(Duration margin) {
    Objects.requireNonNull(margin, "margin");
    if (margin.isNegative()) {
      throw new IllegalArgumentException("margin must not be negative");
    }
    return new GeoClient(vertx, tenant, budgetMs, saturatedMillis(margin));
  }

  /** The tenant this client acts for, or null. */
  public String tenant() {
    return tenant;
  }

  /** The budget of requests that name none. */
  public Duration budget() {
    return Duration.ofMillis(budgetMs);
  }

  /** How long past a request's budget the client waits for its reply. */
  public Duration margin() {
    return Duration.ofMillis(marginMs);
  }

  /**
   * Resolves {@code request}: its address forward, its point reverse.
   *
   * @return the result — resolved, or refused with its reason — or a failed future with a
   *     {@link GeoClientException} (a bad request, a forbidden intent, a misconfigured ladder, no
   *     resolver on the bus, no reply in time)
   */
  public Future<GeocodeResult> geocode(GeocodeRequest request) {
    Objects.requireNonNull(request, "request");
    long budget = request.budget() != null ? checkBudget(request.budget()) : budgetMs;
    DeliveryOptions o = new DeliveryOptions()
        .setSendTimeout(budget > Long.MAX_VALUE - marginMs ? Long.MAX_VALUE : budget + marginMs)
        .addHeader(Wire.DEADLINE_HEADER, Long.toString(budget));
    String forTenant = request.tenant() != null ? request.tenant() : tenant;
    if (forTenant != null) {
      o.addHeader(Wire.TENANT_HEADER, forTenant);
    }
    if (request.traceparent() != null) {
      o.addHeader(Wire.TRACEPARENT_HEADER, request.traceparent());
      if (request.tracestate() != null) {
        o.addHeader(Wire.TRACESTATE_HEADER, request.tracestate());
      }
    }
    String address = request.isReverse() ? Wire.REVERSE : Wire.RESOLVE;
    return vertx.eventBus().<Object>request(address, request.toJson(), o)
        .transform(ar -> ar.succeeded() ? result(ar.result()) : Future.failedFuture(failure(ar.cause(), address)));
  }

  private static Future<GeocodeResult> result(Message<Object> reply) {
    Object body = reply.body();
    try {
      JsonObject j = body instanceof JsonObject o ? o : body instanceof Buffer b ? new JsonObject(b) : null;
      if (j != null) {
        return Future.succeededFuture(GeocodeResult.fromJson(j));
      }
    } catch (RuntimeException notAResult) {
      return Future.failedFuture(new GeoClientException(GeoClientException.Code.INTERNAL, -1,
          "the resolver's reply is not a result: " + notAResult.getMessage(), notAResult));
    }
    return Future.failedFuture(new GeoClientException(GeoClientException.Code.INTERNAL, -1,
        "the resolver's reply is not a result JSON object", null));
  }

  /** The exception for a failed request: by the resolver's failure code, or by what the bus said. */
  static GeoClientException failure(Throwable t, String address) {
    if (!(t instanceof ReplyException re)) {
      return new GeoClientException(GeoClientException.Code.INTERNAL, -1, "sending to " + address + " failed: " + t, t);
    }
    return switch (re.failureType()) {
      case TIMEOUT -> new GeoClientException(GeoClientException.Code.TIMEOUT, -1,
          "no reply from " + address + " within the budget and the margin", re);
      case NO_HANDLERS -> new GeoClientException(GeoClientException.Code.UNAVAILABLE, -1,
          "no resolver on the event bus (nothing consumes " + address + ")", re);
      case RECIPIENT_FAILURE -> byCode(re);
      default -> new GeoClientException(GeoClientException.Code.INTERNAL, re.failureCode(),
          "sending to " + address + " failed: " + re.getMessage(), re);
    };
  }

  private static GeoClientException byCode(ReplyException re) {
    int c = re.failureCode();
    String m = re.getMessage();
    return switch (c) {
      case Wire.BAD_REQUEST -> GeoClientException.badRequest(m, re);
      case Wire.FORBIDDEN -> new GeoClientException(GeoClientException.Code.FORBIDDEN, c, m, re);
      case Wire.MISCONFIGURED -> new GeoClientException(GeoClientException.Code.MISCONFIGURED, c, m, re);
      case Wire.DEADLINE_EXCEEDED -> new GeoClientException(GeoClientException.Code.TIMEOUT, c,
          "the budget was spent before the resolver could start: " + m, re);
      case Wire.STORE_UNAVAILABLE, Wire.REFUSED -> new GeoClientException(GeoClientException.Code.UNAVAILABLE, c, m, re);
      default -> new GeoClientException(GeoClientException.Code.INTERNAL, c, m, re);
    };
  }

  /** The budget in milliseconds, checked: at least one. */
  static long checkBudget(Duration budget) {
    Objects.requireNonNull(budget, "budget");
    long ms = saturatedMillis(budget);
    if (ms < 1) {
      throw new IllegalArgumentException("budget must be at least 1 ms");
    }
    return ms;
  }

  private static long saturatedMillis(Duration d) {
    try {
      return d.toMillis();
    } catch (ArithmeticException tooLong) {
      return d.isNegative() ? Long.MIN_VALUE : Long.MAX_VALUE;
    }
  }
}
