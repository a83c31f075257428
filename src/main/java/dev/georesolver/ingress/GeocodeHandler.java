package dev.georesolver.ingress;

import dev.georesolver.web.RequestFields;
import dev.georesolver.web.QueryString;
import dev.georesolver.web.RejectedRequest;
import dev.georesolver.web.Problems;
import dev.georesolver.web.TenantAuth;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.trace.Hop;
import dev.georesolver.trace.TraceHandler;
import dev.georesolver.geo.Direction;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import dev.georesolver.metrics.Metrics;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.ext.web.RoutingContext;

import java.util.List;

/**
 * {@code GET|POST /v1/geocode} and {@code GET /v1/reverse}: decodes the request strictly (the query
 * by {@link QueryString}, a body by {@link JsonBody}), validates it, checks that the tenant admitted
 * by the {@link TenantAuth} in front of it may use the intent, sends it to the chain with its budget
 * in {@link Addresses#DEADLINE_HEADER} and the tenant in {@link Addresses#TENANT_HEADER}, and writes
 * the result. Knows nothing of tiers.
 */
public final class GeocodeHandler implements Handler<RoutingContext> {

  private final EventBus bus;
  private final RequestValidator validator;
  private final Direction direction;
  private final Metrics metrics;
  private final long maxBodyBytes;
  private final long graceMs;
  private final TenantAuth auth;

  /**
   * @param maxBodyBytes the largest POST body read, bytes
   * @param graceMs how long past the budget the chain's reply is waited for (the chain answers by
   *     the deadline itself; the grace only absorbs scheduling jitter, so a late reply is still a
   *     real answer rather than a 504)
   * @param auth the guard in front of this route, which admitted the request's tenant
   */
  public GeocodeHandler(EventBus bus, RequestValidator validator, Direction direction, Metrics metrics, long maxBodyBytes,
      long graceMs, TenantAuth auth) {
    this.auth = auth;
    this.graceMs = graceMs;
    this.metrics = metrics;
    this.bus = bus;
    this.validator = validator;
    this.direction = direction;
    this.maxBodyBytes = maxBodyBytes;
  }

  @Override
  public void handle(RoutingContext ctx) {
    Hop hop = TraceHandler.hop(ctx);
    String traceId = hop.traceId();
    HttpServerRequest req = ctx.request();
    if (req.method() == HttpMethod.POST) {
      JsonBody.read(req, maxBodyBytes)
          .map(JsonBody::parse)
          .onSuccess(fields -> resolve(ctx, fields, hop))
          .onFailure(t -> {
            if (t instanceof RejectedRequest r) {
              count(r);
            }
            Problems.fail(req, t, traceId);
          });
    } else {
      resolve(ctx, QueryString.parse(req.query()), hop);
    }
  }

  private void resolve(RoutingContext ctx, RequestFields fields, Hop hop) {
    String traceId = hop.traceId();
    if (!fields.problems().isEmpty()) {
      reject(ctx, fields.problems(), traceId);
      return;
    }
    RequestValidator.Validated v = validator.validate(fields.fields(), direction, ctx.request().getHeader("Request-Timeout"), traceId);
    if (!v.valid()) {
      reject(ctx, v.problems(), traceId);
      return;
    }
    if (!auth.permits(ctx, v.request().intent(), traceId)) {
      return;
    }
    String address = direction == Direction.FORWARD ? Addresses.RESOLVE : Addresses.REVERSE;
    DeliveryOptions o = Node.of(ctx.vertx()).to(address)
        .setSendTimeout(v.budgetMs() + graceMs)
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(v.budgetMs()))
        .addHeader(Addresses.TRACE_HEADER, traceId)
        .addHeader(Addresses.TENANT_HEADER, auth.tenant(ctx).id());
    hop.onto(o);
    bus.<ResolveReply>request(address, v.request(), o)
        .map(Message::body)
        .onSuccess(r -> {
          if (!ctx.response().ended()) {
            ctx.response().putHeader("content-type", "application/json").end(r.toBuffer());
          }
        })
        .onFailure(t -> {
          if (t instanceof ReplyException re && re.failureType() == ReplyFailure.TIMEOUT) {
            metrics.routerError("router_timeout");
          }
          Problems.fail(ctx.response(), t, traceId);
        });
  }

  private void reject(RoutingContext ctx, List<FieldProblem> problems, String traceId) {
    problems.stream().limit(RequestValidator.MAX_REPORTED_PROBLEMS).forEach(p -> metrics.badRequest(p.field()));
    Problems.badRequest(ctx.response(), problems, traceId);
  }

  private void count(RejectedRequest r) {
    if (r.reason() != null) {
      metrics.httpRejected(r.reason());
    } else {
      metrics.badRequest(r.field());
    }
  }
}
