package dev.georesolver.bus;

import dev.georesolver.crs.TransformInfo;
import dev.georesolver.geo.Address;
import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The result of one resolution, the same over HTTP and the event bus. Immutable and thread-safe;
 * built with {@link #builder()}, copied with changes through {@link #toBuilder()}.
 *
 * <p>{@code status} is {@code resolved} or {@code refused}; a refusal ("no rung could answer") is a
 * normal outcome with a {@code reason}, never an error. Absent values (null) are left out of the
 * JSON.
 *
 * <p>The fields fall in two groups. <em>Stable</em> fields are the same for every delivery of an
 * answer; a stored answer keeps them encoded once ({@link StoredAnswer}). <em>Delivery</em> fields
 * ({@code intent}, {@code trace_id}, {@code elapsed_ms}, {@code replayed}, {@code replay_age_s},
 * {@code coalesced}) belong to each delivery ({@link Redelivery}).
 *
 * <p><b>Adding a field</b> is done in this class alone: the component (with its Javadoc line), its
 * builder setter and its line in {@link #toBuilder()}, its line in {@code writeStable} (or, for a
 * per-delivery field, {@code writeDelivery} and a {@link Redelivery} component), and its line in
 * {@link #fromJson}. {@code ResolveResultFieldsTest} sets every component and fails for any of
 * these steps forgotten.
 *
 * @param status {@code resolved} or {@code refused}
 * @param direction forward or reverse; default forward
 * @param lon longitude (EPSG:4326, 7 decimals), null when refused
 * @param lat latitude, null when refused
 * @param label what was matched, or null
 * @param precision rooftop, street, locality…, or null
 * @param distanceM reverse: metres from the asked point, or null
 * @param address the structured address of what was matched (components by wire name, written as
 *     the {@code address} object only when one is known); {@link Address#EMPTY} when none, never null
 * @param resolutionSource the tier that answered, or null
 * @param claim what the answer may claim, or null
 * @param confidence [0, 1], or null
 * @param degraded whether the answer came from below the first eligible rung
 * @param notice a sentence opener saying what the answer may claim
 * @param reason why it was refused, or null
 * @param intent the request's intent (delivery)
 * @param idempotencyKey the request's key
 * @param manifestRevision the manifest's revision
 * @param traceId this delivery's trace id (delivery)
 * @param elapsedMs this delivery's time in the resolver, milliseconds (delivery)
 * @param attempts per rung visited: outcome, tries, milliseconds; never null, unmodifiable
 * @param transform how the point reached EPSG:4326, or null
 * @param observedAtMs for cached answers: when the entry was first resolved (epoch millis), or null
 * @param resolvedAtMs when this answer was produced (epoch millis)
 * @param replayAgeS for idempotency replays: the stored answer's age in seconds, else null (delivery)
 * @param coalesced whether this delivery shared a concurrent identical request's walk (delivery)
 */
public record ResolveResult(
    String status,
    Direction direction,
    Double lon,
    Double lat,
    String label,
    String precision,
    Double distanceM,
    Address address,
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
    boolean coalesced) implements ResolveReply {

  public static final String RESOLVED = "resolved";
  public static final String REFUSED = "refused";

  /** Prefer {@link #builder()}: this constructor is positional and exists because records need it. */
  public ResolveResult {
    Objects.requireNonNull(status, "status");
    Objects.requireNonNull(direction, "direction");
    address = address == null ? Address.EMPTY : address;
    attempts = List.copyOf(attempts);
  }

  /** A builder with nothing set: direction forward, no attempts, every other field absent. */
  public static Builder builder() {
    return new Builder();
  }

  /** A builder holding every field of this result, to build a copy with some changed. */
  public Builder toBuilder() {
    return new Builder()
        .status(status)
        .direction(direction)
        .lon(lon)
        .lat(lat)
        .label(label)
        .precision(precision)
        .distanceM(distanceM)
        .address(address)
        .resolutionSource(resolutionSource)
        .claim(claim)
        .confidence(confidence)
        .degraded(degraded)
        .notice(notice)
        .reason(reason)
        .intent(intent)
        .idempotencyKey(idempotencyKey)
        .manifestRevision(manifestRevision)
        .traceId(traceId)
        .elapsedMs(elapsedMs)
        .attempts(attempts)
        .transform(transform)
        .observedAtMs(observedAtMs)
        .resolvedAtMs(resolvedAtMs)
        .replayAgeS(replayAgeS)
        .coalesced(coalesced);
  }

  /**
   * Builds a {@link ResolveResult}; each setter is named after the component it sets (see the
   * record's parameters for meanings and units). Not thread-safe: one builder per result.
   */
  public static final class Builder {
    private String status;
    private Direction direction = Direction.FORWARD;
    private Double lon;
    private Double lat;
    private String label;
    private String precision;
    private Double distanceM;
    private Address address = Address.EMPTY;
    private String resolutionSource;
    private Claim claim;
    private Double confidence;
    private boolean degraded;
    private String notice;
    private String reason;
    private String intent;
    private String idempotencyKey;
    private String manifestRevision;
    private String traceId;
    private long elapsedMs;
    private List<Attempt> attempts = List.of();
    private TransformInfo transform;
    private Long observedAtMs;
    private long resolvedAtMs;
    private Long replayAgeS;
    private boolean coalesced;

    private Builder() {}

    public Builder status(String v) { status = v; return this; }
    public Builder direction(Direction v) { direction = v; return this; }
    public Builder lon(Double v) { lon = v; return this; }
    public Builder lat(Double v) { lat = v; return this; }
    public Builder label(String v) { label = v; return this; }
    public Builder precision(String v) { precision = v; return this; }
    public Builder distanceM(Double v) { distanceM = v; return this; }
    /** Null reads as {@link Address#EMPTY}. */
    public Builder address(Address v) { address = v; return this; }
    public Builder resolutionSource(String v) { resolutionSource = v; return this; }
    public Builder claim(Claim v) { claim = v; return this; }
    public Builder confidence(Double v) { confidence = v; return this; }
    public Builder degraded(boolean v) { degraded = v; return this; }
    public Builder notice(String v) { notice = v; return this; }
    public Builder reason(String v) { reason = v; return this; }
    public Builder intent(String v) { intent = v; return this; }
    public Builder idempotencyKey(String v) { idempotencyKey = v; return this; }
    public Builder manifestRevision(String v) { manifestRevision = v; return this; }
    public Builder traceId(String v) { traceId = v; return this; }
    public Builder elapsedMs(long v) { elapsedMs = v; return this; }
    /** The list is copied when the result is built. */
    public Builder attempts(List<Attempt> v) { attempts = v; return this; }
    public Builder transform(TransformInfo v) { transform = v; return this; }
    public Builder observedAtMs(Long v) { observedAtMs = v; return this; }
    public Builder resolvedAtMs(long v) { resolvedAtMs = v; return this; }
    public Builder replayAgeS(Long v) { replayAgeS = v; return this; }
    public Builder coalesced(boolean v) { coalesced = v; return this; }

    /** The result; {@code status} and {@code direction} must be set. */
    public ResolveResult build() {
      return new ResolveResult(status, direction, lon, lat, label, precision, distanceM, address, resolutionSource, claim,
          confidence, degraded, notice, reason, intent, idempotencyKey, manifestRevision, traceId, elapsedMs, attempts,
          transform, observedAtMs, resolvedAtMs, replayAgeS, coalesced);
    }
  }

  /** Reads {@link #toJson()}; absent fields read as absent (null, 0, false, forward, no attempts). */
  public static ResolveResult fromJson(JsonObject j) {
    JsonArray a = j.getJsonArray("attempts", new JsonArray());
    List<Attempt> attempts = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      attempts.add(Attempt.fromJson(a.getJsonObject(i)));
    }
    JsonObject t = j.getJsonObject("transform");
    String claim = j.getString("claim");
    return builder()
        .status(j.getString("status"))
        .direction("reverse".equals(j.getString("direction")) ? Direction.REVERSE : Direction.FORWARD)
        .lon(j.getDouble("lon"))
        .lat(j.getDouble("lat"))
        .label(j.getString("label"))
        .precision(j.getString("precision"))
        .distanceM(j.getDouble("distance_m"))
        .address(j.getValue("address") instanceof JsonObject addr ? Address.fromMap(addr.getMap()) : Address.EMPTY)
        .resolutionSource(j.getString("resolution_source"))
        .claim(claim == null ? null : Claim.fromWire(claim).orElse(null))
        .confidence(j.getDouble("confidence"))
        .degraded(j.getBoolean("degraded", false))
        .notice(j.getString("notice"))
        .reason(j.getString("reason"))
        .intent(j.getString("intent"))
        .idempotencyKey(j.getString("idempotency_key"))
        .manifestRevision(j.getString("manifest_revision"))
        .traceId(j.getString("trace_id"))
        .elapsedMs(j.getLong("elapsed_ms", 0L))
        .attempts(attempts)
        .transform(CoreJson.transform(t))
        .observedAtMs(j.getLong("observed_at_ms"))
        .resolvedAtMs(j.getLong("resolved_at_ms", 0L))
        .replayAgeS(j.getLong("replay_age_s"))
        .coalesced(j.getBoolean("coalesced", false))
        .build();
  }

  private static void writeStable(JsonGenerator g, ResolveResult r) throws IOException {
    g.writeStringField("status", r.status);
    if (r.direction == Direction.REVERSE) {
      g.writeStringField("direction", "reverse");
    }
    if (r.lon != null) {
      g.writeNumberField("lon", r.lon);
      g.writeNumberField("lat", r.lat);
      g.writeStringField("crs", "EPSG:4326");
    }
    string(g, "label", r.label);
    string(g, "precision", r.precision);
    if (r.distanceM != null) {
      g.writeNumberField("distance_m", r.distanceM);
    }
    if (!r.address.isEmpty()) {
      g.writeObjectFieldStart("address");
      for (Address.Component c : Address.components()) {
        string(g, c.key(), r.address.get(c));
      }
      g.writeEndObject();
    }
    string(g, "resolution_source", r.resolutionSource);
    string(g, "claim", r.claim == null ? null : r.claim.wire());
    if (r.confidence != null) {
      g.writeNumberField("confidence", r.confidence);
    }
    g.writeBooleanField("degraded", r.degraded);
    string(g, "notice", r.notice);
    string(g, "reason", r.reason);
    string(g, "idempotency_key", r.idempotencyKey);
    string(g, "manifest_revision", r.manifestRevision);
    if (r.transform != null) {
      g.writeObjectFieldStart("transform");
      string(g, "source_crs", r.transform.sourceCrs());
      string(g, "definition", r.transform.definition());
      string(g, "definition_hash", r.transform.definitionHash());
      g.writeEndObject();
    }
    // The walk's own facts come last (attempts, then the times): a delivery to another tenant leaves
    // this suffix out and writes its own request's facts instead (see withDelivery).
    g.writeArrayFieldStart("attempts");
    for (Attempt at : r.attempts) {
      g.writeStartObject();
      g.writeStringField("tier", at.tier());
      g.writeStringField("outcome", at.outcome());
      g.writeNumberField("tries", at.tries());
      g.writeNumberField("ms", at.ms());
      string(g, "detail", at.detail());
      g.writeEndObject();
    }
    g.writeEndArray();
    if (r.observedAtMs != null) {
      g.writeNumberField("observed_at_ms", r.observedAtMs);
    }
    g.writeNumberField("resolved_at_ms", r.resolvedAtMs);
  }

  /** Writes the per-delivery fields; {@code elapsed_ms} is always written, so this is never empty. */
  private static void writeDelivery(JsonGenerator g, String intent, String traceId, long elapsedMs, Long replayAgeS,
      boolean replayed, boolean coalesced) throws IOException {
    string(g, "intent", intent);
    string(g, "trace_id", traceId);
    g.writeNumberField("elapsed_ms", elapsedMs);
    if (replayed) {
      g.writeBooleanField("replayed", true);
    }
    if (replayAgeS != null) {
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

  private static final JsonFactory JSON = new JsonFactory();

  /**
   * The result JSON: the stable fields, then the delivery fields. Written field by field with a
   * streaming generator straight into the buffer sent: this runs for every answer a walk produces,
   * and building a {@link JsonObject} first only to encode it costs a map and an entry per field.
   */
  @Override
  public Buffer toBuffer() {
    BufferSink out = new BufferSink(0);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      writeStable(g, this);
      writeDelivery(g, intent, traceId, elapsedMs, replayAgeS, replayAgeS != null, coalesced);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return out.buffer;
  }

  /** The stored form's member naming the tenant whose request walked; never shown by a delivery. */
  public static final String WALKED_BY = "walked_by";
  private static final byte[] WALKED_BY_MEMBER = (",\"" + WALKED_BY + "\":\"").getBytes(StandardCharsets.US_ASCII);
  private static final byte[] ATTEMPTS_MEMBER = ",\"attempts\":[".getBytes(StandardCharsets.US_ASCII);

  /**
   * The JSON object of the stable fields alone, for {@link StoredAnswer}, with {@code walkedBy} (a
   * tenant id, {@code [a-z0-9][a-z0-9_.-]*}; null: none) as its last member.
   */
  byte[] encodeStable(String walkedBy) {
    ByteArrayBuilder out = new ByteArrayBuilder(1024);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      writeStable(g, this);
      if (walkedBy != null) {
        g.writeStringField(WALKED_BY, walkedBy);
      }
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    return out.toByteArray();
  }

  /**
   * A stored answer's result JSON for one delivery: the delivery fields, then the stable fields
   * copied from {@code stable} (a JSON object as {@link #encodeStable} wrote it, only read here).
   * Nothing stable is re-encoded, and {@code stable} is copied once, into the buffer sent.
   *
   * <p>What {@code viewer} sees: when the answer was walked for {@code viewer}, or {@code viewer} is
   * null (a delivery already rendered), the stored fields as they are; otherwise (another tenant's
   * walk, or one that named no tenant) its own request's facts only: the walk's suffix (attempts,
   * {@code observed_at_ms}, {@code resolved_at_ms}) is left out, {@code attempts} is empty,
   * {@code resolved_at_ms} is {@code atMs} and a replay says {@code replayed} without its age, so
   * nobody learns whether, when or how another tenant asked for the same address. The
   * {@code walked_by} member is never shown. {@code ageHidden} keeps a delivery already rendered
   * without its age so.
   */
  static Buffer withDelivery(byte[] stable, String viewer, long atMs, String intent, String traceId, long elapsedMs, Long replayAgeS,
      boolean ageHidden, boolean coalesced) {
    int tag = lastIndexOf(stable, WALKED_BY_MEMBER, stable.length);
    int end = tag >= 0 ? tag : stable.length - 1;
    boolean foreign = viewer != null && (tag < 0 || !walkedBy(stable, tag, viewer));
    if (foreign) {
      int walk = lastIndexOf(stable, ATTEMPTS_MEMBER, end);
      end = walk >= 0 ? walk : end;
    }
    BufferSink out = new BufferSink(stable.length + 40);
    try (JsonGenerator g = JSON.createGenerator(out)) {
      g.writeStartObject();
      writeDelivery(g, intent, traceId, elapsedMs, foreign || ageHidden ? null : replayAgeS, replayAgeS != null, coalesced);
      g.writeEndObject();
    } catch (IOException e) {
      throw new UncheckedIOException("writing to memory cannot fail", e);
    }
    // "{delivery}" + "{stable}" is joined as "{delivery,stable}": the closing brace becomes a comma.
    Buffer b = out.buffer;
    b.setByte(b.length() - 1, (byte) ',').appendBytes(stable, 1, end - 1);
    if (foreign) {
      b.appendString(",\"attempts\":[],\"resolved_at_ms\":").appendString(Long.toString(atMs));
    }
    return b.appendByte((byte) '}');
  }

  /** Whether the {@code walked_by} member at {@code tag} (ending the object) names {@code viewer}. */
  private static boolean walkedBy(byte[] stable, int tag, String viewer) {
    int from = tag + WALKED_BY_MEMBER.length;
    // the member is `,"walked_by":"<id>"` followed by the closing brace
    if (stable.length - 2 - from != viewer.length()) {
      return false;
    }
    for (int i = 0; i < viewer.length(); i++) {
      if (stable[from + i] != (byte) viewer.charAt(i)) {
        return false;
      }
    }
    return true;
  }

  /**
   * Where {@code member} last starts before {@code end} in {@code json}, or -1. A member's opening
   * quote cannot occur inside a string value (JSON escapes it there), so the last match is the member.
   */
  private static int lastIndexOf(byte[] json, byte[] member, int end) {
    outer:
    for (int i = end - member.length; i >= 0; i--) {
      for (int k = 0; k < member.length; k++) {
        if (json[i + k] != member[k]) {
          continue outer;
        }
      }
      return i;
    }
    return -1;
  }

  /**
   * The generator's output, straight into a Vert.x buffer allocated at the first write with room
   * for what is written plus {@code extra} bytes (the generator writes once, on close, unless its
   * own buffer fills).
   */
  private static final class BufferSink extends OutputStream {
    private final int extra;
    private Buffer buffer;

    BufferSink(int extra) {
      this.extra = extra;
    }

    @Override
    public void write(int b) {
      if (buffer == null) {
        buffer = Buffer.buffer(1 + extra);
      }
      buffer.appendByte((byte) b);
    }

    @Override
    public void write(byte[] b, int off, int len) {
      if (buffer == null) {
        buffer = Buffer.buffer(len + extra);
      }
      buffer.appendBytes(b, off, len);
    }
  }
}
