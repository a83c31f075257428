package dev.georesolver.ops;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * What the reconciler last said, for the operator: its status (backlog and the age of the oldest
 * degraded answer waiting for the primary) and the latest corrections. Until a status arrives the
 * dashboard shows "no reconciler". Announcements are kept to the documented fields only, strings
 * cut to {@value #MAX_TEXT} characters, so whatever arrives on the bus cannot grow what is served.
 *
 * <p>Not thread-safe: confine to one verticle.
 */
public final class ReconcileBoard {

  /** How many corrections are kept for a new dashboard. */
  public static final int CORRECTIONS_KEPT = 20;
  /** The longest string field kept, characters. */
  public static final int MAX_TEXT = 200;

  private static final List<String> STATUS_FIELDS = List.of("pending", "in_progress", "done", "dead", "oldest_pending_age_s");
  private static final List<String> CORRECTION_FIELDS = List.of("at_ms", "idempotency_key", "served_by", "corrected_by", "moved_m", "label");

  private JsonObject status;
  private final Deque<JsonObject> corrections = new ArrayDeque<>();

  /**
   * Applies an announcement of {@code geocode.reconcile.events}.
   *
   * @param nowMs wall-clock time of arrival, recorded as {@code received_at_ms}
   * @return the announcement as the operator's feed carries it, or null when its type is neither
   *     {@code reconcile} nor {@code correction}
   */
  public JsonObject on(JsonObject event, long nowMs) {
    Object type = event.getValue("type");
    if ("reconcile".equals(type)) {
      status = kept(event, "reconcile", STATUS_FIELDS, nowMs);
      return status.copy();
    }
    if ("correction".equals(type)) {
      JsonObject c = kept(event, "correction", CORRECTION_FIELDS, nowMs);
      corrections.addLast(c);
      while (corrections.size() > CORRECTIONS_KEPT) {
        corrections.removeFirst();
      }
      return c.copy();
    }
    return null;
  }

  /** The last status, or null when the reconciler never spoke (a copy). */
  public JsonObject status() {
    return status == null ? null : status.copy();
  }

  /** The latest corrections, oldest first (copies). */
  public JsonArray corrections() {
    JsonArray out = new JsonArray();
    corrections.forEach(c -> out.add(c.copy()));
    return out;
  }

  private static JsonObject kept(JsonObject event, String type, List<String> fields, long nowMs) {
    JsonObject out = new JsonObject().put("type", type).put("received_at_ms", nowMs);
    for (String f : fields) {
      Object v = event.getValue(f);
      if (v instanceof Number || v instanceof Boolean) {
        out.put(f, v);
      } else if (v instanceof String s) {
        out.put(f, s.length() > MAX_TEXT ? s.substring(0, MAX_TEXT) : s);
      }
    }
    return out;
  }
}
