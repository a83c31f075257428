package dev.georesolver.shadow;

/**
 * Stored or received shadow figures that cannot be read: a wrong version, a truncated or oversized
 * input, a count out of bounds, figures that contradict each other. The message names the problem
 * (and the field, where there is one) and never quotes the input.
 */
public final class ShadowFormatException extends IllegalArgumentException {

  /** @param problem what is wrong, naming the field */
  public ShadowFormatException(String problem) {
    super(problem);
  }
}
