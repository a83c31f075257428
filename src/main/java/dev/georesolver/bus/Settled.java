package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * What settling a leased item did.
 *
 * @param ok false when the lease was lost (another reconciler owns the item now): nothing changed
 * @param correction the correction appended to the outbox, with its cursor; null for other outcomes,
 *     and when this answer had been corrected already (no key is corrected twice for one answer)
 */
public record Settled(boolean ok, Correction correction) {

  /** The lease was lost. */
  public static final Settled LOST = new Settled(false, null);
  /** Done, nothing to publish. */
  public static final Settled OK = new Settled(true, null);

  public JsonObject toJson() {
    return new JsonObject().put("ok", ok).put("correction", correction == null ? null : correction.toJson());
  }

  public static Settled fromJson(JsonObject j) {
    JsonObject c = j.getJsonObject("correction");
    return new Settled(j.getBoolean("ok", false), c == null ? null : Correction.fromJson(c));
  }
}
