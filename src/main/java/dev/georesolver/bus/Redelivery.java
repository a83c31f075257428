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
 * @param ageHidden for a delivery already rendered ({@code viewer} null): whether it showed its replay
 *     without {@code replay_age_s} (it was rendered for another tenant than the walk's), so it stays so;
 *     false otherwise (a live delivery decides from {@code viewer})
 */
public record Redelivery(StoredAnswer answer, String intent, String traceId, long elapsedMs, Long replayAgeS,
                         boolean coalesced, String viewer, long atMs, boolean ageHidden) implements ResolveReply {

  /** A live delivery to {@code viewer}'s request, which decides what it shows. */
  public Redelivery(StoredAnswer answer, String intent, String traceId, long elapsedMs, Long replayAgeS, boolean coalesced,
      String viewer, long atMs) {
    this(answer, intent, traceId, elapsedMs, replayAgeS, coalesced, viewer, atMs, false);
  }

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
    return answer.withDelivery(viewer, atMs, intent, traceId, elapsedMs, replayAgeS, ageHidden, coalesced);
  }

  /**
   * Reads {@link #toJson()}: a delivery already rendered for its viewer, shown as it is; one that
   * showed a replay without its age (rendered for another tenant than the walk's) stays so.
   */
  public static Redelivery fromJson(JsonObject j) {
    Long age = j.getLong("replay_age_s");
    // A replay shown without its age is still a replay (metrics, debts and the fallback log read
    // replayAgeS as "this was a replay"); its age was not shown, so it is not known here.
    boolean ageHidden = age == null && j.getBoolean("replayed", false);
    return new Redelivery(StoredAnswer.fromJson(j), j.getString("intent"), j.getString("trace_id"),
        j.getLong("elapsed_ms", 0L), ageHidden ? Long.valueOf(0) : age, j.getBoolean("coalesced", false), null,
        j.getLong("resolved_at_ms", 0L), ageHidden);
  }
}
