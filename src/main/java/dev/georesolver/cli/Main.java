package dev.georesolver.cli;

import dev.georesolver.logging.Logs;

/**
 * {@code java -jar target/georesolver.jar [command] [options]}: the log format first (before
 * anything logs), then the command line ({@link Cli}): {@code serve} (the default, so
 * {@code java -jar target/georesolver.jar --port 8080} starts the resolver as it always has),
 * {@code geocode}, {@code reverse}, {@code batch}, {@code validate}.
 *
 * <p>Exit statuses are {@link Exit}'s: 2 for bad flags, an invalid manifest, or a state file that
 * cannot be used (not a database, locked by another process), as before.
 */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    String[] rest;
    try {
      rest = Logs.configure(args, System.getenv());
    } catch (IllegalArgumentException e) {
      System.err.println("georesolver: " + e.getMessage());
      System.exit(Exit.USAGE);
      return;
    }
    int status = Cli.run(rest, System.getenv(), System.out, System.err);
    if (status != Exit.SERVING) {
      System.exit(status);
    }
  }
}
