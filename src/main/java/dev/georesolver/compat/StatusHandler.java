package dev.georesolver.compat;

import dev.georesolver.trace.TraceHandler;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Node;
import io.vertx.core.Handler;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.Map;

/**
 * Nominatim's {@code /status}: readiness from {@link Addresses#HEALTH} (ready when at least one rung
 * can be called). {@code format=text} (the default) answers {@code OK} with 200, else
 * {@code ERROR: …} with 500; {@code format=json} always answers 200 with
 * {@code {"status":0,"message":"OK","software_version":"georesolver","database_version":<manifest revision>}}
 * or {@code {"status":700,"message":"…"}}, as Nominatim does.
 */
public final class StatusHandler implements Handler<RoutingContext> {

  /** The status number of a resolver that cannot answer (Nominatim's "no database"). */
  public static final int NOT_READY = 700;

  private final EventBus bus;
  private final long timeoutMs;

  /** @param timeoutMs how long the chain's health answer is waited for, milliseconds */
  public StatusHandler(EventBus bus, long timeoutMs) {
    this.bus = bus;
    this.timeoutMs = timeoutMs;
  }

  @Override
  public void handle(RoutingContext ctx) {
    String format = ctx.queryParams().get("format");
    boolean json = format != null && format.strip().equalsIgnoreCase("json");
    String traceId = TraceHandler.hop(ctx).traceId();
    if (format != null && !json && !format.strip().equalsIgnoreCase("text")) {
      String message = "Parameter 'format' must be one of: text, json.";
      CompatHandler.write(ctx.response(), NominatimShapes.error(400, message, Map.of()), null, message, traceId);
      return;
    }
    bus.<JsonObject>request(Addresses.HEALTH, "", Node.of(ctx.vertx()).to(Addresses.HEALTH).setSendTimeout(timeoutMs))
        .map(Message::body)
        .otherwise(t -> new JsonObject().put("ready", false))
        .onSuccess(h -> {
          boolean ready = h.getBoolean("ready", false);
          CompatHandler.write(ctx.response(), render(ready, h.getString("manifest_revision"), json), null,
              ready ? "Ready: at least one rung can be called." : "No rung can be called.", traceId);
        });
  }

  /** The status answer. Pure. */
  public static Rendered render(boolean ready, String manifestRevision, boolean json) {
    if (!json) {
      return ready
          ? new Rendered(200, Rendered.TEXT, Buffer.buffer("OK"), Map.of())
          : new Rendered(500, Rendered.TEXT, Buffer.buffer("ERROR: No rung can be called"), Map.of());
    }
    JsonObject body = ready
        ? new JsonObject().put("status", 0).put("message", "OK").put("software_version", "georesolver")
            .put("database_version", manifestRevision)
        : new JsonObject().put("status", NOT_READY).put("message", "No rung can be called");
    return Rendered.json(200, body.toBuffer());
  }
}
