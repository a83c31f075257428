package dev.georesolver.jobs;

import dev.georesolver.batch.BatchRow;
import dev.georesolver.geo.Direction;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A batch row as the store keeps it: {@code {"v": [input values…], "d": "FORWARD"|"REVERSE"|null,
 * "q": request JSON|null, "p": problem|null}} — the input kept whole, so the results carry it.
 */
public final class StoredRows {

  private StoredRows() {}

  /** The stored form of {@code row}. */
  public static JsonObject of(BatchRow row) {
    JsonArray v = new JsonArray(new ArrayList<>(row.values()));
    return new JsonObject().put("v", v).put("d", row.direction() == null ? null : row.direction().name())
        .put("q", row.request()).put("p", row.problem());
  }

  /** The row back, at {@code index}. */
  public static BatchRow row(long index, JsonObject stored) {
    JsonArray v = stored.getJsonArray("v", new JsonArray());
    List<Object> values = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      values.add(v.getValue(i));
    }
    String d = stored.getString("d");
    return new BatchRow(index, Collections.unmodifiableList(values), d == null ? null : Direction.valueOf(d),
        stored.getJsonObject("q"), stored.getString("p"));
  }
}
