package dev.georesolver.web;

import dev.georesolver.bus.FieldProblem;
import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A request's fields as decoded from its query or its body, before they are validated; or what
 * kept them from being decoded.
 *
 * @param fields each name with its value, in the order given; empty when there are problems
 * @param problems what could not be decoded, each naming its field; empty when decoding succeeded
 */
public record RequestFields(JsonObject fields, List<FieldProblem> problems) {

  /** Fields that could not be decoded. */
  public static RequestFields invalid(List<FieldProblem> problems) {
    return new RequestFields(new JsonObject(), List.copyOf(problems));
  }

  /** One thing that kept the fields from being decoded. */
  public static RequestFields invalid(String field, String message) {
    return invalid(List.of(new FieldProblem(field, message)));
  }
}
