package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.config.Manifest;
import dev.georesolver.jobs.BatchVerticle;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.support.BatchJobs;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.TestState;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Issue 23 item 17: below state.min_free_mb a running batch job pauses (no slice leased, no result written, nothing failed or lost) and ends with every row counted once when space is back; results were written onto a full disk. */
@ExtendWith(VertxExtension.class)
class Issue23BatchDiskPauseTest {

  private static final int ROWS = 30;

  private static JsonObject ask(Vertx vertx, String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, Caller.SYSTEM.on(new DeliveryOptions())).await().body();
  }

  private static JsonObject job(Vertx vertx, String id) {
    return ask(vertx, Addresses.STATE_BATCHES_GET, new JsonObject().put("job", id));
  }

  private static boolean refusing(Vertx vertx) {
    return vertx.eventBus().<JsonObject>request(Addresses.STATE_STATUS, new JsonObject()).await().body().getBoolean("refusing");
  }

  @Test
  @DisplayName("the disk goes below the floor while a job runs: its answered rows wait with the worker, the job stays running, and it is done with 30 of 30 once there is room")
  void aJobPausesAndResumes(Vertx vertx) throws InterruptedException {
    Codecs.registerAll(vertx.eventBus());
    AtomicLong freeMb = new AtomicLong(10_000);
    Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000)
        .extra("state:\n  path: \"" + TestState.freshFile() + "\"\n  min_free_mb: 100\nbatch:\n  slice_rows: 5\n").build();
    vertx.deployVerticle(new StateVerticle(m, "sqlite", null, false, Clock.systemUTC(), new Metrics())
            .upkeep(dir -> freeMb.get(), 20, 60_000),
        new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)).await();
    String id = "job-disk";
    BatchJobs.submit(vertx, id, "public", ROWS, 5);

    // A stand-in for the chain: the first row answered brings the disk below the floor; every row resolves.
    AtomicInteger asked = new AtomicInteger();
    vertx.eventBus().<JsonObject>consumer(Addresses.RESOLVE, msg -> {
      if (asked.getAndIncrement() == 0) {
        freeMb.set(10);
      }
      vertx.setTimer(60, t -> msg.reply(new JsonObject().put("status", "resolved").put("lon", 1.0).put("lat", 2.0)
          .put("claim", "locality").put("resolution_source", "t").put("confidence", 0.5)));
    });
    vertx.deployVerticle(new BatchVerticle(m, Clock.systemUTC())).await();
    await("the store refuses", () -> refusing(vertx));

    // Low: a second of ticks and idle waits; the job neither ends nor fails, and no slice is leased.
    Thread.sleep(1_500);
    JsonObject low = job(vertx, id);
    assertThat(low.getString("state")).as("while the disk is low").isEqualTo(BatchJob.RUNNING);
    assertThat(low.getLong("done")).as("results written while the disk is low").isZero();
    assertThat(ask(vertx, Addresses.STATE_BATCHES_LEASE, new JsonObject().put("owner", "other").put("lease_ms", 30_000)))
        .as("a lease while the disk is low").isNull();
    Throwable record = catchThrowable(() -> ask(vertx, Addresses.STATE_BATCHES_RECORD, new JsonObject().put("job", id)
        .put("results", new JsonArray().add(new JsonObject().put("i", 0).put("result", new JsonObject().put("status", "failed"))))));
    assertThat(record).isInstanceOf(ReplyException.class);
    assertThat(((ReplyException) record).failureCode()).isEqualTo(FailureCode.STORE_UNAVAILABLE.code());
    int askedWhileLow = asked.get();
    assertThat(askedWhileLow).as("rows sent: those of the slices leased before the disk went low").isLessThan(ROWS + 1);

    freeMb.set(10_000);
    await("the job is done", () -> BatchJob.DONE.equals(job(vertx, id).getString("state")));
    JsonObject done = job(vertx, id);
    assertThat(done.getLong("done")).isEqualTo(ROWS);
    assertThat(done.getLong("resolved")).as("each row counted once, none lost").isEqualTo(ROWS);
  }

  private static void await(String what, BooleanSupplier ok) throws InterruptedException {
    long until = System.currentTimeMillis() + 20_000;
    while (!ok.getAsBoolean()) {
      if (System.currentTimeMillis() > until) {
        throw new AssertionError("timed out waiting until " + what);
      }
      Thread.sleep(50);
    }
  }
}
