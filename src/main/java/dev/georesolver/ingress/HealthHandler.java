package dev.georesolver.ingress;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import dev.georesolver.web.TenantAuth;

/**
 * {@code GET /health/ready}: asks the chain ({@link Addresses#HEALTH}) for tier breaker states and
 * store reachability. 200 when at least one rung can be called, else 503; the store being down is
 * reported but does not make the resolver unready (it keeps answering without replay).
 *
 * <p>The status is open to anyone ({@code {"ready": bool}} and the code); the detail (tiers, the
 * state file's path and disk, reload problems, tenant ids) only to an operator: an admin key once
 * tenants exist, a local caller without tenants ({@link TenantAuth#operator}).
 */
public final class HealthHandler implements Handler<RoutingContext> {

  private final EventBus bus;
  private final long timeoutMs;
  private final TenantAuth auth;

  /**
   * @param timeoutMs how long the chain's health answer is waited for, milliseconds
   * @param auth decides who sees the detail
   */
  public HealthHandler(EventBus bus, long timeoutMs, TenantAuth auth) {
    this.bus = bus;
    this.timeoutMs = timeoutMs;
    this.auth = auth;
  }

  @Override
  public void handle(RoutingContext ctx) {
    boolean detail = auth.operator(ctx);
    bus.<JsonObject>request(Addresses.HEALTH, "", Node.of(ctx.vertx()).to(Addresses.HEALTH).setSendTimeout(timeoutMs))
        .map(Message::body)
        .onSuccess(h -> ctx.response()
            .setStatusCode(h.getBoolean("ready", false) ? 200 : 503)
            .putHeader("content-type", "application/json")
            .end((detail ? h : new JsonObject().put("ready", h.getBoolean("ready", false))).toBuffer()))
        .onFailure(t -> ctx.response()
            .setStatusCode(503)
            .putHeader("content-type", "application/json")
            .end((detail ? new JsonObject().put("ready", false).put("detail", "router did not answer: " + t.getMessage())
                : new JsonObject().put("ready", false)).toBuffer()));
  }
}
