package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.Codecs;
import dev.georesolver.config.Manifest;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.TestState;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 17: batch.keep_days is applied: the state store's housekeeping removes a job that ended more than keep_days ago (a GET then finds no job: 404), while a live job of the same age stays. */
@ExtendWith(VertxExtension.class)
class Issue23BatchExpiryTest {

  private static JsonObject ask(Vertx vertx, String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, Caller.SYSTEM.on(new DeliveryOptions())).await().body();
  }

  private static JsonObject get(Vertx vertx, String id) {
    return ask(vertx, Addresses.STATE_BATCHES_GET, new JsonObject().put("job", id));
  }

  private static void submit(Vertx vertx, FakeClock clock, String id) {
    ask(vertx, Addresses.STATE_BATCHES_CREATE, new BatchJob(id, "public", "key:" + id, BatchJob.LOADING, new JsonObject()
        .put("intent", "describe").put("slice_rows", 2), 3, 0, 0, 0, 0, 0, clock.millis(), null, null).toJson());
    JsonArray rows = new JsonArray();
    for (int i = 0; i < 3; i++) {
      rows.add(new JsonObject().put("i", i).put("row", new JsonObject().put("v", new JsonArray().add("Paris " + i))
          .put("d", "FORWARD").put("q", new JsonObject().put("q", "Paris " + i))));
    }
    ask(vertx, Addresses.STATE_BATCHES_APPEND, new JsonObject().put("job", id).put("rows", rows));
    ask(vertx, Addresses.STATE_BATCHES_SEAL, new JsonObject().put("job", id).put("total", 3).put("columns", new JsonArray().add("address")));
  }

  @Test
  @DisplayName("with keep_days 2, a job cancelled three days ago is gone (job, rows, name); a queued job as old is kept")
  void endedJobsExpire(Vertx vertx) throws InterruptedException {
    Codecs.registerAll(vertx.eventBus());
    FakeClock clock = new FakeClock();
    Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000)
        .extra("state:\n  path: \"" + TestState.freshFile() + "\"\nbatch:\n  keep_days: 2\n").build();
    vertx.deployVerticle(new StateVerticle(m, "sqlite", null, false, clock, new Metrics())
            .upkeep(StateVerticle.FILE_STORE, 10_000, 50),
        new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)).await();
    submit(vertx, clock, "ended");
    submit(vertx, clock, "live");
    ask(vertx, Addresses.STATE_BATCHES_CANCEL, new JsonObject().put("job", "ended"));
    clock.advance(Duration.ofDays(1));
    Thread.sleep(300);
    assertThat(get(vertx, "ended")).as("a day after it ended").isNotNull();

    clock.advance(Duration.ofDays(2));
    long until = System.currentTimeMillis() + 10_000;
    while (get(vertx, "ended") != null && System.currentTimeMillis() < until) {
      Thread.sleep(50);
    }
    assertThat(get(vertx, "ended")).as("three days after it ended, with keep_days 2").isNull();
    assertThat(ask(vertx, Addresses.STATE_BATCHES_FIND, new JsonObject().put("tenant", "public").put("idem_key", "key:ended")))
        .as("its idempotency name").isNull();
    assertThat(ask(vertx, Addresses.STATE_BATCHES_LIST, new JsonObject().put("limit", 10)).getJsonArray("batches"))
        .extracting(j -> ((JsonObject) j).getString("id")).containsExactly("live");
    assertThat(get(vertx, "live").getString("state")).as("a job that has not ended is kept whatever its age").isEqualTo(BatchJob.QUEUED);
  }
}
