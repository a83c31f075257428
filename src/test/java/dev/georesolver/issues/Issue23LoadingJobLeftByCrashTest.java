package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Codecs;
import dev.georesolver.config.Manifest;
import dev.georesolver.jobs.BatchVerticle;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.TestState;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.time.Clock;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 16: a job left loading by a crash is failed at the next start, visibly, and the same content submitted again starts a fresh job. */
@ExtendWith(VertxExtension.class)
class Issue23LoadingJobLeftByCrashTest {

  private static final String CSV = "id,address\n1,\"1 Rue du Lac, Vevey\"\n2,\"2 Rue du Lac, Vevey\"\n3,\"3 Rue du Lac, Vevey\"\n";

  private static JsonObject ask(Vertx vertx, String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, Caller.SYSTEM.on(new DeliveryOptions())).await().body();
  }

  private static Future<String> deployState(Vertx vertx, Manifest m) {
    return vertx.deployVerticle(new StateVerticle(m, "sqlite", null, false, Clock.systemUTC(), new Metrics()),
        new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER));
  }

  @Test
  @DisplayName("after a restart the job a crash left loading reads failed with its reason; the same file again is a new job")
  void staleLoadingJobIsFailedAtStart(Vertx vertx) throws Exception {
    Codecs.registerAll(vertx.eventBus());
    String path = TestState.freshFile().toString();
    Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000)
        .extra("state:\n  path: \"" + path + "\"\n").build();
    String state = deployState(vertx, m).await();
    String sha = IdempotencyKey.sha256Hex(CSV);
    BatchJob crashed = new BatchJob("b_00000000000000000001", "public", "sha256:" + sha, BatchJob.LOADING,
        new JsonObject().put("intent", m.defaultIntent()).put("slice_rows", 200).put("sha256", sha), 3, 0, 0, 0, 0, 0,
        System.currentTimeMillis(), null, null);
    ask(vertx, Addresses.STATE_BATCHES_CREATE, crashed.toJson());
    ask(vertx, Addresses.STATE_BATCHES_APPEND, new JsonObject().put("job", crashed.id()).put("rows", new JsonArray()
        .add(new JsonObject().put("i", 0).put("row", new JsonObject().put("v", new JsonArray().add("1").add("1 Rue du Lac, Vevey"))
            .put("d", "FORWARD").put("q", new JsonObject().put("q", "1 Rue du Lac, Vevey"))))));
    assertThat(ask(vertx, Addresses.STATE_BATCHES_FIND, new JsonObject().put("tenant", "public").put("idem_key", "sha256:" + sha))
        .getString("id")).as("the content's key names the job").isEqualTo(crashed.id());
    // The process dies while loading: no seal, no cancel.
    vertx.undeploy(state).await();

    deployState(vertx, m).await();
    vertx.deployVerticle(new BatchVerticle(m, Clock.systemUTC())).await();
    BatchJob after = BatchJob.fromJson(ask(vertx, Addresses.STATE_BATCHES_GET, new JsonObject().put("job", crashed.id())));
    long until = System.nanoTime() + 30_000_000_000L;
    while (after.state().equals(BatchJob.LOADING) && System.nanoTime() < until) {
      Thread.sleep(50);
      after = BatchJob.fromJson(ask(vertx, Addresses.STATE_BATCHES_GET, new JsonObject().put("job", crashed.id())));
    }
    assertThat(after.state()).isEqualTo(BatchJob.FAILED);
    assertThat(after.finishedAtMs()).isNotNull();
    assertThat(after.spec().getString("reason")).contains("submit the file again");

    var bus = vertx.eventBus();
    JsonObject open = ask(vertx, Addresses.BATCH_UPLOAD_OPEN, new JsonObject().put("tenant", "public"));
    String address = open.getString("upload");
    bus.request(address, Buffer.buffer(CSV.getBytes(StandardCharsets.UTF_8)),
        new DeliveryOptions().addHeader(Addresses.UPLOAD_OP_HEADER, Addresses.UPLOAD_CHUNK)).await();
    JsonObject again = bus.<JsonObject>request(address, Buffer.buffer(),
        new DeliveryOptions().addHeader(Addresses.UPLOAD_OP_HEADER, Addresses.UPLOAD_END)).await().body();
    assertThat(again.getBoolean("created")).as("the same content after the failed job").isTrue();
    assertThat(again.getJsonObject("job").getString("id")).isNotEqualTo(crashed.id());
  }
}
