package dev.georesolver.ingress;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.FieldProblem;
import dev.georesolver.bus.RequestValidator;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.chain.TraceIds;
import dev.georesolver.provider.Direction;
import io.vertx.core.Handler;
import io.vertx.core.MultiMap;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import dev.georesolver.metrics.Metrics;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.List;
import java.util.regex.Pattern;

/**
 * {@code GET|POST /v1/geocode} and {@code GET /v1/reverse}: validates the request, sends it to the
 * chain with its budget in {@link Addresses#DEADLINE_HEADER}, and writes the result. Knows nothing
 * of tiers.
 */
public final class GeocodeHandler implements Handler<RoutingContext> {

  /**
   * Extra time the ingress waits past the budget for the chain's reply. The chain answers by the
   * deadline itself (a refusal at worst); the grace only absorbs scheduling jitter, so a late reply
   * is still a real answer rather than a 504.
   */
  static final long GRACE_MS = 250;

  private static final Pattern TRACE = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private final EventBus bus;
  private final RequestValidator validator;
  private final Direction direction;

  private final Metrics metrics;

  public GeocodeHandler(EventBus bus, RequestValidator validator, Direction direction, Metrics metrics) {
    this.metrics = metrics;
    this.bus = bus;
    this.validator = validator;
    this.direction = direction;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String traceId = traceId(ctx);
    ctx.response().putHeader("X-Trace-Id", traceId);
    JsonObject fields;
    if (ctx.request().method() == HttpMethod.POST) {
      try {
        fields = ctx.body().asJsonObject();
      } catch (DecodeException | ClassCastException e) {
        fields = null;
      }
      if (fields == null) {
        reject(ctx, List.of(new FieldProblem("body", "must be a JSON object")), traceId);
        return;
      }
    } else {
      fields = fromQuery(ctx.queryParams());
      if (fields == null) {
        reject(ctx, List.of(repeated(ctx.queryParams())), traceId);
        return;
      }
    }
    RequestValidator.Validated v = validator.validate(fields, direction, ctx.request().getHeader("Request-Timeout"), traceId);
    if (!v.valid()) {
      reject(ctx, v.problems(), traceId);
      return;
    }
    DeliveryOptions o = new DeliveryOptions()
        .setSendTimeout(v.budgetMs() + GRACE_MS)
        .addHeader(Addresses.DEADLINE_HEADER, Long.toString(v.budgetMs()))
        .addHeader(Addresses.TRACE_HEADER, traceId);
    String address = direction == Direction.FORWARD ? Addresses.RESOLVE : Addresses.REVERSE;
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
    problems.forEach(p -> metrics.badRequest(p.field()));
    Problems.badRequest(ctx.response(), problems, traceId);
  }

  /** The query as request fields, or null when a field is repeated. */
  private static JsonObject fromQuery(MultiMap params) {
    JsonObject j = new JsonObject();
    for (String name : params.names()) {
      List<String> all = params.getAll(name);
      if (all.size() > 1) {
        return null;
      }
      j.put(name, all.get(0));
    }
    return j;
  }

  private static FieldProblem repeated(MultiMap params) {
    String name = params.names().stream().filter(n -> params.getAll(n).size() > 1).findFirst().orElse("query");
    return new FieldProblem(name, "is given more than once");
  }

  /** The caller's {@code X-Request-Id} or W3C {@code traceparent} trace id, else a new one. */
  static String traceId(RoutingContext ctx) {
    String rid = ctx.request().getHeader("X-Request-Id");
    if (rid != null && TRACE.matcher(rid).matches()) {
      return rid;
    }
    String tp = ctx.request().getHeader("traceparent");
    if (tp != null) {
      String[] parts = tp.split("-");
      if (parts.length >= 3 && parts[1].length() == 32 && TRACE.matcher(parts[1]).matches()) {
        return parts[1];
      }
    }
    return TraceIds.next();
  }
}
