package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

import java.util.List;

/**
 * A sampled answer handed by the chain to the shadow verticle ({@link Addresses#SHADOW_OFFER}) after
 * its reply has left: the question, whose it was, and what was answered. Immutable. It holds the
 * address and the point (as private as the request itself): it never leaves the node, is never
 * logged, and the shadow verticle keeps only counts of it.
 *
 * @param request the question as the chain walked it
 * @param tenant the tenant it was asked for
 * @param idempotencyKey the request's idempotency key
 * @param served the rung whose answer left
 * @param lon the answer's longitude, EPSG:4326
 * @param lat the answer's latitude, EPSG:4326
 * @param precision the answer's precision, or null
 * @param label the answer's label, or null
 * @param confidence the answer's confidence, or null
 * @param servedMs how long the served rung took, milliseconds (0 for a replay)
 * @param resolvedAtMs when the answer was resolved, epoch milliseconds
 * @param replayAgeS for a replay, the stored answer's age in seconds; null for an answer walked now
 */
public record ShadowOffer(ResolveRequest request, String tenant, String idempotencyKey, String served, double lon, double lat,
    String precision, String label, Double confidence, long servedMs, long resolvedAtMs, Long replayAgeS) {

  /** Whether this is a replay (to be checked for drift) rather than a walked answer (to be compared). */
  public boolean replay() {
    return replayAgeS != null;
  }

  /**
   * The offer of a resolved reply: a walked {@link ResolveResult} or a replayed {@link Redelivery};
   * null for anything else (a refusal, a coalesced delivery, an answer without a point).
   */
  public static ShadowOffer of(ResolveRequest request, String tenant, ResolveReply reply) {
    if (!ResolveResult.RESOLVED.equals(reply.status()) || reply.resolutionSource() == null) {
      return null;
    }
    if (reply instanceof ResolveResult r) {
      if (r.lon() == null || r.lat() == null) {
        return null;
      }
      return new ShadowOffer(request, tenant, r.idempotencyKey(), r.resolutionSource(), r.lon(), r.lat(), r.precision(),
          r.label(), r.confidence(), servedMs(r.attempts(), r.resolutionSource()), r.resolvedAtMs(), null);
    }
    if (reply instanceof Redelivery d && d.replayAgeS() != null) {
      JsonObject j = d.answer().toJson();
      Double lon = j.getDouble("lon");
      Double lat = j.getDouble("lat");
      if (lon == null || lat == null) {
        return null;
      }
      return new ShadowOffer(request, tenant, j.getString("idempotency_key"), d.resolutionSource(), lon, lat,
          j.getString("precision"), j.getString("label"), j.getDouble("confidence"), 0, d.answer().resolvedAtMs(), d.replayAgeS());
    }
    return null;
  }

  private static long servedMs(List<Attempt> attempts, String tier) {
    for (int i = attempts.size() - 1; i >= 0; i--) {
      if (attempts.get(i).tier().equals(tier)) {
        return attempts.get(i).ms();
      }
    }
    return 0;
  }

  /** JSON form for the codec (the offer never leaves the node; the form exists for the codec's contract). */
  public JsonObject toJson() {
    return new JsonObject()
        .put("request", request.toJson())
        .put("tenant", tenant)
        .put("idempotency_key", idempotencyKey)
        .put("served", served)
        .put("lon", lon)
        .put("lat", lat)
        .put("precision", precision)
        .put("label", label)
        .put("confidence", confidence)
        .put("served_ms", servedMs)
        .put("resolved_at_ms", resolvedAtMs)
        .put("replay_age_s", replayAgeS);
  }

  /** Reads {@link #toJson()}. */
  public static ShadowOffer fromJson(JsonObject j) {
    return new ShadowOffer(ResolveRequest.fromJson(j.getJsonObject("request")), j.getString("tenant"), j.getString("idempotency_key"),
        j.getString("served"), j.getDouble("lon"), j.getDouble("lat"), j.getString("precision"), j.getString("label"),
        j.getDouble("confidence"), j.getLong("served_ms", 0L), j.getLong("resolved_at_ms", 0L), j.getLong("replay_age_s"));
  }
}
