package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.config.Manifest;
import dev.georesolver.jobs.BatchVerticle;
import dev.georesolver.jobs.Spool;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.TestState;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Issue 23 item 15: a write failure mid-upload (the disk full) refuses the upload with 507, keeps no job, and the same content sent again later becomes a job. */
@ExtendWith(VertxExtension.class)
class Issue23UploadWriteFailureTest {

  /** The real spool, whose writes fail with "No space left on device" once 100 KB are in while {@code full} is set. */
  private static Spool fillingUp(Vertx vertx, AtomicBoolean full) {
    Spool real = Spool.files(vertx);
    return new Spool() {
      @Override
      public void start() throws IOException {
        real.start();
      }

      @Override
      public void stop() {
        real.stop();
      }

      @Override
      public Future<Sink> open(String id) {
        return real.open(id).map(sink -> new Sink() {
          long written;

          @Override
          public Path path() {
            return sink.path();
          }

          @Override
          public Future<Void> write(Buffer data) {
            if (full.get() && written + data.length() > 100_000) {
              return Future.failedFuture(new IOException("No space left on device"));
            }
            written += data.length();
            return sink.write(data);
          }

          @Override
          public Future<Void> close() {
            return sink.close();
          }
        });
      }

      @Override
      public Future<Void> delete(Path path) {
        return real.delete(path);
      }
    };
  }

  /** Sends {@code content} as the ingress does: open, chunks one at a time, end; the reply of the end. */
  private static Future<JsonObject> upload(Vertx vertx, byte[] content) {
    var bus = vertx.eventBus();
    return bus.<JsonObject>request(Addresses.BATCH_UPLOAD_OPEN, new JsonObject().put("tenant", "public")).compose(open -> {
      String address = open.body().getString("upload");
      int chunk = open.body().getInteger("chunk_bytes");
      Future<?> sent = Future.succeededFuture();
      for (int at = 0; at < content.length; at += chunk) {
        Buffer piece = Buffer.buffer(content).getBuffer(at, Math.min(content.length, at + chunk));
        sent = sent.compose(v -> bus.request(address, piece,
            new DeliveryOptions().addHeader(Addresses.UPLOAD_OP_HEADER, Addresses.UPLOAD_CHUNK)));
      }
      return sent.compose(v -> bus.<JsonObject>request(address, Buffer.buffer(),
          new DeliveryOptions().addHeader(Addresses.UPLOAD_OP_HEADER, Addresses.UPLOAD_END))).map(m -> m.body());
    });
  }

  @Test
  @DisplayName("a 600 KB upload whose writes fail at 100 KB is refused 507 and leaves no job; sent again with room, it becomes a job with every row")
  void writeFailureKeepsNoJob(Vertx vertx) throws Exception {
    Codecs.registerAll(vertx.eventBus());
    String path = TestState.freshFile().toString();
    Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000)
        .extra("state:\n  path: \"" + path + "\"\n").build();
    vertx.deployVerticle(new StateVerticle(m, "sqlite", null, false, Clock.systemUTC(), new Metrics()),
        new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER)).await();
    AtomicBoolean full = new AtomicBoolean(true);
    vertx.deployVerticle(new BatchVerticle(m, Clock.systemUTC(), v -> fillingUp(v, full))).await();
    StringBuilder csv = new StringBuilder("id,address\n");
    for (int i = 0; csv.length() < 600_000; i++) {
      csv.append(i).append(",\"").append(i).append(" Avenue de la Gare, Lausanne\"\n");
    }
    long rows = csv.chars().filter(c -> c == '\n').count() - 1;
    byte[] content = csv.toString().getBytes(StandardCharsets.UTF_8);

    Throwable refused = catchThrowable(() -> upload(vertx, content).await());
    assertThat(refused).isInstanceOf(ReplyException.class);
    assertThat(((ReplyException) refused).failureCode()).isEqualTo(FailureCode.REFUSED.code());
    JsonObject problem = new JsonObject(refused.getMessage());
    assertThat(problem.getInteger("status")).isEqualTo(507);
    assertThat(problem.getString("detail")).contains("nothing was stored");
    JsonObject listed = vertx.eventBus().<JsonObject>request(Addresses.STATE_BATCHES_LIST, new JsonObject().put("limit", 10),
        Caller.SYSTEM.on(new DeliveryOptions()))
        .await().body();
    assertThat(listed.getJsonArray("batches")).as("jobs after the refused upload").isEmpty();

    full.set(false);
    JsonObject again = upload(vertx, content).await();
    assertThat(again.getBoolean("created")).as("the same content later is a new job, not a truncated one").isTrue();
    assertThat(again.getJsonObject("job").getLong("total")).isEqualTo(rows);
  }
}
