package dev.georesolver.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Audit records handed to the state store in one message ({@link Addresses#STATE_AUDIT_APPEND}), in
 * the order they happened. Immutable.
 *
 * @param events the records, unmodifiable
 */
public record AuditBatch(List<AuditEvent> events) {

  public AuditBatch {
    events = List.copyOf(events);
  }

  public JsonObject toJson() {
    JsonArray a = new JsonArray();
    events.forEach(e -> a.add(e.toJson()));
    return new JsonObject().put("events", a);
  }

  public static AuditBatch fromJson(JsonObject j) {
    JsonArray a = j.getJsonArray("events", new JsonArray());
    List<AuditEvent> out = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      out.add(AuditEvent.fromJson(a.getJsonObject(i)));
    }
    return new AuditBatch(out);
  }
}
