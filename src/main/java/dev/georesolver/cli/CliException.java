package dev.georesolver.cli;

/** Stops a command with an exit status of {@link Exit} and a message for standard error. Cheap: no stack trace. */
final class CliException extends Exception {

  private final int status;

  CliException(int status, String message) {
    super(message, null, false, false);
    this.status = status;
  }

  /** The exit status. */
  int status() {
    return status;
  }
}
