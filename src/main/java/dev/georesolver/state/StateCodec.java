package dev.georesolver.state;

import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Debt;
import dev.georesolver.state.rules.AuditRules;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.QueueItem;
import io.vertx.core.json.JsonObject;

import java.nio.charset.StandardCharsets;

/**
 * How the modules' records are written as row and entry bodies: JSON, one place per record. A field
 * added to a record is added here and nowhere in a backend. Pure and thread-safe.
 */
final class StateCodec {

  private StateCodec() {}

  static byte[] bytes(JsonObject j) {
    return j.toBuffer().getBytes();
  }

  static JsonObject json(byte[] b) {
    return new JsonObject(new String(b, StandardCharsets.UTF_8));
  }

  static byte[] item(QueueItem i) {
    return bytes(new JsonObject().put("debt", i.debt().toJson()).put("state", i.state()).put("attempts", i.attempts())
        .put("not_before_ms", i.notBeforeMs()).put("lease_owner", i.leaseOwner()).put("lease_until_ms", i.leaseUntilMs())
        .put("accepted_at_ms", i.acceptedAtMs()).put("outcome", i.outcome()).put("last_error", i.lastError())
        .put("updated_at_ms", i.updatedAtMs()));
  }

  static QueueItem item(byte[] b) {
    return item(null, b);
  }

  /** An item as stored under the row key {@code key} (null: the debt's own key); the row keeps its key. */
  static QueueItem item(String key, byte[] b) {
    JsonObject j = json(b);
    Debt d = Debt.fromJson(j.getJsonObject("debt"));
    return new QueueItem(key != null ? key : d.debtKey(), d, j.getString("state"), j.getInteger("attempts", 0), j.getLong("not_before_ms", 0L),
        j.getString("lease_owner"), j.getLong("lease_until_ms"), j.getLong("accepted_at_ms", d.acceptedAtMs()),
        j.getString("outcome"), j.getString("last_error"), j.getLong("updated_at_ms", 0L));
  }

  static byte[] job(BatchJob j) {
    return bytes(j.toJson());
  }

  static BatchJob job(byte[] b) {
    return BatchJob.fromJson(json(b));
  }

  static byte[] slice(BatchRules.Slice s) {
    return bytes(new JsonObject().put("owner", s.owner()).put("lease_until_ms", s.leaseUntilMs()).put("done", s.done()));
  }

  static BatchRules.Slice slice(byte[] b) {
    JsonObject j = json(b);
    return new BatchRules.Slice(j.getString("owner"), j.getLong("lease_until_ms", 0L), j.getBoolean("done", false));
  }

  /** An audit chain entry: the record's id, time, previous hash, hash and canonical body. */
  static byte[] link(AuditRules.Link l) {
    return bytes(new JsonObject().put("i", l.id()).put("t", l.tsMs()).put("p", l.prevHash()).put("h", l.hash()).put("b", l.body()));
  }

  static AuditRules.Link link(long seq, byte[] b) {
    JsonObject j = json(b);
    return new AuditRules.Link(seq, j.getString("i"), j.getLong("t", 0L), j.getString("p"), j.getString("h"), j.getString("b"));
  }

  /** The field that marks a body written by the migration and not changed since (the store's own writes leave it out). */
  private static final String IMPORTED = "imported";

  /** {@code body} (a JSON object) marked as written by the migration. */
  static byte[] imported(byte[] body) {
    return bytes(json(body).put(IMPORTED, true));
  }

  /** Whether {@code body} was written by the migration and nothing changed it since. */
  static boolean isImported(byte[] body) {
    try {
      return json(body).getBoolean(IMPORTED, false);
    } catch (RuntimeException notJson) {
      return false;
    }
  }
}
