package dev.georesolver.issues;

import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.EventStream;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
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

  private static final String PATH = "/v1/corrections/stream";
  /** How long any one step of these tests may wait: a stream that never answers fails the test, never hangs the suite. */
  private static final long STEP_S = 20;

  /** A stream request on its own client (closing it closes the stream), read from its first byte. */
  private static EventStream open(Vertx vertx, int port, String key, String lastEventId) {
    return lastEventId == null
        ? EventStream.open(vertx, port, PATH, "Authorization", "Bearer " + key)
        : EventStream.open(vertx, port, PATH, "Authorization", "Bearer " + key, "Last-Event-ID", lastEventId);
  }

  /** A stream request the resolver refuses: its status, Retry-After and whole body. */
  private record Refusal(int status, String retryAfter, String body) {}

  private static Refusal refused(Vertx vertx, int port, String key) throws Exception {
    HttpClient http = vertx.createHttpClient();
    try {
      return http.request(new RequestOptions().setMethod(HttpMethod.GET).setHost("localhost").setPort(port).setURI(PATH)
              .putHeader("Authorization", "Bearer " + key))
          .compose(req -> req.send())
          .compose(r -> r.body().map(b -> new Refusal(r.statusCode(), r.getHeader("Retry-After"), b.toString())))
          .await(STEP_S, TimeUnit.SECONDS);
    } finally {
      http.close();
    }
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
    EventStream first = open(vertx, s.port, "k-acme", null);
    assertThat(first.status()).isEqualTo(200);
    assertThat(open(vertx, s.port, "k-acme", null).status()).isEqualTo(200);
    Refusal third = refused(vertx, s.port, "k-acme");
    assertThat(third.status()).isEqualTo(429);
    assertThat(third.retryAfter()).isEqualTo("10");
    assertThat(third.body()).contains("max_streams_per_tenant", "Too Many Streams");
    assertThat(open(vertx, s.port, "k-beta", null).status()).isEqualTo(200);
    Refusal full = refused(vertx, s.port, "k-beta");
    assertThat(full.status()).as("three open in all").isEqualTo(503);
    assertThat(full.retryAfter()).isEqualTo("10");

    first.close();
    int status = 0;
    for (int k = 0; k < 200 && status != 200; k++) {
      Thread.sleep(50);
      EventStream again = open(vertx, s.port, "k-acme", null);
      status = again.status();
      if (status != 200) {
        again.close();
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

    EventStream live = open(vertx, s.port, "none", null);
    assertThat(live.status()).isEqualTo(200);
    // Once the stream is past its catch-up, a live correction with a cursor above the head is what it sends first.
    for (int k = 0; k < 200 && live.raw().stream().noneMatch(block -> block.contains("event: correction\n")); k++) {
      vertx.eventBus().publish(Addresses.CORRECTIONS, new JsonObject().put("cursor", Long.toString(1000 + k))
          .put("correction_id", "live-" + k).put("tenant", "public"));
      Thread.sleep(50);
    }
    JsonObject first = live.await("correction", Duration.ofSeconds(STEP_S)).data();
    assertThat(first.getString("correction_id")).as("the first event the stream sent").startsWith("live-");

    EventStream replay = open(vertx, s.port, "none", "0");
    assertThat(replay.status()).isEqualTo(200);
    replay.await("correction", c -> "3".equals(c.getString("cursor")), Duration.ofSeconds(STEP_S));
    assertThat(replay.raw()).anySatisfy(block -> assertThat(block).startsWith("id: 1\n"))
        .anySatisfy(block -> assertThat(block).startsWith("id: 2\n"));
  }
}
