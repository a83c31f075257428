package dev.georesolver.cli;

import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code georesolver geocode "<address>" [--intent I] [--budget-ms N] [--bbox …] [--json]}: one
 * forward lookup, embedded or against {@code --server}. Exit 0 resolved, 1 refused, 2 invalid
 * request or configuration, 3 no answer could be had.
 */
@Command(name = "geocode", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = {"Resolves one address: in this process on the manifest, or against --server.",
        "Exit 0 resolved, 1 refused, 2 invalid request or configuration, 3 no answer could be had."})
final class GeocodeCommand implements Callable<Integer> {

  private final Cli.Context context;

  @Parameters(arity = "1..*", paramLabel = "ADDRESS", description = "the address (several words are joined with spaces)")
  List<String> address;

  @Option(names = "--json", description = "print the result JSON on one line instead")
  boolean json;

  @Mixin
  RequestOptions request;

  @Mixin
  ResolverOptions where;

  GeocodeCommand(Cli.Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    try {
      request.check();
    } catch (CliException e) {
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
    }
    JsonObject body = request.applied(Direction.FORWARD, new JsonObject().put("q", String.join(" ", address)));
    return SingleRequest.run(context, where, Direction.FORWARD, body, json);
  }
}
