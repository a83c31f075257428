package dev.georesolver.compat;

import dev.georesolver.bus.ResolveResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Chain results for the translation tests, built from the public result JSON (the wire contract)
 * rather than the record's constructor.
 */
final class Results {

  private Results() {}

  /** A resolved forward answer. */
  static JsonObject resolved(String claim, String precision, boolean degraded) {
    return new JsonObject().put("status", "resolved").put("lon", -0.1276).put("lat", 51.5034)
        .put("label", "10 Downing Street, London SW1A 2AA, UK").put("precision", precision)
        .put("resolution_source", "primary").put("claim", claim).put("confidence", 0.9).put("degraded", degraded)
        .put("notice", "Matched to the address by primary, ").put("intent", "describe")
        .put("idempotency_key", "3f2a9c0d1e4b5a6978abcdef0123456789abcdef0123456789abcdef01234567")
        .put("manifest_revision", "abc").put("trace_id", "t1").put("elapsed_ms", 12)
        .put("attempts", new JsonArray().add(new JsonObject().put("tier", "primary").put("outcome", "hit")
            .put("tries", 1).put("ms", 10)))
        .put("resolved_at_ms", 1_767_225_600_000L);
  }

  /** A resolved answer with the components of 10 Downing Street (a Nominatim-like place type). */
  static JsonObject withAddress(JsonObject resolved) {
    return resolved.put("address", new JsonObject().put("house_number", "10").put("road", "Downing Street")
        .put("neighbourhood", "Westminster").put("locality", "London").put("county", "Greater London")
        .put("region", "England").put("postcode", "SW1A 2AA").put("country", "United Kingdom").put("country_code", "GB")
        .put("place_type", "place/house"));
  }

  /** A refusal with a reason. */
  static JsonObject refused(String reason, String notice) {
    return new JsonObject().put("status", "refused").put("degraded", false).put("notice", notice).put("reason", reason)
        .put("intent", "describe").put("idempotency_key", "00ff").put("manifest_revision", "abc").put("trace_id", "t2")
        .put("elapsed_ms", 30).put("attempts", new JsonArray()).put("resolved_at_ms", 1_767_225_600_000L);
  }

  static ResolveResult result(JsonObject j) {
    return ResolveResult.fromJson(j);
  }

  static Answer answer(JsonObject j) {
    return Answer.of(result(j));
  }
}
