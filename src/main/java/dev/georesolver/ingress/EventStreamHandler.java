package dev.georesolver.ingress;

import dev.georesolver.web.Problems;
import dev.georesolver.bus.Addresses;
import dev.georesolver.web.Revocations;
import dev.georesolver.web.TenantAuth;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;

import java.util.regex.Pattern;

/**
 * {@code GET /admin/events}: the operator's feed as Server-Sent Events. On connect, one
 * {@code hello} event with the whole picture ({@link Addresses#OPS_STATE}); then every event the ops
 * verticle publishes on {@link Addresses#OPS_EVENTS}, named by its {@code type} ({@code snapshot}
 * once a second, {@code breaker}, {@code reconcile}, {@code correction}, {@code reload},
 * {@code shadow}), its JSON on one {@code data:} line. A client that reconnects gets a new
 * {@code hello}, so no event id is kept.
 *
 * <p>A client that does not keep up misses events rather than growing a queue (each snapshot is
 * whole, so the next one repairs it). At most {@code maxStreams} streams per ingress instance; more
 * are answered 503. A stream ends when a reload revokes the key it was opened with
 * ({@link TenantAuth#watch}). Confined to its ingress instance's event loop.
 */
final class EventStreamHandler {

  /** Streams one ingress instance serves at once, by default. */
  static final int DEFAULT_MAX_STREAMS = 32;
  /** What a browser waits before reconnecting, milliseconds (the stream's {@code retry:} field). */
  static final long RETRY_MS = 2000;

  private static final Pattern EVENT_NAME = Pattern.compile("[a-z_]{1,32}");

  private final EventBus bus;
  private final long timeoutMs;
  private final int maxStreams;
  private int open;

  /**
   * @param timeoutMs how long the ops verticle's picture is waited for, milliseconds
   * @param maxStreams streams served at once by this handler
   */
  EventStreamHandler(EventBus bus, long timeoutMs, int maxStreams) {
    this.bus = bus;
    this.timeoutMs = timeoutMs;
    this.maxStreams = maxStreams;
  }

  /** Serves one stream, admitted by {@code auth}'s admin guard. */
  void serve(RoutingContext ctx, TenantAuth auth) {
    if (open >= maxStreams) {
      Problems.eventsUnavailable(ctx.response(), "at most " + maxStreams + " event streams at once");
      return;
    }
    HttpServerResponse resp = ctx.response();
    bus.<JsonObject>request(Addresses.OPS_STATE, "", new DeliveryOptions().setSendTimeout(timeoutMs))
        .map(Message::body)
        .onSuccess(hello -> stream(ctx, auth, resp, hello))
        .onFailure(t -> Problems.eventsUnavailable(resp, "the ops verticle did not answer: " + t.getMessage()));
  }

  private void stream(RoutingContext ctx, TenantAuth auth, HttpServerResponse resp, JsonObject hello) {
    if (resp.closed()) {
      return;
    }
    if (open >= maxStreams) {
      Problems.eventsUnavailable(resp, "at most " + maxStreams + " event streams at once");
      return;
    }
    open++;
    resp.setChunked(true)
        .putHeader("content-type", "text/event-stream; charset=utf-8")
        .putHeader("cache-control", "no-store")
        // Not compressed: a compressor may hold small events back until it has a block to send.
        .putHeader("content-encoding", "identity")
        .putHeader("x-accel-buffering", "no");
    resp.write(Buffer.buffer("retry: " + RETRY_MS + "\n\n").appendBuffer(frame(hello)));
    MessageConsumer<Object> events = bus.localConsumer(Addresses.OPS_EVENTS, m -> {
      if (m.body() instanceof JsonObject e && !resp.writeQueueFull()) {
        resp.write(frame(e));
      }
    });
    boolean[] ended = {false};
    Revocations.Watch[] watch = {null};
    Runnable finish = () -> {
      if (!ended[0]) {
        ended[0] = true;
        open--;
        events.unregister();
        watch[0].close();
      }
    };
    watch[0] = auth.watch(ctx, true, () -> {
      finish.run();
      if (!resp.ended()) {
        resp.end();
      }
    });
    resp.closeHandler(v -> finish.run());
  }

  /** One event: {@code event: <type>} and its JSON on one {@code data:} line (JSON escapes line breaks). */
  static Buffer frame(JsonObject e) {
    Object type = e.getValue("type");
    String name = type instanceof String s && EVENT_NAME.matcher(s).matches() ? s : "message";
    return Buffer.buffer("event: " + name + "\ndata: ").appendBuffer(e.toBuffer()).appendString("\n\n");
  }
}
