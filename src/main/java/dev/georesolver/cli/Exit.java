package dev.georesolver.cli;

/**
 * Exit statuses of the command line, the same for every command.
 *
 * <table>
 *   <caption>exit statuses</caption>
 *   <tr><td>{@value #OK}</td><td>resolved; every batch row resolved; the manifest is valid</td></tr>
 *   <tr><td>{@value #NOT_RESOLVED}</td><td>refused (no rung could answer); some batch rows refused, invalid or failed; a
 *       {@code validate --simulate} case broke the budget, replay idempotency or residency</td></tr>
 *   <tr><td>{@value #USAGE}</td><td>bad flags, an invalid manifest, an unreadable or unrecognised input file, a request the
 *       resolver rejects as invalid, a key the server refuses</td></tr>
 *   <tr><td>{@value #UNAVAILABLE}</td><td>no answer could be had: the server unreachable or failing, the ladder unable to
 *       serve the intent, the resolver's own error</td></tr>
 *   <tr><td>{@value #INTERRUPTED}</td><td>interrupted (Ctrl-C, 128 + SIGINT): a batch can be resumed</td></tr>
 * </table>
 */
public final class Exit {

  /** Resolved; all rows resolved; valid. */
  public static final int OK = 0;
  /** Refused, or some batch rows not resolved, or a simulated case failed. */
  public static final int NOT_RESOLVED = 1;
  /** Usage or configuration. */
  public static final int USAGE = 2;
  /** No answer could be had. */
  public static final int UNAVAILABLE = 3;
  /** Interrupted. */
  public static final int INTERRUPTED = 130;
  /**
   * Not an exit status: {@code serve} started and the process keeps running until it is stopped
   * (then the JVM's own status for the signal applies).
   */
  public static final int SERVING = -1;

  private Exit() {}
}
