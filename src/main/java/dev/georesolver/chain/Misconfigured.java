package dev.georesolver.chain;

/** No rung is left for this request's intent and direction once the ladder is trimmed. */
final class Misconfigured extends RuntimeException {
  Misconfigured(String message) {
    super(message, null, false, false);
  }
}
