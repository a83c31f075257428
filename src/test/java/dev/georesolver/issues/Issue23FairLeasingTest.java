package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Codecs;
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
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 17: batch leasing takes turns across tenants: one tenant's four large jobs queued first do not keep another tenant's small job waiting until one of them ends. */
@ExtendWith(VertxExtension.class)
class Issue23FairLeasingTest {

  private static void submit(Vertx vertx, String id, String tenant, int total) {
    BatchJobs.submit(vertx, id, tenant, total, 10);
  }

  @Test
  @DisplayName("acme's four 1,000-row jobs are queued before beta's 10-row job; beta's job is done while none of acme's has ended")
  void aSmallJobIsNotStarved(Vertx vertx) throws InterruptedException {
    Codecs.registerAll(vertx.eventBus());
    Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000)
        .extra("state:\n  path: \"" + TestState.freshFile() + "\"\nbatch:\n  slice_rows: 10\n").build();
    vertx.deployVerticle(new StateVerticle(m, "sqlite", null, false, Clock.systemUTC(), new Metrics()),
        new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)).await();
    List<String> acme = new ArrayList<>();
    for (int j = 0; j < 4; j++) {
      acme.add("acme-" + j);
      submit(vertx, "acme-" + j, "acme", 1_000);
      Thread.sleep(2);
    }
    submit(vertx, "beta-0", "beta", 10);
    // A stand-in for the chain: each row resolves after 20 ms.
    vertx.eventBus().<JsonObject>consumer(Addresses.RESOLVE, msg -> vertx.setTimer(20, t -> msg.reply(new JsonObject()
        .put("status", "resolved").put("lon", 1.0).put("lat", 2.0).put("claim", "locality").put("resolution_source", "t")
        .put("confidence", 0.5))));
    vertx.deployVerticle(new BatchVerticle(m, Clock.systemUTC())).await();

    long until = System.currentTimeMillis() + 60_000;
    while (!BatchJob.DONE.equals(BatchJobs.ask(vertx, Addresses.STATE_BATCHES_GET, new JsonObject().put("job", "beta-0")).getString("state"))
        && System.currentTimeMillis() < until) {
      Thread.sleep(20);
    }
    assertThat(BatchJobs.ask(vertx, Addresses.STATE_BATCHES_GET, new JsonObject().put("job", "beta-0")).getString("state")).isEqualTo(BatchJob.DONE);
    List<String> acmeStates = acme.stream().map(id -> BatchJobs.ask(vertx, Addresses.STATE_BATCHES_GET, new JsonObject().put("job", id))
        .getString("state")).toList();
    assertThat(acmeStates).as("acme's jobs when beta's was done").doesNotContain(BatchJob.DONE);
  }
}
