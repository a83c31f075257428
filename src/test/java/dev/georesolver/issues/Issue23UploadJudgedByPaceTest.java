package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 13: a batch upload is judged by its pace over a window, not cut off at body_timeout_ms. */
@ExtendWith(VertxExtension.class)
class Issue23UploadJudgedByPaceTest {

  private static Stack deploy(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(6.1, 46.2, "EPSG:4326", 0.95))).await();
    return Stack.deploy(vertx, manifest().tier("stand_in", "generic", p.url(), "exact", 6000)
        .extra("server: { body_timeout_ms: 500 }\nbatch: { upload_min_bytes_per_s: 2000, upload_window_ms: 1000 }").yaml()).await();
  }

  private static String csv(int rows) {
    StringBuilder b = new StringBuilder("id,address\n");
    for (int i = 0; i < rows; i++) {
      b.append(i).append(",\"").append(i).append(" Chemin des Vignes, Pully\"\n");
    }
    return b.toString();
  }

  @Test
  @DisplayName("an upload taking about 3 s at about 20 KB/s, six times server.body_timeout_ms, is taken (201)")
  void steadyUploadOutlivesTheBodyTimeout(Vertx vertx) throws Exception {
    Stack s = deploy(vertx);
    byte[] body = csv(2000).getBytes(StandardCharsets.UTF_8);
    try (Socket sock = RawHttp.open(s.port, "POST /v1/batches HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\n"
        + "Content-Length: " + body.length + "\r\nConnection: close\r\n\r\n")) {
      OutputStream out = sock.getOutputStream();
      int step = Math.max(1, body.length / 30);
      for (int at = 0; at < body.length; at += step) {
        out.write(body, at, Math.min(step, body.length - at));
        out.flush();
        Thread.sleep(100);
      }
      RawHttp.Response r = RawHttp.read(sock.getInputStream());
      assertThat(r.status()).as(r.body()).isEqualTo(201);
    }
  }

  @Test
  @DisplayName("an upload that stalls is cut off with 408 naming the minimum pace, once a window has passed")
  void stalledUploadIsCut(Vertx vertx) throws Exception {
    Stack s = deploy(vertx);
    String part = csv(20);
    try (Socket sock = RawHttp.open(s.port, "POST /v1/batches HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/csv\r\n"
        + "Content-Length: 1000000\r\n\r\n" + part)) {
      sock.setSoTimeout(30_000);
      RawHttp.Response r = RawHttp.read(sock.getInputStream());
      assertThat(r.status()).isEqualTo(408);
      assertThat(r.body()).contains("batch.upload_min_bytes_per_s");
    }
  }
}
