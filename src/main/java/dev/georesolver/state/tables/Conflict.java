package dev.georesolver.state.tables;

/**
 * A transaction lost a race: a row it read, or the log it appended to, changed before it committed.
 * {@link Tables#transact} runs the transaction again; this leaves it only after
 * {@link Tables#MAX_ATTEMPTS} attempts. Cheap: no stack trace.
 */
public final class Conflict extends RuntimeException {
  public Conflict(String message) {
    super(message, null, false, false);
  }
}
