package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientResponse;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.georesolver.reconcile.Samples.debt;
import static dev.georesolver.reconcile.Samples.repair;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 12: corrections streams are capped per tenant and in all, and one without a cursor starts at now, not at the outbox's start. */
@ExtendWith(VertxExtension.class)
class Issue23StreamBoundsTest {

  private static String ladder(String extra) {
    return manifest().tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2").extra(extra).yaml();
  }

  /** How long any one step of these tests may wait: a stream that never answers fails the test, never hangs the suite. */
  private static final long STEP_S = 20;

  /** An open stream: its status, headers, and everything its body has sent so far (read from the first byte on). */
  private record Opened(HttpClientResponse response, StringBuffer seen) {
    int status() {
      return response.statusCode();
    }

    /** Waits until the body holds {@code text}, or fails after {@link #STEP_S} s. */
    String awaitSeen(String text) throws InterruptedException {
      long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(STEP_S);
      while (seen.indexOf(text) < 0) {
        assertThat(System.nanoTime()).as("the stream sent " + text + " within " + STEP_S + " s; it sent: " + seen).isLessThan(until);
        Thread.sleep(20);
      }
      return seen.toString();
    }
  }

  /**
   * A stream request on its own client (closing the client closes the stream). The body handler is set
   * on the event loop as the response arrives, so nothing the server writes before the test looks is lost.
   */
  private static Opened open(HttpClient http, int port, String key, String lastEventId) throws Exception {
    RequestOptions o = new RequestOptions().setMethod(HttpMethod.GET).setPort(port).setHost("localhost").setURI("/v1/corrections/stream")
        .putHeader("Authorization", "Bearer " + key).setTimeout(0).setConnectTimeout((int) TimeUnit.SECONDS.toMillis(STEP_S));
    if (lastEventId != null) {
      o.putHeader("Last-Event-ID", lastEventId);
    }
    StringBuffer seen = new StringBuffer();
    return http.request(o).compose(req -> req.send()).map(resp -> {
      resp.handler(b -> seen.append(b.toString()));
      resp.exceptionHandler(t -> { });
      return new Opened(resp, seen);
    }).await(STEP_S, TimeUnit.SECONDS);
  }

  @Test
  @DisplayName("past max_streams_per_tenant a tenant gets 429, past max_streams anyone 503, both with Retry-After; a closed stream gives its slot back")
  void streamsAreCapped(Vertx vertx) throws Exception {
    Stack s = Stack.deploy(vertx, ladder("""
        corrections: { max_streams_per_tenant: 2, max_streams: 3 }
        tenants:
          - { id: "acme", keys: [ { env: "ACME_KEY" } ] }
          - { id: "beta", keys: [ { env: "BETA_KEY" } ] }
        """), Map.of("ACME_KEY", "k-acme", "BETA_KEY", "k-beta"), Clock.systemUTC(), Map.of()).await(90, TimeUnit.SECONDS);
    HttpClient first = vertx.createHttpClient();
    assertThat(open(first, s.port, "k-acme", null).status()).isEqualTo(200);
    HttpClient second = vertx.createHttpClient();
    assertThat(open(second, s.port, "k-acme", null).status()).isEqualTo(200);
    Opened third = open(vertx.createHttpClient(), s.port, "k-acme", null);
    assertThat(third.status()).isEqualTo(429);
    assertThat(third.response().getHeader("Retry-After")).isEqualTo("10");
    assertThat(third.awaitSeen("max_streams_per_tenant")).contains("Too Many Streams");
    assertThat(open(vertx.createHttpClient(), s.port, "k-beta", null).status()).isEqualTo(200);
    Opened full = open(vertx.createHttpClient(), s.port, "k-beta", null);
    assertThat(full.status()).as("three open in all").isEqualTo(503);
    assertThat(full.response().getHeader("Retry-After")).isEqualTo("10");

    first.close().await(STEP_S, TimeUnit.SECONDS);
    int status = 0;
    for (int k = 0; k < 200 && status != 200; k++) {
      Thread.sleep(50);
      HttpClient again = vertx.createHttpClient();
      status = open(again, s.port, "k-acme", null).status();
      if (status != 200) {
        again.close().await(STEP_S, TimeUnit.SECONDS);
      }
    }
    assertThat(status).as("the slot the closed stream gave back").isEqualTo(200);
  }

  @Test
  @DisplayName("a stream without a cursor sends what is committed from now on, none of the outbox's history; Last-Event-ID still replays it")
  void withoutACursorTheStreamStartsAtNow(Vertx vertx) throws Exception {
    Path db = TestState.freshFile();
    try (OnContext on = OnContext.on(vertx, ThreadingModel.WORKER)) {
      TablesStore st = on.await(() -> Future.succeededFuture(TablesStore.over(SqliteTables.open(on.vertx(), db, 2, 1000),
          Clock.systemUTC(), false, null, 86_400)));
      for (int k = 0; k < 3; k++) {
        String key = "history-" + k;
        on.await(() -> st.debts().enqueue(List.of(debt(key, 100, 1000))));
        List<LeasedDebt> l = on.await(() -> st.debts().lease("r1", 1, 30_000));
        on.await(() -> st.debts().correct("r1", l.get(0), repair(System.currentTimeMillis(), null)));
      }
      on.await(() -> st.close());
    }
    Stack s = Stack.deploy(vertx, ladder("state: { path: \"" + db + "\" }\n")).await(90, TimeUnit.SECONDS);

    Opened live = open(vertx.createHttpClient(), s.port, "none", null);
    assertThat(live.status()).isEqualTo(200);
    // Once the stream is past its catch-up, a live correction with a cursor above the head is what it sends first.
    for (int k = 0; k < 200 && live.seen().indexOf("event: correction\n") < 0; k++) {
      vertx.eventBus().publish(Addresses.CORRECTIONS, new JsonObject().put("cursor", Long.toString(1000 + k))
          .put("correction_id", "live-" + k).put("tenant", "public"));
      Thread.sleep(50);
    }
    String sent = live.awaitSeen("event: correction\ndata: ");
    int at = sent.indexOf("event: correction\ndata: ") + 24;
    JsonObject first = new JsonObject(sent.substring(at, sent.indexOf("\n", at)));
    assertThat(first.getString("correction_id")).as("the first event the stream sent").startsWith("live-");

    Opened replay = open(vertx.createHttpClient(), s.port, "none", "0");
    assertThat(replay.status()).isEqualTo(200);
    assertThat(replay.awaitSeen("id: 3\n")).contains("id: 1\n", "id: 2\n");
  }
}
