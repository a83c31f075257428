package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;

/**
 * A debt leased by one reconciler: its store id (a row id, or a stream entry id), the debt as the
 * store holds it now, and how many attempts already failed. Immutable.
 *
 * @param id the store's id of this lease's entry
 * @param debt the debt
 * @param attempts attempts that failed before this lease
 */
public record LeasedDebt(String id, Debt debt, int attempts) {

  public JsonObject toJson() {
    return new JsonObject().put("id", id).put("debt", debt.toJson()).put("attempts", attempts);
  }

  public static LeasedDebt fromJson(JsonObject j) {
    return new LeasedDebt(j.getString("id"), Debt.fromJson(j.getJsonObject("debt")), j.getInteger("attempts", 0));
  }
}
