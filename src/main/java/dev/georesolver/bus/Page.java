package dev.georesolver.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * One page of the corrections outbox, oldest first.
 *
 * @param corrections the corrections' JSON ({@link dev.georesolver.bus.Correction}), each with its
 *     {@code cursor}, as stored: read pages are relayed, never decoded into records; unmodifiable
 * @param next the cursor to continue from (the last one's, or the one asked for when the page is empty)
 */
public record Page(List<JsonObject> corrections, String next) {

  public Page {
    corrections = List.copyOf(corrections);
  }

  /** {@code {"corrections": [...], "next": cursor}}. */
  public JsonObject toJson() {
    JsonArray a = new JsonArray();
    corrections.forEach(a::add);
    return new JsonObject().put("corrections", a).put("next", next);
  }
}
