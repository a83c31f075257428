package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.client.HttpResponse;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.net.Socket;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 14: loading a batch never holds a shared worker waiting for the store (it loads on a one-thread worker pool), and concurrent uploads are capped with 503 and Retry-After. */
class Issue23BatchLoadingOwnPoolTest {

  private static String csv(int rows, String tag) {
    StringBuilder b = new StringBuilder("id,address\n");
    for (int i = 0; i < rows; i++) {
      b.append(i).append(",\"").append(i).append(" Main St ").append(tag).append("\"\n");
    }
    return b.toString();
  }

  private static HttpResponse<Buffer> post(Stack s, String body) {
    return s.client.request(HttpMethod.POST, s.port, "localhost", "/v1/batches").sendBuffer(Buffer.buffer(body)).await();
  }

  private static String awaitEnd(Stack s, String id, long ms) throws InterruptedException {
    long until = System.nanoTime() + ms * 1_000_000;
    String state = "";
    while (!(state.equals("done") || state.equals("cancelled") || state.equals("failed")) && System.nanoTime() < until) {
      Thread.sleep(100);
      state = s.get("/v1/batches/" + id).await().bodyAsJsonObject().getString("state");
    }
    return state;
  }

  @Test
  @DisplayName("with a worker pool of one thread, a 1,600-row upload (four chunks through the SQLite store) is loaded and done")
  void loadsOnItsOwnPool() throws Exception {
    Vertx vertx = Vertx.vertx(new VertxOptions().setWorkerPoolSize(1));
    try {
      FakeProvider p = FakeProvider.start(vertx, json(generic(6.1, 46.2, "EPSG:4326", 0.95))).await();
      Stack s = Stack.deploy(vertx, manifest().tier("stand_in", "generic", p.url(), "exact", 6000).yaml()).await();
      HttpResponse<Buffer> created = post(s, csv(1600, "one-thread"));
      assertThat(created.statusCode()).as(created.bodyAsString()).isEqualTo(201);
      assertThat(awaitEnd(s, created.bodyAsJsonObject().getString("id"), 90_000)).isEqualTo("done");
    } finally {
      vertx.close().await();
    }
  }

  @Test
  @DisplayName("with batch.max_uploads 1, a second upload while one is arriving is 503 with Retry-After; once the first is gone, uploads are taken again")
  void uploadsAreCapped() throws Exception {
    Vertx vertx = Vertx.vertx();
    try {
      AtomicInteger chunks = new AtomicInteger();
      vertx.eventBus().addOutboundInterceptor(ctx -> {
        if (ctx.message().address().startsWith("geocode.batch.upload.") && ctx.body() instanceof Buffer b && b.length() > 0) {
          chunks.incrementAndGet();
        }
        ctx.next();
      });
      FakeProvider p = FakeProvider.start(vertx, json(generic(6.1, 46.2, "EPSG:4326", 0.95))).await();
      Stack s = Stack.deploy(vertx, manifest().tier("stand_in", "generic", p.url(), "exact", 6000)
          .extra("batch: { max_uploads: 1 }").yaml()).await();
      String part = csv(12_000, "slow upload");
      Socket first = RawHttp.open(s.port, "POST /v1/batches HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\n"
          + "Content-Length: " + (part.length() * 2) + "\r\n\r\n" + part);
      long until = System.nanoTime() + 30_000_000_000L;
      while (chunks.get() == 0 && System.nanoTime() < until) {
        Thread.sleep(20);
      }
      assertThat(chunks.get()).as("the first upload is arriving").isPositive();

      HttpResponse<Buffer> second = post(s, csv(10, "second"));
      assertThat(second.statusCode()).as(second.bodyAsString()).isEqualTo(503);
      assertThat(second.getHeader("Retry-After")).isNotNull().matches("\\d+");
      assertThat(second.bodyAsJsonObject().getString("detail")).contains("batch.max_uploads");

      first.close();
      HttpResponse<Buffer> third = post(s, csv(10, "third"));
      while (third.statusCode() == 503 && System.nanoTime() < until) {
        Thread.sleep(50);
        third = post(s, csv(10, "third"));
      }
      assertThat(third.statusCode()).as(third.bodyAsString()).isEqualTo(201);
    } finally {
      vertx.close().await();
    }
  }
}
