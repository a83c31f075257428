package dev.georesolver.issues;

import dev.georesolver.bus.Debt;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.corrections.Signature;
import dev.georesolver.geo.Direction;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

import static dev.georesolver.reconcile.Samples.repair;
import static dev.georesolver.reconcile.Samples.request;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23 item 10: webhooks sign a timestamp, receive only their tenants' corrections, read a bounded answer, and dead-letter what is always refused. */
@ExtendWith(VertxExtension.class)
class Issue23WebhooksTest {

  private static final String SECRET = "whsec-23-hooks";

  /** One delivery as the receiver saw it. */
  record Seen(String cursor, String tenant, boolean valid, boolean replayLaterValid) {}

  private static Debt debt(String key, String tenant) {
    return new Debt(key, "describe", Direction.FORWARD, tenant, request("addr " + key), "fallback", "resolved", null,
        "open_data", 2.35, 48.85, 0.6, 100, 1000);
  }

  @Test
  @DisplayName("a hook for acme: beta's correction never sent; one refused 3 times dead-lettered and the rest delivered; an endless answer cut; signatures over timestamp.body")
  void webhooksAreBoundedAndScoped(Vertx vertx) throws Exception {
    Path db = TestState.freshFile();
    try (OnContext on = OnContext.on(vertx, ThreadingModel.WORKER)) {
      TablesStore st = on.await(() -> Future.succeededFuture(TablesStore.over(SqliteTables.open(on.vertx(), db, 2, 1000),
          Clock.systemUTC(), false, null, 86_400)));
      String[] tenants = {"acme", "beta", "acme", "acme"};
      for (int k = 0; k < tenants.length; k++) {
        Debt d = debt("hook-" + k, tenants[k]);
        on.await(() -> st.debts().enqueue(List.of(d)));
        List<LeasedDebt> l = on.await(() -> st.debts().lease("r1", 1, 30_000));
        on.await(() -> st.debts().correct("r1", l.get(0), repair(System.currentTimeMillis(), null)));
      }
      on.await(() -> st.close());
    }

    List<Seen> seen = new CopyOnWriteArrayList<>();
    HttpServer receiver = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(b -> {
      String cursor = req.getHeader("X-Georesolver-Cursor");
      String ts = req.getHeader(Signature.TIMESTAMP_HEADER);
      String sig = req.getHeader(Signature.HEADER);
      long now = System.currentTimeMillis() / 1000;
      seen.add(new Seen(cursor, b.toJsonObject().getString("tenant"),
          Signature.verify(SECRET, ts, b.getBytes(), sig, now, Signature.DEFAULT_WINDOW_S),
          Signature.verify(SECRET, ts, b.getBytes(), sig, now + Signature.DEFAULT_WINDOW_S + 60, Signature.DEFAULT_WINDOW_S)));
      HttpServerResponse resp = req.response();
      if ("1".equals(cursor)) {
        resp.setStatusCode(503).end("always refused");
      } else if ("3".equals(cursor)) {
        // 200, then a body without end: the delivery must not wait for it or keep it.
        resp.setStatusCode(200).setChunked(true);
        Buffer mb = Buffer.buffer(new byte[64 * 1024]);
        long[] timer = {0};
        timer[0] = vertx.setPeriodic(5, id -> {
          if (resp.closed() || resp.ended()) {
            vertx.cancelTimer(timer[0]);
          } else if (!resp.writeQueueFull()) {
            resp.write(mb);
          }
        });
        resp.closeHandler(v -> vertx.cancelTimer(timer[0]));
      } else {
        resp.setStatusCode(200).end();
      }
    })).listen(0).await();

    Stack s = Stack.deploy(vertx, manifest().tier("world_gazetteer", "gazetteer", null, "locality", 200, "typical_ms: 2")
        .extra("state: { path: \"" + db + "\" }\n"
            + "reconcile: { enabled: true }\n"
            + "corrections:\n  retry_base_ms: 10\n  retry_max_ms: 20\n  max_attempts: 3\n  webhooks:\n"
            + "    - { url: \"http://127.0.0.1:" + receiver.actualPort() + "/hook\", secret_env: HOOK_SECRET, tenants: [acme], timeout_ms: 60000 }\n")
        .yaml(), Map.of("HOOK_SECRET", SECRET), Clock.systemUTC(), Map.of()).await();

    for (int k = 0; k < 600 && seen.stream().noneMatch(x -> "4".equals(x.cursor())); k++) {
      Thread.sleep(50);
    }
    assertThat(seen).extracting(Seen::cursor).as("every delivery, in order").containsExactly("1", "1", "1", "3", "4");
    assertThat(seen).extracting(Seen::tenant).containsOnly("acme");
    assertThat(seen).allSatisfy(x -> {
      assertThat(x.valid()).as("signed over timestamp.body").isTrue();
      assertThat(x.replayLaterValid()).as("the same delivery replayed past the window").isFalse();
    });
    String metrics = s.get("/metrics").await().bodyAsString();
    assertThat(metrics).contains("georesolver_correction_deliveries_total{channel=\"webhook\",result=\"dead_lettered\"} 1.0");
    byte[] body = "{}".getBytes(StandardCharsets.UTF_8);
    assertThat(Signature.of(SECRET, 1, body)).as("the timestamp is signed").isNotEqualTo(Signature.of(SECRET, 2, body));
  }
}
