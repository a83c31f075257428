package dev.georesolver.bus;

import dev.georesolver.geo.Address;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;

/**
 * A degraded answer replaced by a better one (the outbox record, and what every consumer receives
 * on {@link Addresses#CORRECTIONS}, the feed, the stream and the webhooks). Immutable.
 *
 * <p>JSON: {@code correction_id}, {@code cursor} (its place in the outbox, once stored),
 * {@code idempotency_key}, {@code intent}, {@code direction}, {@code tenant}, {@code before} and
 * {@code after} (each {@code lon}, {@code lat}, {@code claim}, {@code resolution_source},
 * {@code confidence}, {@code resolved_at_ms}, and {@code address} when its components are known:
 * {@code after} has those of the corrected point; a refusal's {@code before} has no point),
 * {@code moved_m} (null when there was no point before), {@code reason} ({@code degraded}: a
 * degraded answer a rung above replaced; {@code drift}: a cached answer its own rung now places
 * elsewhere), {@code corrected_at} (ISO-8601) and
 * {@code corrected_at_ms}, {@code manifest_revision}, {@code addr_key} (the cached-index entry
 * updated, or absent) and {@code answer}: the corrected result as it is now replayed.
 *
 * @param correctionId identity: one per key, intent, direction and degraded answer
 * @param cursor its outbox position (opaque, ordered), or null before it is stored
 * @param idempotencyKey the request's key
 * @param intent the request's intent
 * @param direction forward or reverse
 * @param tenant whose request it was
 * @param before the degraded answer
 * @param after the corrected answer
 * @param movedM metres between the two points, or null
 * @param reason why: {@link #DEGRADED} or {@link #DRIFT}
 * @param correctedAtMs when (epoch millis)
 * @param manifestRevision the manifest that corrected it
 * @param addrKey the cached-index entry updated, or null
 * @param answer the corrected stored answer
 */
public record Correction(
    String correctionId,
    String cursor,
    String idempotencyKey,
    String intent,
    Direction direction,
    String tenant,
    Place before,
    Place after,
    Double movedM,
    String reason,
    long correctedAtMs,
    String manifestRevision,
    String addrKey,
    StoredAnswer answer) {

  /** The reason of a degraded answer replaced by a rung above the one that served it. */
  public static final String DEGRADED = "degraded";
  /** The reason of a cached answer that the rung which produced it now places more than the drift threshold away. */
  public static final String DRIFT = "drift";

  public Correction {
    reason = reason == null ? DEGRADED : reason;
  }

  /**
   * One side of a correction.
   *
   * @param lon longitude, or null (a refusal)
   * @param lat latitude, or null
   * @param claim claim, or null
   * @param resolutionSource the tier, or null
   * @param confidence confidence, or null
   * @param resolvedAtMs when that answer was resolved (epoch millis)
   * @param address the answer's address components ({@code address} in the JSON, only when known);
   *     a correction's {@code after} carries those of the point it moved to. {@link Address#EMPTY}
   *     when none, never null
   */
  public record Place(Double lon, Double lat, String claim, String resolutionSource, Double confidence, long resolvedAtMs,
                      Address address) {

    public Place {
      address = address == null ? Address.EMPTY : address;
    }

    /** A side without address components (the degraded answer, as a debt remembers it). */
    public Place(Double lon, Double lat, String claim, String resolutionSource, Double confidence, long resolvedAtMs) {
      this(lon, lat, claim, resolutionSource, confidence, resolvedAtMs, Address.EMPTY);
    }

    public JsonObject toJson() {
      JsonObject j = new JsonObject().put("lon", lon).put("lat", lat).put("claim", claim).put("resolution_source", resolutionSource)
          .put("confidence", confidence).put("resolved_at_ms", resolvedAtMs);
      if (!address.isEmpty()) {
        j.put("address", new JsonObject(new LinkedHashMap<String, Object>(address.toMap())));
      }
      return j;
    }

    public static Place fromJson(JsonObject j) {
      return new Place(j.getDouble("lon"), j.getDouble("lat"), j.getString("claim"), j.getString("resolution_source"),
          j.getDouble("confidence"), j.getLong("resolved_at_ms", 0L),
          j.getValue("address") instanceof JsonObject a ? Address.fromMap(a.getMap()) : Address.EMPTY);
    }
  }

  /** This correction at its outbox position. */
  public Correction withCursor(String c) {
    return new Correction(correctionId, c, idempotencyKey, intent, direction, tenant, before, after, movedM, reason, correctedAtMs,
        manifestRevision, addrKey, answer);
  }

  public JsonObject toJson() {
    JsonObject j = new JsonObject()
        .put("correction_id", correctionId);
    if (cursor != null) {
      j.put("cursor", cursor);
    }
    j.put("idempotency_key", idempotencyKey)
        .put("intent", intent)
        .put("direction", direction.name().toLowerCase(Locale.ROOT))
        .put("tenant", tenant)
        .put("before", before.toJson())
        .put("after", after.toJson())
        .put("moved_m", movedM)
        .put("reason", reason)
        .put("corrected_at", Instant.ofEpochMilli(correctedAtMs).toString())
        .put("corrected_at_ms", correctedAtMs)
        .put("manifest_revision", manifestRevision);
    if (addrKey != null) {
      j.put("addr_key", addrKey);
    }
    return j.put("answer", answer.toJson());
  }

  public static Correction fromJson(JsonObject j) {
    return new Correction(j.getString("correction_id"), j.getString("cursor"), j.getString("idempotency_key"),
        j.getString("intent"), "reverse".equals(j.getString("direction")) ? Direction.REVERSE : Direction.FORWARD,
        j.getString("tenant", "public"), Place.fromJson(j.getJsonObject("before")), Place.fromJson(j.getJsonObject("after")),
        j.getDouble("moved_m"), j.getString("reason", DEGRADED), j.getLong("corrected_at_ms"), j.getString("manifest_revision"), j.getString("addr_key"),
        StoredAnswer.fromJson(j.getJsonObject("answer")));
  }
}
