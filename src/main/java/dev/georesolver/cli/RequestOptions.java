package dev.georesolver.cli;

import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;
import picocli.CommandLine.Option;

/** What every request of a command asks for besides its address: intent, budget, bbox. */
final class RequestOptions {

  @Option(names = "--intent", paramLabel = "NAME",
      description = "what the answer may be used for: an intent of the manifest (describe, measure, contain by default)")
  String intent;

  @Option(names = "--budget-ms", paramLabel = "MS", description = "the request's budget in milliseconds (default: the manifest's)")
  Long budgetMs;

  @Option(names = "--bbox", paramLabel = "minLon,minLat,maxLon,maxLat", description = "only answers inside this box (forward)")
  String bbox;

  /**
   * Checks the options.
   *
   * @throws CliException ({@link Exit#USAGE}) naming the option
   */
  void check() throws CliException {
    if (budgetMs != null && budgetMs <= 0) {
      throw new CliException(Exit.USAGE, "--budget-ms must be a positive number of milliseconds, got " + budgetMs);
    }
    if (bbox != null) {
      String[] p = bbox.split(",", -1);
      try {
        if (p.length != 4) {
          throw new IllegalArgumentException("four numbers are needed");
        }
        Bbox.of(Double.parseDouble(p[0].strip()), Double.parseDouble(p[1].strip()), Double.parseDouble(p[2].strip()),
            Double.parseDouble(p[3].strip()));
      } catch (IllegalArgumentException e) {
        throw new CliException(Exit.USAGE, "--bbox must be minLon,minLat,maxLon,maxLat (" + Terminal.safe(e.getMessage(), 100) + ")");
      }
    }
  }

  /** {@code request} (not changed) with these options added: a new object. */
  JsonObject applied(Direction direction, JsonObject request) {
    JsonObject r = request.copy();
    if (intent != null) {
      r.put("intent", intent);
    }
    if (budgetMs != null) {
      r.put("budget_ms", budgetMs);
    }
    if (bbox != null && direction == Direction.FORWARD) {
      r.put("bbox", bbox);
    }
    return r;
  }

  /** These options as JSON (for a batch's progress file: a resumed run must ask the same). */
  JsonObject toJson() {
    JsonObject j = new JsonObject();
    if (intent != null) {
      j.put("intent", intent);
    }
    if (budgetMs != null) {
      j.put("budget_ms", budgetMs);
    }
    if (bbox != null) {
      j.put("bbox", bbox);
    }
    return j;
  }
}
