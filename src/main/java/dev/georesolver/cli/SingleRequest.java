package dev.georesolver.cli;

import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

/** One request from the command line: ask, print the answer, give the exit status, stop. */
final class SingleRequest {

  private SingleRequest() {}

  /**
   * Sends {@code request} to the resolver {@code where} names and prints the result: readably, or as
   * its JSON on one line with {@code json}.
   *
   * @return {@link Exit#OK} resolved, {@link Exit#NOT_RESOLVED} refused, or the failure's status
   */
  static int run(Cli.Context context, ResolverOptions where, Direction direction, JsonObject request, boolean json) {
    Resolver resolver;
    try {
      resolver = where.open(context, 1, 1);
    } catch (CliException e) {
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
    }
    try {
      JsonObject result = resolver.resolve(direction, request, false).await();
      if (json) {
        context.out().println(result.encode());
      } else {
        AnswerText.lines(result).forEach(context.out()::println);
      }
      return "resolved".equals(result.getString("status")) ? Exit.OK : Exit.NOT_RESOLVED;
    } catch (Unanswered u) {
      context.err().println("georesolver: " + (u.kind() == Unanswered.Kind.INVALID ? "invalid request: " : "")
          + Terminal.safe(u.getMessage(), 1000));
      return u.exitStatus();
    } catch (RuntimeException e) {
      context.err().println("georesolver: " + Terminal.safe(String.valueOf(e), 1000));
      return Exit.UNAVAILABLE;
    } finally {
      resolver.close();
    }
  }
}
