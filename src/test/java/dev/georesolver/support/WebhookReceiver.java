package dev.georesolver.support;

import dev.georesolver.corrections.Signature;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A real HTTP server standing in for a consumer's webhook: records every POST (body, signature,
 * whether the signature verifies with the shared secret) and answers 200, or {@code failNext}
 * times 503 first, as a consumer that is down would.
 */
public final class WebhookReceiver {

  /** One delivery as the consumer saw it. */
  public record Delivery(JsonObject body, String signature, boolean verified) {}

  private final String secret;
  private final List<Delivery> deliveries = Collections.synchronizedList(new ArrayList<>());
  private final AtomicInteger failNext = new AtomicInteger();
  private final AtomicInteger refused = new AtomicInteger();
  private HttpServer server;

  private WebhookReceiver(String secret) {
    this.secret = secret;
  }

  /** Starts a receiver on a free port checking signatures with {@code secret}. */
  public static Future<WebhookReceiver> start(Vertx vertx, String secret) {
    WebhookReceiver w = new WebhookReceiver(secret);
    return vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
      if (w.failNext.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
        w.refused.incrementAndGet();
        req.response().setStatusCode(503).end();
        return;
      }
      String sig = req.getHeader(Signature.HEADER);
      w.deliveries.add(new Delivery(b.toJsonObject(), sig, Signature.verify(w.secret, req.getHeader(Signature.TIMESTAMP_HEADER),
          b.getBytes(), sig, System.currentTimeMillis() / 1000, Signature.DEFAULT_WINDOW_S)));
      req.response().setStatusCode(200).end();
    })).listen(0).map(s -> {
      w.server = s;
      return w;
    });
  }

  /** Answers the next {@code n} deliveries with 503. */
  public void failNext(int n) {
    failNext.set(n);
  }

  /** Deliveries answered 503. */
  public int refused() {
    return refused.get();
  }

  /** The URL to configure. */
  public String url() {
    return "http://127.0.0.1:" + server.actualPort() + "/hooks/geo";
  }

  /** Every delivery accepted so far. */
  public List<Delivery> deliveries() {
    synchronized (deliveries) {
      return List.copyOf(deliveries);
    }
  }
}
