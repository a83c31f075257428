package dev.georesolver.state;

/**
 * The durable store cannot be opened as configured — its file is not a database, is locked by
 * another process, its directory cannot be made, or the Redis it needs is not given. Start-up stops
 * with this message (exit status 2, like an invalid manifest). No stack trace: the message says it all.
 */
public final class StateStoreException extends RuntimeException {

  public StateStoreException(String message) {
    super(message, null, false, false);
  }

  public StateStoreException(String message, Throwable cause) {
    super(message, cause, false, false);
  }
}
