package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * What happened at one rung during a walk, as listed in the result's {@code attempts}.
 *
 * @param tier the tier's name
 * @param outcome {@code hit}, a failure class ({@code transient}, {@code no_match}, …),
 *     {@code skipped_admission}, {@code skipped_breaker_open}, {@code skipped_rate_limited},
 *     {@code deadline} or {@code unavailable}
 * @param tries HTTP attempts made at the rung
 * @param ms milliseconds spent at the rung
 * @param detail short reason, or null
 */
public record Attempt(String tier, String outcome, int tries, long ms, String detail) {

  public JsonObject toJson() {
    JsonObject j = new JsonObject().put("tier", tier).put("outcome", outcome).put("tries", tries).put("ms", ms);
    if (detail != null) {
      j.put("detail", detail);
    }
    return j;
  }

  public static Attempt fromJson(JsonObject j) {
    return new Attempt(j.getString("tier"), j.getString("outcome"), j.getInteger("tries", 0), j.getLong("ms", 0L),
        j.getString("detail"));
  }
}
