package dev.georesolver.bus;

import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.List;

/**
 * Debts handed to the state store in one message ({@link Addresses#STATE_DEBTS_ENQUEUE}): a chain
 * instance buffers them and flushes every few milliseconds. Immutable.
 *
 * @param debts the debts, unmodifiable
 */
public record DebtBatch(List<Debt> debts) {

  public DebtBatch {
    debts = List.copyOf(debts);
  }

  public JsonObject toJson() {
    JsonArray a = new JsonArray();
    debts.forEach(d -> a.add(d.toJson()));
    return new JsonObject().put("debts", a);
  }

  public static DebtBatch fromJson(JsonObject j) {
    JsonArray a = j.getJsonArray("debts", new JsonArray());
    List<Debt> out = new ArrayList<>(a.size());
    for (int i = 0; i < a.size(); i++) {
      out.add(Debt.fromJson(a.getJsonObject(i)));
    }
    return new DebtBatch(out);
  }
}
