package dev.georesolver.tier;

/** One attempt ran past its total timeout; the request was reset. No stack trace: expected. */
public final class AttemptTimeoutException extends RuntimeException {
  public AttemptTimeoutException(long timeoutMs) {
    super("attempt timed out after " + timeoutMs + " ms", null, false, false);
  }
}
