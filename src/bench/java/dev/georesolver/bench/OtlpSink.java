package dev.georesolver.bench;

import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A local OTLP/HTTP trace sink for the tracing-on bench: accepts {@code POST /v1/traces} (any
 * body, read whole), answers 200 with an empty protobuf {@code ExportTraceServiceResponse} as a
 * collector does, and counts requests and bytes ({@code GET /_ctl/count} →
 * {@code {"requests", "bytes"}}), so the resolver's exporter does the work it does against a real
 * collector while the sink costs next to nothing.
 *
 * <p>{@code java -jar target/georesolver-bench.jar otlp-sink --port 4318}
 */
public final class OtlpSink {

  private OtlpSink() {}

  public static void main(String[] args) {
    Flags f = Flags.parse(args);
    int port = f.integer("port", 4318);
    AtomicLong requests = new AtomicLong();
    AtomicLong bytes = new AtomicLong();
    Vertx vertx = Vertx.vertx();
    vertx.createHttpServer()
        .requestHandler(req -> {
          if (req.path().equals("/_ctl/count")) {
            req.response().putHeader("content-type", "application/json")
                .end(new JsonObject().put("requests", requests.get()).put("bytes", bytes.get()).encode());
            return;
          }
          if (!req.path().equals("/v1/traces")) {
            req.response().setStatusCode(404).end();
            return;
          }
          req.body().onSuccess(b -> {
            requests.incrementAndGet();
            bytes.addAndGet(b.length());
            // An empty ExportTraceServiceResponse is zero bytes of protobuf.
            req.response().putHeader("content-type", "application/x-protobuf").end();
          });
        })
        .listen(port)
        .onSuccess(s -> System.out.println("otlp sink listening on " + s.actualPort()))
        .onFailure(t -> {
          t.printStackTrace();
          System.exit(1);
        });
  }
}
