package dev.georesolver.state;

import io.vertx.core.json.JsonObject;

/** Audit records as the store serves them (pages of {@code GET /v1/audit}). Pure and thread-safe. */
public final class AuditRows {

  private AuditRows() {}

  /**
   * A stored record as it is served ({@code GET /v1/audit}): its body's fields plus {@code seq},
   * {@code prev_hash} and {@code hash}. A body that is not JSON (a damaged store) is served as
   * {@code {"unreadable": body}} so a reader still sees it.
   */
  public static JsonObject served(String body, long seq, String prevHash, String hash) {
    JsonObject j;
    try {
      j = new JsonObject(body);
    } catch (RuntimeException e) {
      j = new JsonObject().put("unreadable", body);
    }
    return j.put("seq", seq).put("prev_hash", prevHash).put("hash", hash);
  }
}
