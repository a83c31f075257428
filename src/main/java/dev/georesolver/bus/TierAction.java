package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

import java.util.Optional;

/**
 * An operator's command to one tier's breaker, sent on {@link Addresses#tierControl} as
 * {@code {"action": "force_open" | "force_closed" | "release"}}; over HTTP, the last path segment of
 * {@code POST /admin/tiers/{name}/force-open | force-closed | release}.
 */
public enum TierAction {
  /** Hold the breaker open until released: the rung is never called. */
  FORCE_OPEN("force_open"),
  /** Hold the breaker closed until released: the rung is always called, its failures not counted. */
  FORCE_CLOSED("force_closed"),
  /** End a forced state: the breaker closes with a clean window. */
  RELEASE("release");

  private final String wire;

  TierAction(String wire) {
    this.wire = wire;
  }

  /** The name in the message body. */
  public String wire() {
    return wire;
  }

  /** The name as the last segment of its HTTP route ({@code force-open}). */
  public String pathSegment() {
    return wire.replace('_', '-');
  }

  /** The message body. */
  public JsonObject toJson() {
    return new JsonObject().put("action", wire);
  }

  /** The action a message body names, if it names one; anything else (not JSON, no action) is empty. */
  public static Optional<TierAction> fromBody(Object body) {
    if (body instanceof JsonObject json && json.getValue("action") instanceof String a) {
      for (TierAction t : values()) {
        if (t.wire.equals(a)) {
          return Optional.of(t);
        }
      }
    }
    return Optional.empty();
  }
}
