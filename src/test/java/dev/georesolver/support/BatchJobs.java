package dev.georesolver.support;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Caller;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

/**
 * Puts a batch job straight into a running state verticle over the bus, as the batch upload does
 * (create, append the rows, seal), for tests of the batch worker that need no HTTP upload. Rows are
 * {@code Paris 0}, {@code Paris 1}, ..., forward, intent {@code describe}. Blocks the calling thread
 * (a test's), never an event loop.
 */
public final class BatchJobs {

  private BatchJobs() {
  }

  /** Creates, fills and seals job {@code id} of {@code tenant} with {@code total} rows in slices of {@code sliceRows}. */
  public static void submit(Vertx vertx, String id, String tenant, int total, int sliceRows) {
    ask(vertx, Addresses.STATE_BATCHES_CREATE, new BatchJob(id, tenant, "key:" + id, BatchJob.LOADING, new JsonObject()
        .put("intent", "describe").put("slice_rows", sliceRows), total, 0, 0, 0, 0, 0, System.currentTimeMillis(), null, null)
        .toJson());
    JsonArray rows = new JsonArray();
    for (int i = 0; i < total; i++) {
      rows.add(new JsonObject().put("i", i).put("row", new JsonObject().put("v", new JsonArray().add("Paris " + i))
          .put("d", "FORWARD").put("q", new JsonObject().put("q", "Paris " + i))));
    }
    ask(vertx, Addresses.STATE_BATCHES_APPEND, new JsonObject().put("job", id).put("rows", rows));
    ask(vertx, Addresses.STATE_BATCHES_SEAL, new JsonObject().put("job", id).put("total", total)
        .put("columns", new JsonArray().add("address")));
  }

  /** One request to the state verticle as the resolver itself, its reply's body. */
  public static JsonObject ask(Vertx vertx, String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, Caller.SYSTEM.on(new DeliveryOptions())).await().body();
  }
}
