package dev.georesolver.bus;

import dev.georesolver.geo.Claim;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * An answer kept for replay, in memory or in the shared store, and the rule for replaying it. Pure
 * and immutable.
 *
 * <p>Its age always counts from when the answer was first stored: an entry read from the shared
 * store is kept in memory as it was read (same stored-at, same TTL), never re-dated.
 *
 * @param answer the stored answer
 * @param storedAtMs wall-clock epoch millis when the answer was first stored
 * @param ttlMs how long after {@code storedAtMs} it may be replayed, milliseconds
 */
public record StoredEntry(StoredAnswer answer, long storedAtMs, long ttlMs) {

  /** Milliseconds since it was first stored. */
  public long ageMs(long nowMs) {
    return nowMs - storedAtMs;
  }

  /**
   * Whether it may answer {@code c} at {@code nowMs}: the claim accepts replays at all
   * ({@code maxAgeMs > 0}), the entry is no older than the claim's maximum age and its own TTL, and
   * its claim is one the intent accepts.
   */
  public boolean replayableTo(DedupeClaim c, long nowMs) {
    long age = ageMs(nowMs);
    return c.maxAgeMs() > 0 && age <= c.maxAgeMs() && age <= ttlMs && accepts(c.acceptedClaims(), answer.claim());
  }

  /** The replay verdict for it at {@code nowMs}. */
  public DedupeVerdict replay(long nowMs) {
    return DedupeVerdict.replay(answer, ageMs(nowMs));
  }

  /**
   * Whether {@code claim} is in {@code accepted} (wire names joined with commas; empty or null:
   * every claim). An answer without a claim is accepted. Scans in place: this runs on every replay.
   */
  static boolean accepts(String accepted, Claim claim) {
    if (accepted == null || accepted.isEmpty() || claim == null) {
      return true;
    }
    String wire = claim.wire();
    int from = 0;
    while (from <= accepted.length()) {
      int end = accepted.indexOf(',', from);
      if (end < 0) {
        end = accepted.length();
      }
      if (end - from == wire.length() && accepted.startsWith(wire, from)) {
        return true;
      }
      from = end + 1;
    }
    return false;
  }

  /** The shared store's form: {@code {"stored_at_ms", "ttl_ms", "result": the stored answer}}. */
  public Buffer toBuffer() {
    Buffer b = Buffer.buffer()
        .appendString("{\"stored_at_ms\":").appendString(Long.toString(storedAtMs))
        .appendString(",\"ttl_ms\":").appendString(Long.toString(ttlMs))
        .appendString(",\"result\":");
    return answer.appendTo(b).appendByte((byte) '}');
  }

  /**
   * Reads {@link #toBuffer()}.
   *
   * @throws NullPointerException or {@link ClassCastException} when a field is missing or mistyped
   */
  public static StoredEntry fromJson(JsonObject j) {
    return new StoredEntry(StoredAnswer.fromJson(j.getJsonObject("result")), j.getLong("stored_at_ms"),
        j.getLong("ttl_ms"));
  }
}
