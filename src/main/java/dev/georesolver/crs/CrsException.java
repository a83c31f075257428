package dev.georesolver.crs;

/**
 * A CRS that cannot be read or a point that cannot be transformed. A degradable failure of the rung
 * that produced it, counted against its breaker. Carries no stack trace: it is an expected outcome,
 * not a bug.
 */
public sealed class CrsException extends Exception permits CrsNotLoadedException {
  public CrsException(String message) {
    super(message, null, false, false);
  }
}
