package dev.georesolver.functional;

import dev.georesolver.support.RedisServer;
import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.WebClient;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The drill with the resolver killed ({@code kill -9}) in the middle of the drain and started
 * again on the same state: zero items lost, zero keys corrected twice, every correction delivered
 * to the webhook, and every repeated upstream call for a key carried the same Idempotency-Key. On
 * the SQLite file (leases expire) and on a real Redis (XAUTOCLAIM after the lease).
 */
@ExtendWith(VertxExtension.class)
class ReconcileKillScenarioTest {

  static final int ADDRESSES = 16;

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
  @DisplayName("kill -9 mid-drain on SQLite: the restarted resolver finishes the drain, nothing lost, nothing twice")
  void sqlite(Vertx vertx) throws Exception {
    run(vertx, TestState.freshFile().toString(), null);
  }

  @Test
  @DisplayName("kill -9 mid-drain on Redis: the restarted resolver claims the dead one's items, nothing lost, nothing twice")
  void redis(Vertx vertx) throws Exception {
    run(vertx, null, redis.url());
  }

  private static JsonObject get(WebClient web, int port, String path) {
    return web.get(port, "127.0.0.1", path).send().await().bodyAsJsonObject();
  }

  private static JsonObject geocode(WebClient web, int port, String q) {
    return web.get(port, "127.0.0.1", "/v1/geocode").addQueryParam("q", q).send().await().bodyAsJsonObject();
  }

  private static List<JsonObject> feed(WebClient web, int port) {
    List<JsonObject> out = new ArrayList<>();
    String after = "0";
    while (true) {
      JsonObject p = get(web, port, "/v1/corrections?limit=100&after=" + after);
      JsonArray cs = p.getJsonArray("corrections");
      if (cs.isEmpty()) {
        return out;
      }
      cs.forEach(c -> out.add((JsonObject) c));
      after = p.getString("next");
    }
  }

  static void run(Vertx vertx, String statePath, String redisUrl) throws Exception {
    DrillLadder l = DrillLadder.start(vertx);
    WebClient web = WebClient.create(vertx);
    Path m = Files.createTempFile(TestState.freshDir(), "drill", ".yaml");
    Files.writeString(m, l.yaml(statePath, "rate_per_s: 8", "interval_ms: 500", "lease_ms: 1500"));
    List<String> args = new ArrayList<>(List.of("--manifest", m.toString(), "--port", "0", "--event-loops", "1"));
    if (redisUrl != null) {
      args.addAll(List.of("--redis", redisUrl));
    }
    Map<String, String> keys = new LinkedHashMap<>();
    int correctedBeforeKill;
    try (ResolverProcess first = ResolverProcess.start(DrillLadder.env(), args.toArray(String[]::new))) {
      int port = first.port();
      l.outage();
      for (int i = 0; i < ADDRESSES; i++) {
        String q = "kill drill " + i + " Harbour Road";
        JsonObject r = geocode(web, port, q);
        // A cold JVM may spend the first budget before the fallback answers: that refusal is a debt too.
        assertThat(r.getBoolean("degraded") || Set.of("budget_exhausted", "no_rung_available").contains(r.getString("reason")))
            .as(q + ": " + r.encode()).isTrue();
        keys.put(q, r.getString("idempotency_key"));
      }
      DrillLadder.await("the debts queued", Duration.ofSeconds(10), () -> {
        JsonObject q = get(web, port, "/v1/reconcile");
        return q.getLong("pending") + q.getLong("in_progress") == ADDRESSES;
      });
      l.recover();
      int probe = 0;
      while (feed(web, port).isEmpty()) {
        String q = "kill probe " + probe++ + " Quay";
        JsonObject r = geocode(web, port, q);
        if (r.getBoolean("degraded")) {
          keys.put(q, r.getString("idempotency_key"));
        }
        assertThat(probe).as("the breaker closes within seconds").isLessThan(300);
        Thread.sleep(50);
      }
      // Let the last degraded probe's debt reach the store (flush + commit), then kill mid-drain.
      Thread.sleep(300);
      correctedBeforeKill = feed(web, port).size();
      first.kill();
    }
    try (ResolverProcess second = ResolverProcess.start(DrillLadder.env(), args.toArray(String[]::new))) {
      int port = second.port();
      assertThat(correctedBeforeKill).as("killed in the middle of the drain").isBetween(1, keys.size() - 2);
      DrillLadder.await("the restarted resolver drained the queue", Duration.ofSeconds(60), () -> {
        JsonObject q = get(web, port, "/v1/reconcile");
        return q.getLong("pending") == 0 && q.getLong("in_progress") == 0;
      });
      List<JsonObject> feed = feed(web, port);
      List<String> corrected = feed.stream().map(c -> c.getString("idempotency_key")).toList();
      assertThat(corrected).as("zero keys corrected twice").doesNotHaveDuplicates();
      assertThat(corrected).as("zero items lost").containsExactlyInAnyOrderElementsOf(keys.values());
      assertThat(get(web, port, "/v1/reconcile").getLong("done")).isEqualTo(keys.size());

      Set<String> ids = feed.stream().map(c -> c.getString("correction_id")).collect(Collectors.toSet());
      DrillLadder.await("every correction at the webhook", Duration.ofSeconds(20), () -> l.hook.deliveries().stream()
          .map(d -> d.body().getString("correction_id")).collect(Collectors.toSet()).containsAll(ids));
      assertThat(l.hook.deliveries()).allSatisfy(d -> assertThat(d.verified()).isTrue());

      Map<String, List<String>> seen = l.primaryKeysByAddress();
      keys.forEach((q, key) -> assertThat(seen.get(q)).as("every call for " + q).isNotEmpty().containsOnly(key));
      for (String q : keys.keySet()) {
        JsonObject r = geocode(web, port, q);
        assertThat(r.getString("resolution_source")).as(q).isEqualTo("primary");
        assertThat(r.getBoolean("degraded")).isFalse();
      }
    }
  }
}
