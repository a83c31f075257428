package dev.georesolver.audit;

import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.ResolveReply;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.ladder.FallbackLog;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.time.Instant;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What goes into the audit trail, and the record's fields. Pure and thread-safe.
 *
 * <p>A record is made for every <b>fallback activation</b> ({@link FallbackLog#activated}): a
 * degraded answer ({@code kind: "degraded"}), a refusal after at least one rung failed or was skipped
 * ({@code "refused"}), a correction issued by the reconciler ({@code "correction"}); and, with
 * {@code audit.level: all}, for every other answer ({@code "answer"}, replays and coalesced
 * deliveries included).
 *
 * <p>Fields (null ones left out): {@code id}, {@code kind}, {@code ts} (ISO-8601 UTC) and
 * {@code ts_ms}, {@code tenant}, {@code trace_id}, {@code idempotency_key}, {@code intent},
 * {@code direction}, {@code status}, {@code reason}, {@code resolution_source}, {@code claim},
 * {@code precision}, {@code confidence}, {@code degraded}, {@code transform} ({@code source_crs},
 * {@code definition_hash}), {@code manifest_revision}, {@code attempts} (each {@code tier},
 * {@code outcome}, {@code tries}, {@code ms}: never a provider's text), {@code replay_age_s},
 * {@code coalesced}; a correction adds {@code correction_id}, {@code before} ({@code resolution_source},
 * {@code claim}, {@code confidence}) and {@code moved_m}. Neither the address asked nor the point is
 * recorded, and no credential can reach a record: it is built from the result's own fields.
 */
public final class AuditRecords {

  private AuditRecords() {}

  /**
   * The record of one answer, or null when it is not recorded: not a fallback activation and
   * {@code all} is false.
   *
   * @param tenant whose request it answered
   * @param all whether every answer is recorded ({@code audit.level: all})
   * @param nowMs when, epoch milliseconds
   */
  public static AuditEvent of(String tenant, ResolveReply reply, boolean all, long nowMs) {
    String kind;
    if (reply instanceof ResolveResult r && FallbackLog.activated(r)) {
      kind = r.resolved() ? "degraded" : "refused";
    } else if (all) {
      kind = "answer";
    } else {
      return null;
    }
    JsonObject result = reply.toJson();
    JsonObject b = head(kind, tenant, nowMs);
    b.put("trace_id", result.getString("trace_id"));
    answer(b, result);
    b.put("replay_age_s", result.getValue("replay_age_s"));
    if (result.getBoolean("coalesced", false)) {
      b.put("coalesced", true);
    }
    return event(b);
  }

  /**
   * The record of a correction the reconciler committed.
   *
   * @param traceId the original request's trace id, or null
   */
  public static AuditEvent correction(Correction c, String traceId, long nowMs) {
    JsonObject b = head("correction", c.tenant(), nowMs);
    b.put("trace_id", traceId);
    answer(b, c.answer().toJson());
    b.put("idempotency_key", c.idempotencyKey())
        .put("intent", c.intent())
        .put("correction_id", c.correctionId())
        .put("before", new JsonObject().put("resolution_source", c.before().resolutionSource()).put("claim", c.before().claim())
            .put("confidence", c.before().confidence()))
        .put("moved_m", c.movedM())
        .put("correction_reason", c.reason());
    return event(b);
  }

  private static JsonObject head(String kind, String tenant, long nowMs) {
    return new JsonObject()
        .put("id", newId(nowMs))
        .put("kind", kind)
        .put("ts", Instant.ofEpochMilli(nowMs).toString())
        .put("ts_ms", nowMs)
        .put("tenant", tenant);
  }

  /** The answer's fields a compliance reviewer needs: which rung, what claim and precision, how it got there. */
  private static void answer(JsonObject b, JsonObject result) {
    for (String k : new String[] {"idempotency_key", "intent", "direction", "status", "reason", "resolution_source", "claim",
        "precision", "confidence", "degraded", "manifest_revision"}) {
      b.put(k, result.getValue(k));
    }
    JsonObject t = result.getJsonObject("transform");
    if (t != null) {
      String hash = t.getString("definition_hash");
      b.put("transform", new JsonObject().put("source_crs", t.getString("source_crs"))
          .put("definition_hash", hash == null || hash.isEmpty() ? null : hash));
    }
    JsonArray attempts = new JsonArray();
    JsonArray in = result.getJsonArray("attempts", new JsonArray());
    for (int i = 0; i < in.size(); i++) {
      JsonObject a = in.getJsonObject(i);
      attempts.add(new JsonObject().put("tier", a.getString("tier")).put("outcome", a.getString("outcome"))
          .put("tries", a.getValue("tries")).put("ms", a.getValue("ms")));
    }
    b.put("attempts", attempts);
  }

  private static AuditEvent event(JsonObject b) {
    return new AuditEvent(b.getString("tenant"), b.getString("id"), b.getLong("ts_ms"), CanonicalJson.canonical(b));
  }

  /** A record id: its millisecond in hex and 64 random bits, so ids sort roughly by time and never repeat in practice. */
  static String newId(long nowMs) {
    return id(nowMs, ThreadLocalRandom.current().nextLong());
  }

  /** The id of {@code random} at {@code nowMs}: both in lower-case hex, the random part always 16 digits. */
  static String id(long nowMs, long random) {
    // Not String.format: it parses its pattern (with a regular expression) at every call.
    String r = Long.toHexString(random);
    return Long.toHexString(nowMs) + "-" + "0".repeat(16 - r.length()) + r;
  }
}
