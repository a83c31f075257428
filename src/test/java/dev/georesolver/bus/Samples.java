package dev.georesolver.bus;

import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Bbox;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
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

  static final ResolveResult RESOLVED = ResolveResult.builder()
      .status(ResolveResult.RESOLVED)
      .lon(2.3376)
      .lat(48.8606)
      .label("Musée du Louvre, Paris")
      .precision("rooftop")
      .resolutionSource("cache")
      .claim(Claim.CACHED)
      .confidence(0.93)
      .degraded(true)
      .notice("From a cached result 4 h old, ")
      .intent("describe")
      .idempotencyKey("ab12cd34")
      .manifestRevision("0123456789ab-g3f9c2ab")
      .traceId("trace-fwd")
      .elapsedMs(1230)
      .attempts(ATTEMPTS)
      .transform(TRANSFORM)
      .observedAtMs(1_767_210_000_000L)
      .resolvedAtMs(1_767_225_600_000L)
      .build();

  static final ResolveResult REFUSED = ResolveResult.builder()
      .status(ResolveResult.REFUSED)
      .notice("No rung could answer within the time budget.")
      .reason("budget_exhausted")
      .intent("contain")
      .idempotencyKey("ab12cd34")
      .manifestRevision("0123456789ab")
      .traceId("trace-2")
      .elapsedMs(2499)
      .attempts(List.of(new Attempt("primary", "deadline", 1, 2400, null)))
      .resolvedAtMs(1_767_225_600_000L)
      .build();

  static final ResolveResult REPLAYED_REVERSE = ResolveResult.builder()
      .status(ResolveResult.RESOLVED)
      .direction(Direction.REVERSE)
      .lon(-0.1276)
      .lat(51.5072)
      .distanceM(12.5)
      .resolutionSource("primary")
      .claim(Claim.EXACT)
      .confidence(1.0)
      .notice("Matched to the address by primary, ")
      .intent("measure")
      .idempotencyKey("ef56")
      .manifestRevision("0123456789ab")
      .traceId("trace-3")
      .elapsedMs(2)
      .resolvedAtMs(1_767_225_000_000L)
      .replayAgeS(600L)
      .coalesced(true)
      .build();

  /** The JSON as it comes back from the wire: encoded to text and parsed again. */
  static JsonObject overTheWire(JsonObject j) {
    return new JsonObject(j.encode());
  }
}
