package dev.georesolver.compat;

import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

/**
 * A dialect's parameters, translated: either the public request fields to validate and send
 * (exactly what a {@code /v1} caller would send for the same question), or an outcome known
 * without asking the chain (bad input, an empty query). Immutable apart from {@code fields}, which
 * the translator builds and nobody changes afterwards.
 *
 * @param direction forward or reverse
 * @param fields the request fields for {@link dev.georesolver.bus.RequestValidator}, or null
 * @param options how the dialect will render the answer
 * @param early the outcome when the chain is not to be asked, else null
 * @param <O> the dialect's rendering options
 */
public record Translation<O>(Direction direction, JsonObject fields, O options, Outcome early) {

  /** Ask the chain. */
  public static <O> Translation<O> ask(Direction direction, JsonObject fields, O options) {
    return new Translation<>(direction, fields, options, null);
  }

  /** Answer without asking. */
  public static <O> Translation<O> answer(Direction direction, Outcome early, O options) {
    return new Translation<>(direction, null, options, early);
  }

  /** Whether the chain is to be asked. */
  public boolean asks() {
    return early == null;
  }
}
