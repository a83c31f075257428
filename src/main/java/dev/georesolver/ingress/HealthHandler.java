package dev.georesolver.ingress;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code GET /health/ready}: asks the chain ({@link Addresses#HEALTH}) for tier breaker states and
 * store reachability. 200 when at least one rung can be called, else 503; the store being down is
 * reported but does not make the resolver unready (it keeps answering without replay).
 */
public final class HealthHandler implements Handler<RoutingContext> {

  private final EventBus bus;
  private final long timeoutMs;

  /** @param timeoutMs how long the chain's health answer is waited for, milliseconds */
  public HealthHandler(EventBus bus, long timeoutMs) {
    this.bus = bus;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public void handle(RoutingContext ctx) {
    bus.<JsonObject>request(Addresses.HEALTH, "", Node.of(ctx.vertx()).to(Addresses.HEALTH).setSendTimeout(timeoutMs))
        .map(Message::body)
        .onSuccess(h -> ctx.response()
            .setStatusCode(h.getBoolean("ready", false) ? 200 : 503)
            .putHeader("content-type", "application/json")
            .end(h.toBuffer()))
        .onFailure(t -> ctx.response()
            .setStatusCode(503)
            .putHeader("content-type", "application/json")
            .end(new JsonObject().put("ready", false).put("detail", "router did not answer: " + t.getMessage()).toBuffer()));
  }
}
