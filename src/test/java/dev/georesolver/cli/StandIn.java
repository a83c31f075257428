package dev.georesolver.cli;

import dev.georesolver.batch.ResultWriters;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestBuilder;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * A provider standing in for the ladder's one rung (the generic contract), answering every address
 * with a point of its own made from the text, so each row's answer is distinct and the same every
 * time; "nowhere" is not found. Reverse lookups answer the point asked, moved a little.
 */
final class StandIn {

  final FakeProvider provider;

  private StandIn(FakeProvider provider) {
    this.provider = provider;
  }

  static StandIn start(Vertx vertx, long delayMs) {
    return new StandIn(FakeProvider.start(vertx, r -> answer(r, delayMs)).await());
  }

  /** The answer to one request: a point from the text's hash, or 404 for "nowhere". */
  static FakeProvider.Behaviour answer(HttpServerRequest r, long delayMs) {
    String q = r.getParam("q");
    if (q != null) {
      if (q.toLowerCase(Locale.ROOT).contains("nowhere")) {
        return FakeProvider.status(404, "");
      }
      double[] p = point(q);
      return FakeProvider.json(FakeProvider.generic(p[0], p[1], "EPSG:4326", 0.95), delayMs);
    }
    double lat = Double.parseDouble(r.getParam("lat"));
    double lon = Double.parseDouble(r.getParam("lon"));
    return FakeProvider.json(FakeProvider.generic(lon + 0.001, lat + 0.001, "EPSG:4326", 0.9), delayMs);
  }

  /** The point (lon, lat) it answers for the text {@code q}. */
  static double[] point(String q) {
    int h = q.hashCode();
    return new double[] {Math.floorMod(h, 36_000_000) / 100_000.0 - 180, Math.floorMod(h / 7, 18_000_000) / 100_000.0 - 90};
  }

  /** {@link #point} as the resolver writes it: {@code lon} and {@code lat} text, 7 decimals at most. */
  static JsonObject expected(String q) {
    double[] p = point(q);
    return new JsonObject().put("lon", ResultWriters.plain(Math.round(p[0] * 1e7) / 1e7))
        .put("lat", ResultWriters.plain(Math.round(p[1] * 1e7) / 1e7));
  }

  /** A manifest with this stand-in as its one rung, written to {@code dir}. */
  Path manifest(Path dir) throws IOException {
    // Generous times: a loaded machine must not turn a slow answer into a refusal the test did not ask for.
    String yaml = ManifestBuilder.manifest().budget(8000)
        .tier("stand_in", "generic", provider.url(), "exact", 6000, "typical_ms: 20")
        .yaml();
    Path p = dir.resolve("manifest.yaml");
    Files.writeString(p, yaml, StandardCharsets.UTF_8);
    return p;
  }
}
