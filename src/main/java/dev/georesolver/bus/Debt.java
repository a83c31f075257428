package dev.georesolver.bus;

import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

import java.util.Locale;
import java.util.Objects;

/**
 * A degraded answer, or a refusal caused by failing rungs, waiting to be re-resolved by the rungs
 * above the one that served it. Immutable.
 *
 * @param idempotencyKey the original request's key, sent as {@code Idempotency-Key} on every upstream call
 * @param intent the request's intent
 * @param direction forward or reverse
 * @param tenant whose request it was ({@code public} while no tenants are configured)
 * @param request the request to walk again (its trace id is not kept)
 * @param servedRung the tier that served the degraded answer, or null for a refusal (every rung is above)
 * @param status {@code resolved} or {@code refused}
 * @param reason a refusal's reason, else null
 * @param claim the served answer's claim, or null
 * @param lon the served point's longitude, or null
 * @param lat the served point's latitude, or null
 * @param confidence the served answer's confidence, or null
 * @param answerResolvedAtMs when the degraded answer was resolved (epoch millis): a correction never
 *     replaces an answer stored later than this
 * @param acceptedAtMs when it was queued (epoch millis): the queue drains oldest first
 */
public record Debt(
    String idempotencyKey,
    String intent,
    Direction direction,
    String tenant,
    ResolveRequest request,
    String servedRung,
    String status,
    String reason,
    String claim,
    Double lon,
    Double lat,
    Double confidence,
    long answerResolvedAtMs,
    long acceptedAtMs) {

  public Debt {
    Objects.requireNonNull(idempotencyKey, "idempotencyKey");
    Objects.requireNonNull(intent, "intent");
    Objects.requireNonNull(direction, "direction");
    Objects.requireNonNull(request, "request");
  }

  /**
   * What makes a debt unique in the queue: key, intent, direction and tenant, so every tenant that
   * received the degraded answer is owed its own correction (its feed, stream, webhooks and audit
   * trail, walked under its own residency). The tenant is left out for {@code public}, the one
   * tenant while none are configured, so those keys are what they were.
   */
  public String debtKey() {
    String k = idempotencyKey + "|" + intent + "|" + direction.name().toLowerCase(Locale.ROOT);
    return tenant == null || "public".equals(tenant) ? k : k + "|" + tenant;
  }

  /** This debt with a later degraded answer (same place in the queue). */
  public Debt withAnswer(Debt newer) {
    return new Debt(idempotencyKey, intent, direction, tenant, request, newer.servedRung, newer.status, newer.reason,
        newer.claim, newer.lon, newer.lat, newer.confidence, newer.answerResolvedAtMs, acceptedAtMs);
  }

  public JsonObject toJson() {
    return new JsonObject()
        .put("idempotency_key", idempotencyKey)
        .put("intent", intent)
        .put("direction", direction.name().toLowerCase(Locale.ROOT))
        .put("tenant", tenant)
        .put("request", request.toJson().put("trace_id", (String) null))
        .put("served_rung", servedRung)
        .put("status", status)
        .put("reason", reason)
        .put("claim", claim)
        .put("lon", lon)
        .put("lat", lat)
        .put("confidence", confidence)
        .put("answer_resolved_at_ms", answerResolvedAtMs)
        .put("accepted_at_ms", acceptedAtMs);
  }

  public static Debt fromJson(JsonObject j) {
    return new Debt(j.getString("idempotency_key"), j.getString("intent"),
        "reverse".equals(j.getString("direction")) ? Direction.REVERSE : Direction.FORWARD, j.getString("tenant", "public"),
        ResolveRequest.fromJson(j.getJsonObject("request")), j.getString("served_rung"), j.getString("status"),
        j.getString("reason"), j.getString("claim"), j.getDouble("lon"), j.getDouble("lat"), j.getDouble("confidence"),
        j.getLong("answer_resolved_at_ms"), j.getLong("accepted_at_ms"));
  }
}
