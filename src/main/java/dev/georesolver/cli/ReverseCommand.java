package dev.georesolver.cli;

import dev.georesolver.batch.RowRequests;
import dev.georesolver.geo.Direction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.util.concurrent.Callable;

/**
 * {@code georesolver reverse <lat> <lon> [--intent I] [--budget-ms N] [--json]}: one reverse
 * lookup. The coordinates are plain decimal degrees ({@code -33.9249}, not {@code 33°55'S}); exit
 * statuses as {@link GeocodeCommand}.
 */
@Command(name = "reverse", mixinStandardHelpOptions = true, versionProvider = Cli.Version.class,
    description = {"Finds what is at a point: in this process on the manifest, or against --server.",
        "Exit 0 resolved, 1 refused, 2 invalid request or configuration, 3 no answer could be had."})
final class ReverseCommand implements Callable<Integer> {

  private final Cli.Context context;

  @Parameters(index = "0", paramLabel = "LAT", description = "latitude, decimal degrees in [-90, 90]")
  String lat;

  @Parameters(index = "1", paramLabel = "LON", description = "longitude, decimal degrees in [-180, 180]")
  String lon;

  @Option(names = "--json", description = "print the result JSON on one line instead")
  boolean json;

  @Mixin
  RequestOptions request;

  @Mixin
  ResolverOptions where;

  ReverseCommand(Cli.Context context) {
    this.context = context;
  }

  @Override
  public Integer call() {
    RowRequests.Built point = RowRequests.point(lat, lon);
    if (point instanceof RowRequests.Problem p) {
      context.err().println("georesolver: " + Terminal.safe(p.message(), 300));
      return Exit.USAGE;
    }
    if (request.bbox != null) {
      context.err().println("georesolver: --bbox applies to geocode and batch, not to reverse");
      return Exit.USAGE;
    }
    try {
      request.check();
    } catch (CliException e) {
      context.err().println("georesolver: " + e.getMessage());
      return e.status();
    }
    var body = request.applied(Direction.REVERSE, ((RowRequests.Request) point).body());
    return SingleRequest.run(context, where, Direction.REVERSE, body, json);
  }
}
