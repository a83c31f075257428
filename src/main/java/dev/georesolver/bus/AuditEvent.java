package dev.georesolver.bus;

import dev.georesolver.state.rules.AuditChain;
import io.vertx.core.json.JsonObject;

/**
 * One audit record before the state store places it in its tenant's chain (it adds {@code seq},
 * {@code prev_hash} and {@code hash}). Immutable.
 *
 * @param tenant whose partition it goes to
 * @param id its id, unique (a retried batch is not recorded twice where the store can tell)
 * @param tsMs when it happened, epoch milliseconds (also {@code ts} in the body)
 * @param body its canonical JSON ({@code audit.CanonicalJson}), exactly the
 *     text that is hashed
 */
public record AuditEvent(String tenant, String id, long tsMs, String body) {

  public JsonObject toJson() {
    return new JsonObject().put("tenant", tenant).put("id", id).put("ts_ms", tsMs).put("body", body);
  }

  public static AuditEvent fromJson(JsonObject j) {
    return new AuditEvent(j.getString("tenant"), j.getString("id"), j.getLong("ts_ms", 0L), j.getString("body"));
  }
}
