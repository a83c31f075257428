package dev.georesolver.issues;

import ch.qos.logback.classic.Level;
import dev.georesolver.ingress.IngressVerticle;
import dev.georesolver.web.ServerLimits;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.LogCapture;
import dev.georesolver.support.RawHttp;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 9 defect 4: silent, trickling and surplus connections are shed, and live requests are still served meanwhile. */
@ExtendWith(VertxExtension.class)
class Issue9IdleConnectionsTest {

  private static final String KEEP_ALIVE_GET = "GET /v1/geocode?q=Paris HTTP/1.1\r\nHost: localhost\r\n\r\n";

  /** The resolver, plus an ingress on its own port held to {@code limits}; returns that port. */
  private static int ingress(Vertx vertx, ServerLimits limits, Metrics metrics) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest().maxBudget(1000).budget(800).tier("primary", "generic", p.url(), "exact", 500)
        .yaml()).await();
    IngressVerticle v = new IngressVerticle(s.manifest, 0, metrics, limits);
    vertx.deployVerticle(v).await();
    return v.actualPort();
  }

  private static ServerLimits limits(long idleMs, long headerMs, long bodyMs) {
    return ServerLimits.defaults().withTimeouts(idleMs, headerMs, bodyMs);
  }

  @Test
  @DisplayName("connections that send nothing are closed at the header deadline")
  void silentConnectionsAreClosed(Vertx vertx) throws IOException {
    int port = ingress(vertx, limits(30_000, 500, 10_000), new Metrics());
    List<Socket> silent = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      silent.add(RawHttp.open(port, ""));
    }
    for (Socket s : silent) {
      assertThat(RawHttp.closedWithin(s, 5000)).as("a silent connection is closed").isTrue();
      s.close();
    }
  }

  @Test
  @DisplayName("a connection trickling its headers a byte at a time is closed at the header deadline, though it never goes idle")
  void slowlorisIsClosed(Vertx vertx) throws IOException {
    int port = ingress(vertx, limits(30_000, 500, 10_000), new Metrics());
    try (Socket s = RawHttp.open(port, "GET /v1/geocode?q=Paris HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")) {
      long start = System.nanoTime();
      boolean closed = false;
      while (!closed && System.nanoTime() - start < 6_000_000_000L) {
        try {
          s.getOutputStream().write('a');
          s.getOutputStream().flush();
          closed = RawHttp.closedWithin(s, 50);
        } catch (IOException e) {
          closed = true;
        }
      }
      assertThat(closed).as("closed while still trickling").isTrue();
      assertThat((System.nanoTime() - start) / 1_000_000).as("not before the deadline").isGreaterThanOrEqualTo(400);
    }
  }

  @Test
  @DisplayName("a kept-alive connection that sends no next request is closed after the idle timeout")
  void keptAliveIdleConnectionIsClosed(Vertx vertx) throws IOException {
    int port = ingress(vertx, limits(800, 10_000, 10_000), new Metrics());
    try (Socket s = RawHttp.open(port, KEEP_ALIVE_GET)) {
      s.setSoTimeout(5000);
      assertThat(RawHttp.read(s.getInputStream()).status()).isEqualTo(200);
      assertThat(RawHttp.closedWithin(s, 5000)).isTrue();
    }
  }

  @Test
  @DisplayName("a body that does not arrive by the body deadline is answered 408 problem+json and the connection closed")
  void slowBodyIsAnswered408(Vertx vertx) throws IOException {
    int port = ingress(vertx, limits(30_000, 10_000, 500), new Metrics());
    try (Socket s = RawHttp.open(port, "POST /v1/geocode HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n"
        + "Content-Length: 40\r\n\r\n{\"q\":")) {
      s.setSoTimeout(5000);
      RawHttp.Response r = RawHttp.read(s.getInputStream());
      assertThat(r.status()).isEqualTo(408);
      assertThat(r.isProblem()).isTrue();
      assertThat(r.json().getString("field")).isEqualTo("body");
      assertThat(RawHttp.closedWithin(s, 5000)).isTrue();
    }
  }

  @Test
  @DisplayName("over the connection cap new connections are closed at once with one log line, while an open connection is still served")
  void connectionCap(Vertx vertx) throws IOException {
    Metrics metrics = new Metrics();
    int port = ingress(vertx, limits(30_000, 1500, 10_000).withMaxConnections(5), metrics);
    try (LogCapture logs = LogCapture.start(); Socket live = RawHttp.open(port, KEEP_ALIVE_GET)) {
      live.setSoTimeout(5000);
      assertThat(RawHttp.read(live.getInputStream()).status()).isEqualTo(200);
      List<Socket> hostile = new ArrayList<>();
      for (int i = 0; i < 4; i++) {
        hostile.add(RawHttp.open(port, ""));
      }
      for (int i = 0; i < 20; i++) {
        try (Socket over = RawHttp.open(port, "")) {
          assertThat(RawHttp.closedWithin(over, 2000)).as("connection over the cap is closed at once").isTrue();
        }
      }
      OutputStream out = live.getOutputStream();
      out.write(KEEP_ALIVE_GET.getBytes(StandardCharsets.ISO_8859_1));
      out.flush();
      assertThat(RawHttp.read(live.getInputStream()).status()).as("the live connection is served").isEqualTo(200);

      for (Socket h : hostile) {
        assertThat(RawHttp.closedWithin(h, 5000)).as("the silent ones are shed at the header deadline").isTrue();
        h.close();
      }
      RawHttp.Response fresh = RawHttp.exchange(port, RawHttp.get("/v1/geocode?q=Paris"));
      assertThat(fresh.status()).as("a new connection is served once they are shed").isEqualTo(200);

      assertThat(logs.atLeast(Level.WARN)).filteredOn(e -> e.getFormattedMessage().contains("connection limit 5 reached"))
          .hasSize(1);
      String scrape = metrics.scrape();
      assertThat(scrape).contains("georesolver_http_rejected_total{reason=\"connection_limit\"} 20.0");
      assertThat(scrape).contains("georesolver_http_rejected_total{reason=\"header_timeout\"} 4.0");
    }
  }
}
