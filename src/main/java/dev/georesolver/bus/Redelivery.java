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
 */
public record Redelivery(StoredAnswer answer, String intent, String traceId, long elapsedMs, Long replayAgeS,
                         boolean coalesced) implements ResolveReply {

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
    return answer.withDelivery(intent, traceId, elapsedMs, replayAgeS, coalesced);
  }

  /** Reads {@link #toJson()}. */
  public static Redelivery fromJson(JsonObject j) {
    return new Redelivery(StoredAnswer.fromJson(j), j.getString("intent"), j.getString("trace_id"),
        j.getLong("elapsed_ms", 0L), j.getLong("replay_age_s"), j.getBoolean("coalesced", false));
  }
}
