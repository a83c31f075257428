package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * One thing wrong with a request, naming the field.
 *
 * @param field the request field ({@code q}, {@code bbox}, {@code budget_ms}, …)
 * @param message what is wrong, in a sentence a caller can act on
 */
public record FieldProblem(String field, String message) {

  public JsonObject toJson() {
    return new JsonObject().put("field", field).put("message", message);
  }
}
