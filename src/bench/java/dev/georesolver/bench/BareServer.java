package dev.georesolver.bench;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VerticleBase;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServerOptions;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The replay baseline: a bare Vert.x HTTP server (no router, no event bus) answering every request
 * with the bytes of a recorded resolver answer, the same headers (content type and an
 * {@code X-Trace-Id} of the same length) and the same server options as the resolver's ingress.
 * Same JSON, same size: the difference to a replay is everything the resolver does per request.
 *
 * <p>{@code java -jar target/georesolver-bench.jar bare --port 18092 --body answer.json}
 */
public final class BareServer extends VerticleBase {

  private final int port;
  private final Buffer body;
  private final String traceId;

  BareServer(int port, Buffer body, String traceId) {
    this.port = port;
    this.body = body;
    this.traceId = traceId;
  }

  public static void main(String[] args) throws Exception {
    Flags f = Flags.parse(args);
    int port = f.integer("port", 18092);
    Buffer body = Buffer.buffer(Files.readAllBytes(Path.of(f.required("body"))));
    String traceId = f.get("trace-id", "0123456789abcdef0123456789abcdef");
    int instances = f.integer("instances", Runtime.getRuntime().availableProcessors());
    Vertx vertx = Vertx.vertx();
    vertx.deployVerticle(() -> new BareServer(port, body, traceId), new DeploymentOptions().setInstances(instances))
        .onSuccess(id -> System.out.println("bare endpoint listening on " + port + " (" + body.length() + " bytes)"))
        .onFailure(t -> {
          t.printStackTrace();
          System.exit(1);
        });
  }

  @Override
  public Future<?> start() {
    return vertx.createHttpServer(new HttpServerOptions().setTcpNoDelay(true).setCompressionSupported(true))
        .requestHandler(req -> req.response()
            .putHeader("X-Trace-Id", traceId)
            .putHeader("content-type", "application/json")
            .end(body))
        .listen(port);
  }
}
