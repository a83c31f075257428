package dev.georesolver.bus;

import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.Claim;
import dev.georesolver.provider.Direction;
import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;

/** Message records with every field set, for the round-trip tests. */
final class Samples {

  private Samples() {}

  static final TransformInfo TRANSFORM = new TransformInfo("EPSG:3857",
      "+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +no_defs", "3f9c2ab01d4e");

  static final Hit HIT = new Hit(2.3376, 48.8606, 0.93, "Musée du Louvre, Paris", "rooftop", null, null, TRANSFORM);

  static final Hit CACHED_HIT = new Hit(-0.1276, 51.5072, 1.0, null, null, 12.5, 1_767_225_000_000L, null);

  static final ResolveRequest FORWARD = new ResolveRequest(Direction.FORWARD, "99, Rue de Rivoli, Paris, FR",
      Map.of("house_number", "99", "street", "Rue de Rivoli", "locality", "Paris", "country", "FR"),
      Bbox.of(2.2, 48.8, 2.4, 48.9), null, null, "describe", "fr", "trace-fwd");

  static final ResolveRequest REVERSE = new ResolveRequest(Direction.REVERSE, null, Map.of(), null, 48.8606, 2.3376,
      "measure", null, "trace-rev");

  static final List<Attempt> ATTEMPTS = List.of(
      new Attempt("primary", "transient", 3, 1204, "HTTP 503"),
      new Attempt("osm", "skipped_admission", 0, 0, "usable 80 ms < 0.5 x typical 400 ms"),
      new Attempt("cache", "hit", 1, 4, null));

  static final ResolveResult RESOLVED = new ResolveResult(ResolveResult.RESOLVED, Direction.FORWARD, 2.3376, 48.8606,
      "Musée du Louvre, Paris", "rooftop", null, "cache", Claim.CACHED, 0.93, true, "From a cached result 4 h old, ",
      null, "describe", "ab12cd34", "0123456789ab-g3f9c2ab", "trace-fwd", 1230, ATTEMPTS, TRANSFORM,
      1_767_210_000_000L, 1_767_225_600_000L, null, false);

  static final ResolveResult REFUSED = new ResolveResult(ResolveResult.REFUSED, Direction.FORWARD, null, null, null, null,
      null, null, null, null, false, "No rung could answer within the time budget.", "budget_exhausted", "contain",
      "ab12cd34", "0123456789ab", "trace-2", 2499, List.of(new Attempt("primary", "deadline", 1, 2400, null)), null,
      null, 1_767_225_600_000L, null, false);

  static final ResolveResult REPLAYED_REVERSE = new ResolveResult(ResolveResult.RESOLVED, Direction.REVERSE, -0.1276,
      51.5072, null, null, 12.5, "primary", Claim.EXACT, 1.0, false, "Matched to the address by primary, ", null,
      "measure", "ef56", "0123456789ab", "trace-3", 2, List.of(), null, null, 1_767_225_000_000L, 600L, true);

  /** The JSON as it comes back from the wire: encoded to text and parsed again. */
  static JsonObject overTheWire(JsonObject j) {
    return new JsonObject(j.encode());
  }
}
