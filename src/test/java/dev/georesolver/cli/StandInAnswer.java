package dev.georesolver.cli;

import dev.georesolver.batch.ResultWriters;
import io.vertx.core.json.JsonObject;

/** What {@link StandIn} answers, worked out the same way, as the resolver prints it. */
final class StandInAnswer {

  private StandInAnswer() {}

  static JsonObject forward(String q) {
    int h = q.hashCode();
    double lon = Math.floorMod(h, 36_000_000) / 100_000.0 - 180;
    double lat = Math.floorMod(h / 7, 18_000_000) / 100_000.0 - 90;
    return new JsonObject().put("lon", ResultWriters.plain(round(lon))).put("lat", ResultWriters.plain(round(lat)));
  }

  private static double round(double d) {
    return Math.round(d * 1e7) / 1e7;
  }
}
