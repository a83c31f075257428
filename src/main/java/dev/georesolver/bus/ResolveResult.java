package dev.georesolver.bus;

import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Claim;
import dev.georesolver.provider.Direction;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;

/**
 * The result of one resolution, the same over HTTP and the event bus (DESIGN §9). Immutable.
 *
 * <p>{@code status} is {@code resolved} or {@code refused}; a refusal ("no rung could answer") is a
 * normal outcome with a {@code reason}, never an error.
 *
 * @param status {@code resolved} or {@code refused}
 * @param direction forward or reverse
 * @param lon longitude (EPSG:4326, 7 decimals), null when refused
 * @param lat latitude, null when refused
 * @param label what was matched, or null
 * @param precision rooftop, street, locality…, or null
 * @param distanceM reverse: metres from the asked point, or null
 * @param resolutionSource the tier that answered, or null
 * @param claim what the answer may claim, or null
 * @param confidence [0, 1], or null
 * @param degraded whether the answer came from below the first eligible rung
 * @param notice a sentence opener saying what the answer may claim
 * @param reason why it was refused, or null
 * @param intent the request's intent
 * @param idempotencyKey the request's key
 * @param manifestRevision the manifest's revision
 * @param traceId this delivery's trace id
 * @param elapsedMs this delivery's time in the resolver, milliseconds
 * @param attempts per rung visited: outcome, tries, milliseconds
 * @param transform how the point reached EPSG:4326, or null
 * @param observedAtMs for cached answers: when the entry was first resolved (epoch millis), or null
 * @param resolvedAtMs when this answer was produced (epoch millis)
 * @param replayAgeS for idempotency replays: the stored answer's age in seconds, else null
 * @param coalesced whether this delivery shared a concurrent identical request's walk
 * @param stableJson the JSON of every field but the per-delivery ones ({@code intent},
 *     {@code trace_id}, {@code elapsed_ms}, {@code replayed}, {@code replay_age_s},
 *     {@code coalesced}), encoded once when the answer is stored (see {@link #stored()}) so
 *     replays are not re-encoded; null for an answer fresh from a walk. Never modified.
 */
public record ResolveResult(
    String status,
    Direction direction,
    Double lon,
    Double lat,
    String label,
    String precision,
    Double distanceM,
    String resolutionSource,
    Claim claim,
    Double confidence,
    boolean degraded,
    String notice,
    String reason,
    String intent,
    String idempotencyKey,
    String manifestRevision,
    String traceId,
    long elapsedMs,
    List<Attempt> attempts,
    TransformInfo transform,
    Long observedAtMs,
    long resolvedAtMs,
    Long replayAgeS,
    boolean coalesced,
    Buffer stableJson) {

  public static final String RESOLVED = "resolved";
  public static final String REFUSED = "refused";

  public ResolveResult {
    attempts = List.copyOf(attempts);
  }

  /** A result not yet encoded. */
  public ResolveResult(String status, Direction direction, Double lon, Double lat, String label, String precision,
      Double distanceM, String resolutionSource, Claim claim, Double confidence, boolean degraded, String notice,
      String reason, String intent, String idempotencyKey, String manifestRevision, String traceId, long elapsedMs,
      List<Attempt> attempts, TransformInfo transform, Long observedAtMs, long resolvedAtMs, Long replayAgeS,
      boolean coalesced) {
    this(status, direction, lon, lat, label, precision, distanceM, resolutionSource, claim, confidence, degraded, notice,
        reason, intent, idempotencyKey, manifestRevision, traceId, elapsedMs, attempts, transform, observedAtMs,
        resolvedAtMs, replayAgeS, coalesced, null);
  }

  /**
   * The form an answer is kept in for replays and shared with coalesced waiters: its stable fields
   * encoded once ({@link #stableJson}), plus only what the store and the chain read without
   * decoding — status, direction, source, claim, degraded, the intent and the times. The other
   * fields are null here and live in {@code stableJson}; {@link #toBuffer()} and {@link #toJson()}
   * give the whole result. One byte array instead of a graph of small objects keeps the store
   * cheap to hold and cheap for the garbage collector to copy.
   */
  public ResolveResult stored() {
    if (stableJson != null && attempts.isEmpty() && idempotencyKey == null) {
      return this;
    }
    return new ResolveResult(status, direction, null, null, null, null, null, resolutionSource, claim, null, degraded,
        null, null, intent, null, manifestRevision, null, 0, List.of(), null, observedAtMs, resolvedAtMs, null, false,
        stableJson != null ? stableJson : encode(true));
  }

  /** Whether a rung answered. */
  public boolean resolved() {
    return RESOLVED.equals(status);
  }

  /** This result as delivered again: to a replay or a coalesced waiter, with its own trace and time. */
  public ResolveResult redelivered(String traceId, long elapsedMs, Long replayAgeS, boolean coalesced) {
    return new ResolveResult(status, direction, lon, lat, label, precision, distanceM, resolutionSource, claim,
        confidence, degraded, notice, reason, intent, idempotencyKey, manifestRevision, traceId, elapsedMs,
        attempts, transform, observedAtMs, resolvedAtMs, replayAgeS, coalesced, stableJson);
  }

  /** This result with another intent label (a replay serves the intent that asked). */
  public ResolveResult forIntent(String intent) {
    return new ResolveResult(status, direction, lon, lat, label, precision, distanceM, resolutionSource, claim,
        confidence, degraded, notice, reason, intent, idempotencyKey, manifestRevision, traceId, elapsedMs,
        attempts, transform, observedAtMs, resolvedAtMs, replayAgeS, coalesced, stableJson);
  }

  /** The result JSON (absent values are left out); see {@link #toBuffer()}. */
  public JsonObject toJson() {
    return new JsonObject(toBuffer());
  }

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * The result JSON, encoded. Written field by field with a streaming generator: this runs for
   * every answer served, and building a {@link JsonObject} first only to encode it costs a map and
   * an entry per field. A result carrying {@link #stableJson} (a replay, a coalesced delivery) only
   * encodes its delivery fields and appends the stored bytes.
   */
  public Buffer toBuffer() {
    if (stableJson == null) {
      return encode(false);
    }
    Buffer delivery = encodeDelivery();
    // delivery is "{...}" and stable "{...}": join them as "{delivery..., stable...}".
    return Buffer.buffer(delivery.length() + stableJson.length())
        .appendBuffer(delivery, 0, delivery.length() - 1)
        .appendByte((byte) ',')
        .appendBuffer(stableJson, 1, stableJson.length() - 1);
  }

  /** The whole result, or only its stable fields. */
  private Buffer encode(boolean stableOnly) {
    ByteArrayBuilder out = new ByteArrayBuilder(1024);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      writeStable(g);
      if (!stableOnly) {
        writeDelivery(g);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return Buffer.buffer(out.toByteArray());
  }

  private Buffer encodeDelivery() {
    ByteArrayBuilder out = new ByteArrayBuilder(128);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      writeDelivery(g);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return Buffer.buffer(out.toByteArray());
  }

  private void writeStable(JsonGenerator g) throws IOException {
    g.writeStringField("status", status);
    if (direction == Direction.REVERSE) {
      g.writeStringField("direction", "reverse");
    }
    if (lon != null) {
      g.writeNumberField("lon", lon);
      g.writeNumberField("lat", lat);
      g.writeStringField("crs", "EPSG:4326");
    }
    string(g, "label", label);
    string(g, "precision", precision);
    if (distanceM != null) {
      g.writeNumberField("distance_m", distanceM);
    }
    string(g, "resolution_source", resolutionSource);
    string(g, "claim", claim == null ? null : claim.wire());
    if (confidence != null) {
      g.writeNumberField("confidence", confidence);
    }
    g.writeBooleanField("degraded", degraded);
    string(g, "notice", notice);
    string(g, "reason", reason);
    string(g, "idempotency_key", idempotencyKey);
    string(g, "manifest_revision", manifestRevision);
    g.writeArrayFieldStart("attempts");
    for (Attempt at : attempts) {
      g.writeStartObject();
      g.writeStringField("tier", at.tier());
      g.writeStringField("outcome", at.outcome());
      g.writeNumberField("tries", at.tries());
      g.writeNumberField("ms", at.ms());
      string(g, "detail", at.detail());
      g.writeEndObject();
    }
    g.writeEndArray();
    if (transform != null) {
      g.writeObjectFieldStart("transform");
      string(g, "source_crs", transform.sourceCrs());
      string(g, "definition", transform.definition());
      string(g, "definition_hash", transform.definitionHash());
      g.writeEndObject();
    }
    if (observedAtMs != null) {
      g.writeNumberField("observed_at_ms", observedAtMs);
    }
    g.writeNumberField("resolved_at_ms", resolvedAtMs);
  }

  private void writeDelivery(JsonGenerator g) throws IOException {
    string(g, "intent", intent);
    string(g, "trace_id", traceId);
    g.writeNumberField("elapsed_ms", elapsedMs);
    if (replayAgeS != null) {
      g.writeBooleanField("replayed", true);
      g.writeNumberField("replay_age_s", replayAgeS);
    }
    if (coalesced) {
      g.writeBooleanField("coalesced", true);
    }
  }

  private static void string(JsonGenerator g, String field, String value) throws IOException {
    if (value != null) {
      g.writeStringField(field, value);
    }
  }

  /** Reads {@link #toJson()}. */
  public static ResolveResult fromJson(JsonObject j) {
    JsonArray a = j.getJsonArray("attempts", new JsonArray());
    List<Attempt> attempts = new java.util.ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      attempts.add(Attempt.fromJson(a.getJsonObject(i)));
    }
    JsonObject t = j.getJsonObject("transform");
    String claim = j.getString("claim");
    return new ResolveResult(
        j.getString("status"),
        "reverse".equals(j.getString("direction")) ? Direction.REVERSE : Direction.FORWARD,
        j.getDouble("lon"),
        j.getDouble("lat"),
        j.getString("label"),
        j.getString("precision"),
        j.getDouble("distance_m"),
        j.getString("resolution_source"),
        claim == null ? null : Claim.fromWire(claim).orElse(null),
        j.getDouble("confidence"),
        j.getBoolean("degraded", false),
        j.getString("notice"),
        j.getString("reason"),
        j.getString("intent"),
        j.getString("idempotency_key"),
        j.getString("manifest_revision"),
        j.getString("trace_id"),
        j.getLong("elapsed_ms", 0L),
        attempts,
        t == null ? null : TransformInfo.fromJson(t),
        j.getLong("observed_at_ms"),
        j.getLong("resolved_at_ms", 0L),
        j.getLong("replay_age_s"),
        j.getBoolean("coalesced", false));
  }
}
