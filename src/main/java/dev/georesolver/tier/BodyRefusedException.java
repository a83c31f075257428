package dev.georesolver.tier;

/**
 * A provider's body was refused while it was read: more bytes than the cap (on the wire or once
 * inflated), an encoding we do not read, or a compressed stream that does not decode. A degradable
 * failure of the attempt, counted against the tier's breaker; the request is reset. Its message
 * names the reason, never the body. No stack trace: an expected outcome.
 */
final class BodyRefusedException extends Exception {

  BodyRefusedException(String message) {
    super(message, null, false, false);
  }
}
