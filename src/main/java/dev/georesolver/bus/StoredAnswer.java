package dev.georesolver.bus;

import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An answer as the idempotency store keeps it and hands it to replays and coalesced waiters: the
 * JSON of its stable fields (every field but the per-delivery ones, see {@link ResolveResult}),
 * encoded once when it is stored, plus only what the store, the chain and metrics read without
 * decoding — status, direction, source, claim, degraded, a refusal's reason, the manifest revision
 * and the times. One
 * byte array instead of a graph of small objects keeps the store cheap to hold and cheap for the
 * garbage collector to copy; a delivery appends the bytes as they are ({@link Redelivery}).
 *
 * <p>Deeply immutable, so the event bus passes the same instance between threads: the bytes are
 * private, written once in the constructor and only ever copied out ({@link #toBuffer()},
 * {@link #appendTo(Buffer)}). Equal when the encoded fields are equal.
 *
 * <p>It travels inside {@link DedupeVerdict} (dedupe to chain), which is why it lives here with the
 * messages rather than in the store's package.
 */
public final class StoredAnswer {

  private final byte[] stable;
  private final String status;
  private final Direction direction;
  private final String resolutionSource;
  private final Claim claim;
  private final boolean degraded;
  private final String reason;
  private final String manifestRevision;
  private final Long observedAtMs;
  private final long resolvedAtMs;

  private StoredAnswer(byte[] stable, ResolveResult r) {
    this.stable = stable;
    this.status = r.status();
    this.direction = r.direction();
    this.resolutionSource = r.resolutionSource();
    this.claim = r.claim();
    this.degraded = r.degraded();
    this.reason = r.reason();
    this.manifestRevision = r.manifestRevision();
    this.observedAtMs = r.observedAtMs();
    this.resolvedAtMs = r.resolvedAtMs();
  }

  private StoredAnswer(byte[] stable, String status, Direction direction, String resolutionSource, Claim claim,
      boolean degraded, String reason, String manifestRevision, Long observedAtMs, long resolvedAtMs) {
    this.stable = stable;
    this.status = status;
    this.direction = direction;
    this.resolutionSource = resolutionSource;
    this.claim = claim;
    this.degraded = degraded;
    this.reason = reason;
    this.manifestRevision = manifestRevision;
    this.observedAtMs = observedAtMs;
    this.resolvedAtMs = resolvedAtMs;
  }

  /**
   * An answer rebuilt from the parts a store kept of it ({@link #copyStable} and the
   * accessors): the inverse of taking it apart, for a store that holds answers as bytes. The array is
   * taken as it is, not copied: the caller hands it over and must not write to it again.
   */
  public static StoredAnswer restore(byte[] stable, String status, Direction direction, String resolutionSource,
      Claim claim, boolean degraded, String reason, String manifestRevision, Long observedAtMs, long resolvedAtMs) {
    return new StoredAnswer(java.util.Objects.requireNonNull(stable, "stable"), java.util.Objects.requireNonNull(status, "status"),
        java.util.Objects.requireNonNull(direction, "direction"), resolutionSource, claim, degraded, reason, manifestRevision,
        observedAtMs, resolvedAtMs);
  }

  /** The stored form of a result: its stable fields encoded now, its delivery fields dropped; no tenant named. */
  public static StoredAnswer of(ResolveResult r) {
    return of(r, null);
  }

  /**
   * The stored form of a result walked for {@code walkedBy} (null: no tenant named): the tenant is
   * kept as the stored form's last member ({@code walked_by}), which no delivery shows. Replayed to
   * that tenant the answer shows the walk ({@code attempts}, its times); replayed to any other, or
   * when no tenant is named, only what the replaying request did (see {@link ResolveResult#withDelivery}).
   */
  public static StoredAnswer of(ResolveResult r, String walkedBy) {
    return new StoredAnswer(r.encodeStable(walkedBy), r);
  }

  /** Reads a result JSON (the stored form, or a whole result: its delivery fields are ignored), the walking tenant with it. */
  public static StoredAnswer fromJson(JsonObject j) {
    return of(ResolveResult.fromJson(j), j.getString(ResolveResult.WALKED_BY));
  }

  /**
   * This answer replayed from the store to {@code viewer}'s request of {@code intent}, at
   * {@code atMs} (epoch ms).
   */
  public Redelivery replayed(String viewer, long atMs, String intent, String traceId, long elapsedMs, long ageS) {
    return new Redelivery(this, intent, traceId, elapsedMs, ageS, false, viewer, atMs);
  }

  /** This answer delivered to {@code viewer}'s request of {@code intent} that waited for an identical walk, at {@code atMs}. */
  public Redelivery joined(String viewer, long atMs, String intent, String traceId, long elapsedMs) {
    return new Redelivery(this, intent, traceId, elapsedMs, null, true, viewer, atMs);
  }

  /** The whole result JSON with these delivery fields, as {@code viewer} may see it; see {@link ResolveResult#withDelivery}. */
  Buffer withDelivery(String viewer, long atMs, String intent, String traceId, long elapsedMs, Long replayAgeS, boolean ageHidden,
      boolean coalesced) {
    return ResolveResult.withDelivery(stable, viewer, atMs, intent, traceId, elapsedMs, replayAgeS, ageHidden, coalesced);
  }

  /** The stored form: the JSON object of the stable fields, in a new buffer. */
  public Buffer toBuffer() {
    return appendTo(Buffer.buffer(stable.length));
  }

  /** Appends the stored form's JSON to {@code out} (a copy) and returns {@code out}. */
  public Buffer appendTo(Buffer out) {
    return out.appendBytes(stable);
  }

  /** Copies the stored form's JSON into {@code dst} at {@code offset} (it needs {@link #encodedLength()} bytes). */
  public void copyStable(byte[] dst, int offset) {
    System.arraycopy(stable, 0, dst, offset, stable.length);
  }

  /** Bytes of the stored form's JSON: what holding this answer costs, give or take its fixed fields. */
  public int encodedLength() {
    return stable.length;
  }

  /** The stored form as a JSON object. */
  public JsonObject toJson() {
    return new JsonObject(toBuffer());
  }

  /** {@code resolved} or {@code refused}. */
  public String status() {
    return status;
  }

  /** Whether a rung answered. */
  public boolean resolved() {
    return ResolveResult.RESOLVED.equals(status);
  }

  /** Forward or reverse. */
  public Direction direction() {
    return direction;
  }

  /** The tier that answered, or null. */
  public String resolutionSource() {
    return resolutionSource;
  }

  /** What the answer may claim, or null. */
  public Claim claim() {
    return claim;
  }

  /** Whether the answer came from below the first eligible rung. */
  public boolean degraded() {
    return degraded;
  }

  /** Why it was refused, or null. */
  public String reason() {
    return reason;
  }

  /** The revision of the manifest that produced it. */
  public String manifestRevision() {
    return manifestRevision;
  }

  /** For cached answers: when the entry was first resolved (epoch millis), or null. */
  public Long observedAtMs() {
    return observedAtMs;
  }

  /** When the answer was produced (epoch millis). */
  public long resolvedAtMs() {
    return resolvedAtMs;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof StoredAnswer other && Arrays.equals(stable, other.stable);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(stable);
  }

  @Override
  public String toString() {
    return "StoredAnswer" + new String(stable, StandardCharsets.UTF_8);
  }
}
