package dev.georesolver.support;

import io.vertx.core.Future;
import io.vertx.core.MultiMap;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * A real HTTP server standing in for a provider, answering in the provider's own format, with faults
 * injected at the HTTP boundary: delays, hangs, resets, any status, malformed bodies. Every request
 * is recorded (path, query, headers) so tests can assert what the provider saw.
 */
public final class FakeProvider {

  /** What to do with one request. */
  public sealed interface Behaviour {}

  /** Answer with a status, headers and body, after a delay. */
  public record Respond(int status, String body, MultiMap headers, long delayMs) implements Behaviour {}

  /** Never answer (until the client gives up). */
  public record Hang() implements Behaviour {}

  /** Close the connection without answering. */
  public record Reset() implements Behaviour {}

  /** A request as the provider saw it. */
  public record Seen(String path, MultiMap query, MultiMap headers) {}

  private final Vertx vertx;
  private final List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger count = new AtomicInteger();
  private final ConcurrentLinkedQueue<Behaviour> script = new ConcurrentLinkedQueue<>();
  private volatile Function<HttpServerRequest, Behaviour> fallback;
  private HttpServer server;

  private FakeProvider(Vertx vertx, Function<HttpServerRequest, Behaviour> fallback) {
    this.vertx = vertx;
    this.fallback = fallback;
  }

  /** Starts a provider on a free port answering with {@code behaviour} for every request. */
  public static Future<FakeProvider> start(Vertx vertx, Function<HttpServerRequest, Behaviour> behaviour) {
    FakeProvider p = new FakeProvider(vertx, behaviour);
    return vertx.createHttpServer().requestHandler(p::handle).listen(0).map(s -> {
      p.server = s;
      return p;
    });
  }

  /** Starts a provider that always answers {@code behaviour}. */
  public static Future<FakeProvider> start(Vertx vertx, Behaviour behaviour) {
    return start(vertx, r -> behaviour);
  }

  /** 200 with a JSON body. */
  public static Respond json(JsonObject body) {
    return new Respond(200, body.encode(), MultiMap.caseInsensitiveMultiMap().add("content-type", "application/json"), 0);
  }

  /** 200 with a JSON body after a delay. */
  public static Respond json(JsonObject body, long delayMs) {
    return new Respond(200, body.encode(), MultiMap.caseInsensitiveMultiMap().add("content-type", "application/json"), delayMs);
  }

  /** A status with a text body. */
  public static Respond status(int status, String body) {
    return new Respond(status, body, MultiMap.caseInsensitiveMultiMap(), 0);
  }

  /** A status with one header. */
  public static Respond status(int status, String header, String value) {
    return new Respond(status, "", MultiMap.caseInsensitiveMultiMap().add(header, value), 0);
  }

  /** The generic contract's answer. */
  public static JsonObject generic(double x, double y, String crs, double confidence) {
    return new JsonObject().put("x", x).put("y", y).put("crs", crs).put("confidence", confidence);
  }

  /** Replaces the behaviour for every later request. */
  public void behave(Function<HttpServerRequest, Behaviour> b) {
    this.fallback = b;
  }

  /** Replaces the behaviour for every later request. */
  public void behave(Behaviour b) {
    this.fallback = r -> b;
  }

  /** Queues behaviours for the next requests, before the standing one applies again. */
  public void then(Behaviour... next) {
    script.addAll(List.of(next));
  }

  private void handle(HttpServerRequest req) {
    count.incrementAndGet();
    seen.add(new Seen(req.path(), MultiMap.caseInsensitiveMultiMap().addAll(req.params()),
        MultiMap.caseInsensitiveMultiMap().addAll(req.headers())));
    Behaviour b = script.poll();
    if (b == null) {
      b = fallback.apply(req);
    }
    if (b instanceof Hang) {
      return;
    }
    if (b instanceof Reset) {
      req.connection().close();
      return;
    }
    Respond r = (Respond) b;
    Runnable answer = () -> {
      if (req.response().closed()) {
        return;
      }
      req.response().setStatusCode(r.status()).headers().addAll(r.headers());
      req.response().end(r.body());
    };
    if (r.delayMs() > 0) {
      vertx.setTimer(r.delayMs(), id -> answer.run());
    } else {
      answer.run();
    }
  }

  /** The base URL, e.g. {@code http://localhost:1234}. */
  public String url() {
    return "http://localhost:" + server.actualPort();
  }

  /** Requests received so far. */
  public int count() {
    return count.get();
  }

  /** Every request received so far. */
  public List<Seen> seen() {
    synchronized (seen) {
      return List.copyOf(seen);
    }
  }

  /** Forgets what was seen. */
  public void resetCount() {
    count.set(0);
    seen.clear();
  }
}
