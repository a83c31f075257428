package dev.georesolver.trace;

import io.vertx.core.Handler;
import io.vertx.ext.web.RoutingContext;

import java.util.regex.Pattern;

/**
 * First on every resolving route ({@code /v1/*} and the compatible endpoints), before the tenant
 * guard: reads the caller's {@code traceparent}/{@code tracestate}, starts the request's server
 * span (tracing on) or keeps the caller's context (off), puts the trace id in {@code X-Trace-Id},
 * and ends the span when the response has been written, with {@code http.response.status_code},
 * {@code http.route} and the name {@code "<method> <route>"} (an unmatched path keeps the method
 * alone). Handlers behind it read the hop with {@link #hop}.
 */
public final class TraceHandler implements Handler<RoutingContext> {

  private static final String KEY = "georesolver.hop";
  private static final Pattern REQUEST_ID = Pattern.compile("[A-Za-z0-9._-]{1,64}");

  private final Tracing tracing;

  public TraceHandler(Tracing tracing) {
    this.tracing = tracing;
  }

  @Override
  public void handle(RoutingContext ctx) {
    Hop hop = Hop.server(tracing, ctx.request());
    ctx.put(KEY, hop);
    ctx.response().putHeader("X-Trace-Id", hop.traceId());
    if (hop.recording()) {
      String rid = ctx.request().getHeader("X-Request-Id");
      if (rid != null && REQUEST_ID.matcher(rid).matches()) {
        hop.set(io.opentelemetry.api.common.AttributeKey.stringKey("http.request.header.x-request-id"), rid);
      }
      ctx.addEndHandler(ar -> end(ctx, hop));
    }
    ctx.next();
  }

  private static void end(RoutingContext ctx, Hop hop) {
    int status = ctx.response().getStatusCode();
    hop.set(SpanNames.HTTP_RESPONSE_STATUS_CODE, status);
    String method = ctx.request().method().name();
    if (status != 404) {
      String path = ctx.request().path();
      hop.set(SpanNames.HTTP_ROUTE, path).rename(method + " " + path);
    }
    if (status >= 500) {
      hop.fail(Integer.toString(status));
    }
    hop.end();
  }

  /** The request's hop; a pass-through one made now if no trace handler ran before (a test's own router). */
  public static Hop hop(RoutingContext ctx) {
    Hop h = ctx.get(KEY);
    if (h == null) {
      h = Hop.server(Tracing.off(), ctx.request());
      ctx.put(KEY, h);
    }
    return h;
  }
}
