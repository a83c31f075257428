package dev.georesolver.trace;

import dev.georesolver.bus.Addresses;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.vertx.core.MultiMap;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.http.HttpServerRequest;

import java.util.List;
import java.util.function.BiConsumer;

/**
 * One piece of a request's trace, as each part sees it: the span it records (when tracing is on)
 * and the W3C context it sends on — across the event bus in {@link Addresses#TRACEPARENT_HEADER}
 * and {@link Addresses#TRACESTATE_HEADER}, to a provider in {@code traceparent} and
 * {@code tracestate}.
 *
 * <p>With tracing off a hop holds no span: {@link #child} returns the hop itself, attribute setters
 * and {@link #end} do nothing, and the context sent on is the one that came in, unchanged (made,
 * with a new trace id, only at the HTTP ingress when the caller sent none). So the hot path costs
 * a header copied from message to message and nothing from the SDK.
 *
 * <p>The caller's {@code traceparent} and {@code tracestate} are untrusted: they are read by the
 * W3C propagator, which drops a malformed or all-zero one (then a new trace starts) and bounds
 * {@code tracestate}; only what it accepted is sent on, re-rendered.
 *
 * <p>Not thread-safe: a hop belongs to one request on one verticle's context.
 */
public final class Hop {

  private static final W3CTraceContextPropagator W3C = W3CTraceContextPropagator.getInstance();
  private static final String TRACEPARENT = "traceparent";
  private static final String TRACESTATE = "tracestate";

  private static final TextMapGetter<HttpServerRequest> HTTP = new Getter<>() {
    @Override
    public String get(HttpServerRequest carrier, String key) {
      return carrier == null ? null : carrier.getHeader(key);
    }
  };

  private static final TextMapGetter<MultiMap> BUS = new Getter<>() {
    @Override
    public String get(MultiMap carrier, String key) {
      return carrier == null ? null : carrier.get(key);
    }
  };

  /** The two W3C headers, as the propagator writes them. */
  private static final class Written implements TextMapSetter<Written> {
    String traceparent;
    String tracestate;

    @Override
    public void set(Written carrier, String key, String value) {
      if (TRACEPARENT.equals(key)) {
        carrier.traceparent = value;
      } else if (TRACESTATE.equals(key)) {
        carrier.tracestate = value;
      }
    }
  }

  private abstract static class Getter<C> implements TextMapGetter<C> {
    @Override
    public Iterable<String> keys(C carrier) {
      return List.of(TRACEPARENT, TRACESTATE);
    }
  }

  private final Tracer tracer;
  private final Span span;
  private final String traceId;
  private String traceparent;
  private String tracestate;

  private Hop(Tracer tracer, Span span, String traceId, String traceparent, String tracestate) {
    this.tracer = tracer;
    this.span = span;
    this.traceId = traceId;
    this.traceparent = traceparent;
    this.tracestate = tracestate;
  }

  /**
   * The server span of an HTTP request ({@code kind SERVER}, named by its method until
   * {@link #rename}d), child of the caller's {@code traceparent} when it sent a valid one, with
   * {@code http.request.method}, {@code url.path} and {@code url.scheme} — never the query, which
   * may hold a key. With tracing off, the caller's context (or a new one) to pass along.
   */
  public static Hop server(Tracing tracing, HttpServerRequest req) {
    if (!tracing.on()) {
      if (req.getHeader(TRACEPARENT) == null) {
        String id = TraceIds.next();
        return new Hop(null, null, id, "00-" + id + "-" + TraceIds.nextSpanId() + "-00", null);
      }
      return passedOn(W3C.extract(Context.root(), req, HTTP));
    }
    String method = req.method().name();
    Span span = tracing.tracer().spanBuilder(method)
        .setSpanKind(SpanKind.SERVER)
        .setParent(W3C.extract(Context.root(), req, HTTP))
        .setAttribute(SpanNames.HTTP_REQUEST_METHOD, method)
        .setAttribute(SpanNames.URL_PATH, bounded(req.path()))
        .setAttribute(SpanNames.URL_SCHEME, req.isSSL() ? "https" : "http")
        .startSpan();
    return traced(tracing.tracer(), span);
  }

  /**
   * The hop of a message that arrived on the event bus: with {@code spanName}, a new
   * {@code INTERNAL} span, child of the message's {@link Addresses#TRACEPARENT_HEADER} (a root span
   * without one); with {@code spanName} null, no span of its own — the message's context, for
   * {@link #child} spans. The trace id is {@link Addresses#TRACE_HEADER} when the sender gave one.
   */
  public static Hop fromBus(Tracing tracing, MultiMap headers, String spanName) {
    String named = headers.get(Addresses.TRACE_HEADER);
    if (!tracing.on()) {
      String tp = headers.get(Addresses.TRACEPARENT_HEADER);
      String id = named != null ? named : tp != null && tp.length() >= 35 ? tp.substring(3, 35) : TraceIds.next();
      return new Hop(null, null, id, tp, headers.get(Addresses.TRACESTATE_HEADER));
    }
    Context parent = W3C.extract(Context.root(), headers, BUS);
    Span span = spanName == null
        ? Span.fromContext(parent)
        : tracing.tracer().spanBuilder(spanName).setSpanKind(SpanKind.INTERNAL).setParent(parent).startSpan();
    String id = named != null ? named : span.getSpanContext().isValid() ? span.getSpanContext().getTraceId() : TraceIds.next();
    return new Hop(tracing.tracer(), span, id, null, null);
  }

  private static Hop traced(Tracer tracer, Span span) {
    return new Hop(tracer, span, span.getSpanContext().getTraceId(), null, null);
  }

  /** Tracing off, a caller's context: its trace id, sent on re-rendered; a new trace if it was not valid. */
  private static Hop passedOn(Context extracted) {
    SpanContext sc = Span.fromContext(extracted).getSpanContext();
    if (!sc.isValid()) {
      String id = TraceIds.next();
      return new Hop(null, null, id, "00-" + id + "-" + TraceIds.nextSpanId() + "-00", null);
    }
    Written w = new Written();
    W3C.inject(extracted, w, w);
    return new Hop(null, null, sc.getTraceId(), w.traceparent, w.tracestate);
  }

  /**
   * A child span of this one, of {@code kind}; this hop itself when tracing is off or this hop has
   * no context to be a child of.
   */
  public Hop child(String name, SpanKind kind) {
    if (tracer == null) {
      return this;
    }
    SpanBuilder b = tracer.spanBuilder(name).setSpanKind(kind).setParent(Context.root().with(span));
    return traced(tracer, b.startSpan());
  }

  /** Whether attributes set now are kept: tracing on and the span sampled. Compute costly values only then. */
  public boolean recording() {
    return span != null && span.isRecording();
  }

  /** The W3C trace id (or the id the sender named its work with). */
  public String traceId() {
    return traceId;
  }

  /** Sets a string attribute (nothing when null or not recording). */
  public Hop set(AttributeKey<String> key, String value) {
    if (value != null && recording()) {
      span.setAttribute(key, value);
    }
    return this;
  }

  /** Sets a number attribute. */
  public Hop set(AttributeKey<Long> key, long value) {
    if (recording()) {
      span.setAttribute(key, value);
    }
    return this;
  }

  /** Sets a boolean attribute. */
  public Hop set(AttributeKey<Boolean> key, boolean value) {
    if (recording()) {
      span.setAttribute(key, value);
    }
    return this;
  }

  /** Renames the span (an HTTP span once its route or method is known). */
  public Hop rename(String name) {
    if (recording()) {
      span.updateName(name);
    }
    return this;
  }

  /** Marks the span failed: status ERROR and {@code error.type} {@code errorType}. */
  public Hop fail(String errorType) {
    if (recording()) {
      span.setAttribute(SpanNames.ERROR_TYPE, errorType);
      span.setStatus(StatusCode.ERROR);
    }
    return this;
  }

  /** Ends the span; nothing when there is none. Idempotent, as the SDK's end is. */
  public void end() {
    if (span != null && tracer != null) {
      span.end();
    }
  }

  /** Puts the context to send on into event-bus delivery options. */
  public DeliveryOptions onto(DeliveryOptions o) {
    headers(o::addHeader);
    return o;
  }

  /** Hands the context to send on, {@code traceparent} then {@code tracestate} when there is one. */
  public void headers(BiConsumer<String, String> put) {
    if (tracer != null && traceparent == null) {
      Written w = new Written();
      W3C.inject(Context.root().with(span), w, w);
      traceparent = w.traceparent;
      tracestate = w.tracestate;
    }
    if (traceparent != null) {
      put.accept(TRACEPARENT, traceparent);
      if (tracestate != null && !tracestate.isEmpty()) {
        put.accept(TRACESTATE, tracestate);
      }
    }
  }

  private static String bounded(String s) {
    return s == null || s.length() <= 256 ? s : s.substring(0, 256);
  }
}
