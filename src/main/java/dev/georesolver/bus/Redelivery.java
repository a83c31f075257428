package dev.georesolver.bus;

import dev.georesolver.geo.Claim;
import dev.georesolver.geo.Direction;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;

/**
 * A stored answer delivered again — replayed from the idempotency store, or handed to a request
 * that waited for an identical walk — with this delivery's own fields. Immutable and thread-safe.
 *
 * <p>Its JSON is the whole result: the delivery fields, then the stored answer's bytes appended as
 * they are (nothing stable is re-encoded per delivery).
 *
 * @param answer the stored answer
 * @param intent the intent of the request served (it may differ from the walk's)
 * @param traceId this delivery's trace id
 * @param elapsedMs this delivery's time in the resolver, milliseconds
 * @param replayAgeS for a replay, the stored answer's age in seconds; null for a coalesced delivery
 * @param coalesced whether this delivery shared an identical request's walk
 * @param viewer the tenant this delivery is for: unless the answer was walked for it, the delivery
 *     shows this request's own facts (no attempts, {@code resolved_at_ms} = {@code atMs}, no
 *     {@code replay_age_s}) and nothing of the walk; null for a delivery already rendered (read back
 *     from its JSON), shown as it is
 * @param atMs when this delivery happened, epoch ms
 */
public record Redelivery(StoredAnswer answer, String intent, String traceId, long elapsedMs, Long replayAgeS,
                         boolean coalesced, String viewer, long atMs) implements ResolveReply {

  @Override
  public String status() {
    return answer.status();
  }

  @Override
  public Direction direction() {
    return answer.direction();
  }

  @Override
  public String resolutionSource() {
    return answer.resolutionSource();
  }

  @Override
  public Claim claim() {
    return answer.claim();
  }

  @Override
  public boolean degraded() {
    return answer.degraded();
  }

  @Override
  public String reason() {
    return answer.reason();
  }

  /** The result JSON: delivery fields first, then the stored bytes. */
  @Override
  public Buffer toBuffer() {
    return answer.withDelivery(viewer, atMs, intent, traceId, elapsedMs, replayAgeS, coalesced);
  }

  /**
   * Reads {@link #toJson()}: a delivery already rendered for its viewer, shown as it is; one that
   * showed a replay without its age (rendered for another tenant than the walk's) stays so.
   */
  public static Redelivery fromJson(JsonObject j) {
    Long age = j.getLong("replay_age_s");
    boolean ageHidden = age == null && j.getBoolean("replayed", false);
    return new Redelivery(StoredAnswer.fromJson(j), j.getString("intent"), j.getString("trace_id"),
        j.getLong("elapsed_ms", 0L), ageHidden ? Long.valueOf(0) : age, j.getBoolean("coalesced", false), ageHidden ? "" : null,
        j.getLong("resolved_at_ms", 0L));
  }
}
