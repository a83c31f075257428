package dev.georesolver.ingress;

import dev.georesolver.web.Problems;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import dev.georesolver.bus.TierAction;
import dev.georesolver.config.TierConfig;
import io.vertx.core.Handler;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

/**
 * {@code POST /admin/tiers/{name}/force-open | force-closed | release}: sends the command to the
 * tier's control address ({@link Addresses#tierControl}); the tier applies it to its own breaker.
 * 200 with the tier's status after the command ({@code {"tier", "adapter", "claim", "state",
 * "typical_ms"}}); 404 problem {@code unknown_tier} when no tier of that name runs (the running
 * tiers are whoever listens, so the answer follows the ladder actually deployed). A request body,
 * if any, is ignored.
 */
final class TierControlHandler implements Handler<RoutingContext> {

  private final EventBus bus;
  private final TierAction action;
  private final long timeoutMs;

  /** @param timeoutMs how long the tier's answer is waited for, milliseconds */
  TierControlHandler(EventBus bus, TierAction action, long timeoutMs) {
    this.bus = bus;
    this.action = action;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String name = ctx.pathParam("name");
    if (!TierConfig.isName(name)) {
      Problems.unknownTier(ctx.response(), name);
      return;
    }
    bus.<JsonObject>request(Addresses.tierControl(name), action.toJson(), Node.of(ctx.vertx()).to(Addresses.tierControl(name)).setSendTimeout(timeoutMs))
        .map(Message::body)
        .onSuccess(status -> ctx.response().putHeader("content-type", "application/json").end(status.toBuffer()))
        .onFailure(t -> Problems.tierCommandFailed(ctx.response(), name, t));
  }
}
