package dev.georesolver.support;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A stand-in OpenTelemetry collector: a real HTTP server on a free port taking OTLP/HTTP
 * {@code POST /v1/traces} in protobuf, decoded with the protocol's own generated classes. Keeps
 * every span with its resource's attributes, every request's content type, and every raw body.
 */
public final class OtlpCollector {

  /** One received span, its ids in hex and its attributes and resource as strings. */
  public record Received(String traceId, String spanId, String parentSpanId, String name, Span.SpanKind kind,
                         Map<String, String> attributes, Map<String, String> resource, int statusCode) {}

  private final List<Received> spans = Collections.synchronizedList(new ArrayList<>());
  private final List<String> contentTypes = Collections.synchronizedList(new ArrayList<>());
  private final List<byte[]> bodies = Collections.synchronizedList(new ArrayList<>());
  private HttpServer server;

  private OtlpCollector() {}

  /** Starts a collector on a free port. */
  public static Future<OtlpCollector> start(Vertx vertx) {
    OtlpCollector c = new OtlpCollector();
    return vertx.createHttpServer().requestHandler(c::handle).listen(0).map(s -> {
      c.server = s;
      return c;
    });
  }

  private void handle(HttpServerRequest req) {
    if (!req.path().equals("/v1/traces") || req.method().name().equals("GET")) {
      req.response().setStatusCode(404).end();
      return;
    }
    contentTypes.add(req.getHeader("content-type"));
    req.body().onSuccess(body -> {
      bodies.add(body.getBytes());
      try {
        keep(ExportTraceServiceRequest.parseFrom(body.getBytes()));
      } catch (InvalidProtocolBufferException e) {
        req.response().setStatusCode(400).end(e.getMessage());
        return;
      }
      req.response().putHeader("content-type", "application/x-protobuf")
          .end(Buffer.buffer(ExportTraceServiceResponse.getDefaultInstance().toByteArray()));
    });
  }

  private void keep(ExportTraceServiceRequest r) {
    HexFormat hex = HexFormat.of();
    for (ResourceSpans rs : r.getResourceSpansList()) {
      Map<String, String> resource = strings(rs.getResource().getAttributesList());
      for (ScopeSpans ss : rs.getScopeSpansList()) {
        for (Span s : ss.getSpansList()) {
          spans.add(new Received(hex.formatHex(s.getTraceId().toByteArray()), hex.formatHex(s.getSpanId().toByteArray()),
              hex.formatHex(s.getParentSpanId().toByteArray()), s.getName(), s.getKind(), strings(s.getAttributesList()),
              resource, s.getStatus().getCodeValue()));
        }
      }
    }
  }

  private static Map<String, String> strings(List<KeyValue> kvs) {
    return kvs.stream().collect(Collectors.toMap(KeyValue::getKey, kv -> text(kv.getValue()), (a, b) -> b));
  }

  private static String text(AnyValue v) {
    switch (v.getValueCase()) {
      case STRING_VALUE:
        return v.getStringValue();
      case INT_VALUE:
        return Long.toString(v.getIntValue());
      case BOOL_VALUE:
        return Boolean.toString(v.getBoolValue());
      case DOUBLE_VALUE:
        return Double.toString(v.getDoubleValue());
      default:
        return v.toString();
    }
  }

  /** The endpoint to put in {@code OTEL_EXPORTER_OTLP_ENDPOINT}. */
  public String endpoint() {
    return "http://localhost:" + server.actualPort();
  }

  /** Every span received so far. */
  public List<Received> spans() {
    synchronized (spans) {
      return List.copyOf(spans);
    }
  }

  /** The content type of every export request so far. */
  public List<String> contentTypes() {
    synchronized (contentTypes) {
      return List.copyOf(contentTypes);
    }
  }

  /** Every export request's body as received. */
  public List<byte[]> bodies() {
    synchronized (bodies) {
      return List.copyOf(bodies);
    }
  }
}
