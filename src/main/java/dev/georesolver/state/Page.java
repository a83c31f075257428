package dev.georesolver.state;

import dev.georesolver.bus.Correction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * One page of the corrections outbox, oldest first.
 *
 * @param corrections the corrections, each with its cursor; unmodifiable
 * @param next the cursor to continue from (the last one's, or the one asked for when the page is empty)
 */
public record Page(List<Correction> corrections, String next) {

  public Page {
    corrections = List.copyOf(corrections);
  }

  /** {@code {"corrections": [...], "next": cursor}}. */
  public JsonObject toJson() {
    JsonArray a = new JsonArray();
    corrections.forEach(c -> a.add(c.toJson()));
    return new JsonObject().put("corrections", a).put("next", next);
  }
}
