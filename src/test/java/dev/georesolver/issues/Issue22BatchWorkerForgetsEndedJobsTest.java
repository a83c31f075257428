package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import io.vertx.core.eventbus.DeliveryOptions;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Codecs;
import dev.georesolver.config.Manifest;
import dev.georesolver.jobs.BatchVerticle;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.TestState;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The batch worker keeps nothing for a job once the job has ended: its per-job maps grew by one entry per job forever. */
@ExtendWith(VertxExtension.class)
class Issue22BatchWorkerForgetsEndedJobsTest {

  @Test
  @DisplayName("after six jobs are done, the worker holds state for none of them")
  void nothingIsKeptForEndedJobs(Vertx vertx) throws InterruptedException {
    Codecs.registerAll(vertx.eventBus());
    String path = TestState.freshFile().toString();
    Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000)
        .extra("state:\n  path: \"" + path + "\"\nbatch:\n  slice_rows: 3\n").build();
    vertx.deployVerticle(new StateVerticle(m, "sqlite", null, false, Clock.systemUTC(), new Metrics()),
        new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)).await();
    // A stand-in for the chain: every row resolves.
    vertx.eventBus().<JsonObject>consumer(Addresses.RESOLVE, msg -> msg.reply(new JsonObject().put("status", "resolved")
        .put("lon", 1.0).put("lat", 2.0).put("claim", "locality").put("resolution_source", "t").put("confidence", 0.5)));
    BatchVerticle worker = new BatchVerticle(m, Clock.systemUTC());
    vertx.deployVerticle(worker).await();
    List<String> ids = new ArrayList<>();
    for (int j = 0; j < 6; j++) {
      String id = "job" + j;
      ids.add(id);
      BatchJob job = new BatchJob(id, "public", "key:" + id, BatchJob.LOADING, new JsonObject().put("intent", "describe")
          .put("slice_rows", 3), 0, 0, 0, 0, 0, 0, System.currentTimeMillis(), null, null);
      vertx.eventBus().request(Addresses.STATE_BATCHES_CREATE, job.toJson(), Caller.SYSTEM.on(new DeliveryOptions())).await();
      JsonArray rows = new JsonArray();
      for (int i = 0; i < 7; i++) {
        rows.add(new JsonObject().put("i", i).put("row", new JsonObject().put("v", new JsonArray().add("Paris " + i))
            .put("d", "FORWARD").put("q", new JsonObject().put("q", "Paris " + i))));
      }
      vertx.eventBus().request(Addresses.STATE_BATCHES_APPEND, new JsonObject().put("job", id).put("rows", rows), Caller.SYSTEM.on(new DeliveryOptions())).await();
      vertx.eventBus().request(Addresses.STATE_BATCHES_SEAL, new JsonObject().put("job", id).put("total", 7)
          .put("columns", new JsonArray().add("address")), Caller.SYSTEM.on(new DeliveryOptions())).await();
    }
    long until = System.currentTimeMillis() + 20_000;
    while (System.currentTimeMillis() < until && !allDone(vertx, ids)) {
      Thread.sleep(100);
    }
    assertThat(allDone(vertx, ids)).as("every job done").isTrue();
    int held = heldBy(worker);
    while (System.currentTimeMillis() < until && held > 0) {
      Thread.sleep(100);
      held = heldBy(worker);
    }
    assertThat(held).as("jobs the worker still holds anything for").isZero();
  }

  private static int heldBy(BatchVerticle worker) {
    return worker.jobsHeld().await();
  }

  private static boolean allDone(Vertx vertx, List<String> ids) {
    for (String id : ids) {
      JsonObject j = vertx.eventBus().<JsonObject>request(Addresses.STATE_BATCHES_GET, new JsonObject().put("job", id), Caller.SYSTEM.on(new DeliveryOptions())).await().body();
      if (j == null || !BatchJob.DONE.equals(j.getString("state"))) {
        return false;
      }
    }
    return true;
  }
}
