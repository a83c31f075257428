package dev.georesolver.functional;

import dev.georesolver.support.RedisServer;
import dev.georesolver.support.SseClient;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The failover drill through HTTP, on each backend: the primary hangs under steady traffic of
 * distinct addresses, then recovers. Every request is answered within its budget during the outage;
 * the breaker opens and closes on its own; the queue drains oldest first; every queued key is
 * corrected exactly once and the correction reaches the event bus, the feed, the SSE stream
 * (resumable) and a signed webhook (down for its first deliveries, without holding anything up); the replays afterwards carry the primary's answer; every call
 * the primary saw for a key carried that key's Idempotency-Key.
 */
@ExtendWith(VertxExtension.class)
class ReconcileDrillScenarioTest {

  static final int ADDRESSES = 24;

  private static RedisServer redis;

  @BeforeAll
  static void redis() {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stop() {
    redis.close();
  }

  @Test
  @DisplayName("drill on the embedded SQLite store: every debt corrected once, delivered everywhere, replays exact")
  void sqliteDrill(Vertx vertx) {
    DrillLadder l = DrillLadder.start(vertx);
    Stack s = Stack.deploy(vertx, l.yaml(TestState.freshFile().toString()), DrillLadder.env(), Clock.systemUTC(), Map.of()).await();
    drill(vertx, s, l);
  }

  @Test
  @DisplayName("drill on Redis streams and hashes: the same guarantees")
  void redisDrill(Vertx vertx) {
    DrillLadder l = DrillLadder.start(vertx);
    Stack s = Stack.deploy(vertx, l.yaml(null), DrillLadder.env(), Clock.systemUTC(), Map.of(), redis.url()).await();
    flushRedis(vertx);
    drill(vertx, s, l);
  }

  private static void flushRedis(Vertx vertx) {
    var c = io.vertx.redis.client.Redis.createClient(vertx, redis.url());
    c.send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.XTRIM).arg("geo:corrections").arg("MAXLEN").arg(0))
        .await();
    c.close();
  }

  private static JsonObject reconcile(Stack s) {
    return s.get("/v1/reconcile").await().bodyAsJsonObject();
  }

  static void drill(Vertx vertx, Stack s, DrillLadder l) {
    List<JsonObject> bus = DrillLadder.busCorrections(vertx);
    List<JsonObject> news = DrillLadder.dashboardNews(vertx);
    List<JsonObject> breakers = DrillLadder.breakerEvents(vertx);
    SseClient live = SseClient.connect(vertx, s.port, "/v1/corrections/stream", null).await();
    assertThat(live.response().getHeader("content-type")).startsWith("text/event-stream");

    // Outage: the primary hangs; steady traffic of distinct addresses.
    l.outage();
    Map<String, String> keys = new LinkedHashMap<>();
    for (int i = 0; i < ADDRESSES; i++) {
      String q = "drill " + i + " Main Street";
      long t0 = System.nanoTime();
      JsonObject r = s.geocode(q).await().bodyAsJsonObject();
      long ms = (System.nanoTime() - t0) / 1_000_000;
      assertThat(r.getString("status")).as(q).isEqualTo("resolved");
      assertThat(r.getString("resolution_source")).isEqualTo("fallback");
      assertThat(r.getBoolean("degraded")).isTrue();
      assertThat(ms).as("answered within its budget").isLessThanOrEqualTo(DrillLadder.BUDGET_MS + 250);
      keys.put(q, r.getString("idempotency_key"));
    }
    assertThat(breakers).extracting(e -> e.getString("to")).contains("open");
    DrillLadder.await("every degraded answer queued", Duration.ofSeconds(10), () -> {
      JsonObject q = reconcile(s);
      return q.getLong("pending") + q.getLong("in_progress") == ADDRESSES;
    });
    assertThat(s.get("/v1/corrections").await().bodyAsJsonObject().getJsonArray("corrections")).as("nothing before recovery")
        .isEmpty();

    // The webhook is down for its first deliveries: they are retried, and nothing else waits for it.
    l.hook.failNext(3);
    // Recovery: live traffic probes the half-open breaker, which closes on its own. Probes answered
    // while it is still open are degraded too: they are debts like the others.
    l.recover();
    int probe = 0;
    while (breakers.stream().noneMatch(e -> "closed".equals(e.getString("to")))) {
      String q = "probe " + probe++ + " Side Road";
      JsonObject r = s.geocode(q).await().bodyAsJsonObject();
      if (r.getBoolean("degraded")) {
        keys.put(q, r.getString("idempotency_key"));
      }
      assertThat(probe).as("the breaker closes within seconds").isLessThan(200);
      sleep(100);
    }
    DrillLadder.await("the queue drained", Duration.ofSeconds(30), () -> {
      JsonObject q = reconcile(s);
      return q.getLong("pending") == 0 && q.getLong("in_progress") == 0;
    });
    JsonObject figures = reconcile(s);
    assertThat(figures.getLong("done")).isEqualTo(keys.size());
    assertThat(figures.getLong("dead")).isZero();
    assertThat(figures.getDouble("oldest_pending_age_s")).isZero();

    // The feed: every key corrected exactly once, oldest first, paged.
    List<JsonObject> feed = new ArrayList<>();
    String after = null;
    for (int page = 0; page < 20; page++) {
      JsonObject p = s.get("/v1/corrections?limit=7" + (after == null ? "" : "&after=" + after)).await().bodyAsJsonObject();
      JsonArray cs = p.getJsonArray("corrections");
      cs.forEach(c -> feed.add((JsonObject) c));
      if (cs.isEmpty()) {
        assertThat(p.getString("next")).as("an empty page keeps the cursor").isEqualTo(after);
        break;
      }
      after = p.getString("next");
    }
    assertThat(feed).extracting(c -> c.getString("idempotency_key")).containsExactlyElementsOf(keys.values());
    assertThat(feed).allSatisfy(c -> {
      assertThat(c.getJsonObject("before").getString("resolution_source")).isEqualTo("fallback");
      assertThat(c.getJsonObject("after").getString("resolution_source")).isEqualTo("primary");
      assertThat(c.getJsonObject("after").getString("claim")).isEqualTo("exact");
      assertThat(c.getDouble("moved_m")).isPositive();
      assertThat(c.getString("manifest_revision")).isEqualTo(s.manifest.revision());
    });
    Set<String> ids = feed.stream().map(c -> c.getString("correction_id")).collect(Collectors.toSet());
    assertThat(ids).hasSize(keys.size());

    // The bus, the live stream and the webhook got each correction.
    int n = keys.size();
    DrillLadder.await("bus, stream and webhook deliveries", Duration.ofSeconds(10), () -> bus.size() >= n
        && live.events().size() >= n && l.hook.deliveries().size() >= n);
    assertThat(bus).extracting(c -> c.getString("correction_id")).containsExactlyInAnyOrderElementsOf(ids);
    // The dashboard is told of each correction (who served, who corrected) and of the queue.
    assertThat(news).filteredOn(e -> "correction".equals(e.getString("type")))
        .extracting(e -> e.getString("idempotency_key")).containsExactlyInAnyOrderElementsOf(
            bus.stream().map(c -> c.getString("idempotency_key")).toList());
    assertThat(news).filteredOn(e -> "correction".equals(e.getString("type")))
        .allSatisfy(e -> assertThat(e.getString("corrected_by")).isNotEqualTo(e.getString("served_by")));
    DrillLadder.await("a queue status for the dashboard", Duration.ofSeconds(10),
        () -> news.stream().anyMatch(e -> "reconcile".equals(e.getString("type"))));
    assertThat(live.events()).extracting(SseClient.Event::event).containsOnly("correction");
    assertThat(live.events()).extracting(e -> e.data().getString("correction_id")).containsExactlyElementsOf(
        feed.stream().map(c -> c.getString("correction_id")).toList());
    assertThat(live.events()).extracting(SseClient.Event::id).containsExactlyElementsOf(
        feed.stream().map(c -> c.getString("cursor")).toList());
    assertThat(l.hook.deliveries()).allSatisfy(d -> assertThat(d.verified()).as("signed").isTrue());
    assertThat(l.hook.refused()).as("the webhook was down, then caught up").isEqualTo(3);
    assertThat(l.hook.deliveries()).extracting(d -> d.body().getString("correction_id")).containsExactlyInAnyOrderElementsOf(ids);
    live.close().await();

    // Resuming the stream after the 10th event gives exactly the rest.
    String tenth = feed.get(9).getString("cursor");
    SseClient resumed = SseClient.connect(vertx, s.port, "/v1/corrections/stream", tenth).await();
    DrillLadder.await("the resumed stream", Duration.ofSeconds(10), () -> resumed.events().size() >= n - 10);
    sleep(200);
    assertThat(resumed.events()).extracting(e -> e.data().getString("correction_id")).containsExactlyElementsOf(
        feed.subList(10, feed.size()).stream().map(c -> c.getString("correction_id")).toList());
    resumed.close().await();

    // Replays now carry the primary's answer.
    for (String q : keys.keySet()) {
      JsonObject r = s.geocode(q).await().bodyAsJsonObject();
      assertThat(r.getString("resolution_source")).as(q).isEqualTo("primary");
      assertThat(r.getBoolean("degraded")).isFalse();
      assertThat(r.getString("claim")).isEqualTo("exact");
      assertThat(r.getBoolean("replayed", false)).as("replayed, not walked").isTrue();
    }

    // Every call the primary saw for a key carried the key's Idempotency-Key.
    Map<String, List<String>> seen = l.primaryKeysByAddress();
    keys.forEach((q, key) -> assertThat(seen.get(q)).as(q).isNotEmpty().containsOnly(key));
    assertThat(breakers).extracting(e -> e.getString("to")).containsSubsequence("open", "closed");
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
