package dev.georesolver.functional;

import dev.georesolver.state.StateFiles;
import dev.georesolver.state.AuditReader;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import io.vertx.redis.client.Redis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The reconciler's rules through HTTP: several instances on one Redis share the drain (each item
 * walked by one), a breaker opening again stops the drain without counting attempts, failures go
 * to the dead letter after max_attempts, "no match" above confirms the degraded answer, the tier's
 * share of its rate limit is respected, and a nearly full disk refuses new debt loudly while
 * resolution goes on.
 */
@ExtendWith(VertxExtension.class)
class ReconcileBehaviourScenarioTest {

  private static RedisServer redis;

  @BeforeAll
  static void redis() {
    redis = RedisServer.start();
  }

  @AfterAll
  static void stop() {
    redis.close();
  }

  private static JsonObject reconcile(Stack s) {
    return s.get("/v1/reconcile").await().bodyAsJsonObject();
  }

  private static List<JsonObject> feed(Stack s) {
    List<JsonObject> out = new ArrayList<>();
    s.get("/v1/corrections?limit=1000").await().bodyAsJsonObject().getJsonArray("corrections").forEach(c -> out.add((JsonObject) c));
    return out;
  }

  /** The idempotency keys of the public partition's audit records of {@code kind}. */
  private static List<String> auditKeys(Stack s, String kind) {
    List<String> out = new ArrayList<>();
    String after = "0";
    while (true) {
      JsonObject p = s.get("/v1/audit?limit=1000&after=" + after).await().bodyAsJsonObject();
      JsonArray rs = p.getJsonArray("records");
      rs.forEach(r -> {
        if (kind.equals(((JsonObject) r).getString("kind"))) {
          out.add(((JsonObject) r).getString("idempotency_key"));
        }
      });
      if (rs.isEmpty()) {
        return out;
      }
      after = p.getString("next");
    }
  }

  private static boolean drained(Stack s) {
    JsonObject q = reconcile(s);
    return q.getLong("pending") == 0 && q.getLong("in_progress") == 0;
  }

  /** Degraded answers for {@code n} new addresses (the primary must be failing), by address. */
  private static Map<String, String> outageTraffic(Stack s, String prefix, int n) {
    Map<String, String> keys = new LinkedHashMap<>();
    for (int i = 0; i < n; i++) {
      String q = prefix + " " + i + " Mill Lane";
      JsonObject r = s.geocode(q).await().bodyAsJsonObject();
      assertThat(r.getBoolean("degraded")).as(q + " " + r.encode()).isTrue();
      keys.put(q, r.getString("idempotency_key"));
    }
    return keys;
  }

  /** Live requests until the primary's breaker is closed on {@code s}; degraded probes join {@code keys}. */
  private static void probeUntilClosed(Stack s, String prefix, Map<String, String> keys) {
    for (int i = 0; i < 300; i++) {
      String q = prefix + " probe " + i;
      JsonObject r = s.geocode(q).await().bodyAsJsonObject();
      if (r.getBoolean("degraded")) {
        keys.put(q, r.getString("idempotency_key"));
      } else {
        return;
      }
      sleep(50);
    }
    throw new AssertionError("the primary's breaker never closed");
  }

  /** A primary (exact, its breaker never opening) above a fallback that always answers, with {@code extra} YAML. */
  private static Stack primaryAndFallback(Vertx vertx, FakeProvider primary, String extra) {
    FakeProvider fallback = FakeProvider.start(vertx, FakeProvider.json(FakeProvider.generic(5, 5, "EPSG:4326", 0.5))).await();
    return Stack.deploy(vertx, manifest()
        .tier("primary", "generic", primary.url(), "exact", 300,
            "circuit_breaker: { failure_threshold: 1000, half_open_timeout_ms: 1000, success_threshold: 1 }")
        .tier("fallback", "generic", fallback.url(), "open_data", 500)
        .extra(extra)
        .yaml()).await();
  }

  private static final String TWIN_SECRET = "twin-audit-secret";

  @Test
  @DisplayName("two instances on one Redis drain one queue, and each item is walked by exactly one of them")
  void twoInstancesShareTheDrain(Vertx vertx) {
    Vertx other = Vertx.vertx();
    try {
      DrillLadder l = DrillLadder.start(vertx);
      String yaml = l.yaml(null, "rate_per_s: 30", "batch: 4", "concurrency: 2");
      // Nodes sharing one Redis share the audit secret, so one chain holds both instances' records.
      Map<String, String> env = new java.util.HashMap<>(DrillLadder.env());
      env.put("GEO_AUDIT_KEY", TWIN_SECRET);
      Stack a = Stack.deploy(vertx, yaml, env, Clock.systemUTC(), Map.of(), redis.url()).await();
      Stack b = Stack.deploy(other, yaml, env, Clock.systemUTC(), Map.of(), redis.url()).await();
      l.outage();
      Map<String, String> keys = outageTraffic(a, "twin a", 10);
      keys.putAll(outageTraffic(b, "twin b", 10));
      DrillLadder.await("the shared queue", Duration.ofSeconds(10), () -> reconcile(a).getLong("pending") >= 20);
      l.recover();
      l.primary.resetCount();
      probeUntilClosed(a, "twin a", keys);
      probeUntilClosed(b, "twin b", keys);
      DrillLadder.await("the shared queue drained", Duration.ofSeconds(30), () -> drained(a) && drained(b));
      List<String> corrected = feed(b).stream().map(c -> c.getString("idempotency_key")).toList();
      assertThat(corrected).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(keys.values());
      Map<String, List<String>> calls = l.primaryKeysByAddress();
      keys.keySet().stream().filter(q -> !q.contains("probe")).forEach(q ->
          assertThat(calls.get(q)).as("walked once, by one instance: " + q).hasSize(1));
      // Both instances' fallback activations and corrections extend one audit chain on the shared Redis.
      // The audit trail holds each idempotency key keyed with the deployment's secret, never the plain key.
      byte[] idKey = dev.georesolver.state.rules.AuditSeal.derive(TWIN_SECRET.getBytes(java.nio.charset.StandardCharsets.UTF_8),
          "georesolver audit id");
      List<String> audited = keys.values().stream().map(k -> dev.georesolver.state.rules.AuditSeal.keyed(idKey, k)).toList();
      DrillLadder.await("the corrections audited", Duration.ofSeconds(10),
          () -> auditKeys(b, "correction").containsAll(audited));
      assertThat(auditKeys(a, "degraded")).containsAll(audited).doesNotContainAnyElementsOf(keys.values());
      var reports = AuditReader.redis(redis.url(), "geo:", null);
      assertThat(reports).extracting(AuditReader.Report::tenant).contains("public");
      assertThat(reports).allSatisfy(r -> assertThat(r.broken()).isNull());
    } finally {
      other.close().await();
    }
  }

  @Test
  @DisplayName("a breaker opening again stops the drain at once: the rest go back to the queue with no attempt counted")
  void breakerOpeningStopsTheDrain(Vertx vertx) throws Exception {
    DrillLadder l = DrillLadder.start(vertx);
    String path = TestState.freshFile().toString();
    Stack s = Stack.deploy(vertx, l.yaml(path, "rate_per_s: 3"), DrillLadder.env(), Clock.systemUTC(), Map.of()).await();
    l.outage();
    Map<String, String> keys = outageTraffic(s, "stop", 12);
    l.recover();
    probeUntilClosed(s, "stop", keys);
    DrillLadder.await("the first corrections", Duration.ofSeconds(10), () -> feed(s).size() >= 2);
    l.outage();
    for (int i = 0; reconcile(s).getLong("in_progress") > 0 || i < 4; i++) {
      s.geocode("stop reopen " + i).await();
      assertThat(i).isLessThan(100);
    }
    sleep(500);
    int corrected = feed(s).size();
    JsonObject q = reconcile(s);
    assertThat(q.getLong("pending")).as("the rest went back").isPositive();
    assertThat(corrected).isLessThan(keys.size());
    assertThat(StateFiles.pendingAttempts(java.nio.file.Path.of(path)))
        .as("attempts counted on the items put back (one may have been in flight)").isLessThanOrEqualTo(1);
    l.recover();
    probeUntilClosed(s, "stop again", keys);
    DrillLadder.await("everything corrected once the primary is back", Duration.ofSeconds(30), () -> drained(s));
    assertThat(feed(s)).extracting(c -> c.getString("idempotency_key")).doesNotHaveDuplicates()
        .containsAll(keys.values());
  }

  @Test
  @DisplayName("an item that keeps failing goes to the dead letter after max_attempts, kept and counted")
  void deadLetter(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(500, "boom")).await();
    Stack s = primaryAndFallback(vertx, primary, "reconcile: { interval_ms: 100, max_attempts: 3, backoff_base_ms: 20, backoff_max_ms: 40 }");
    assertThat(s.geocode("9 Dead End").await().bodyAsJsonObject().getBoolean("degraded")).isTrue();
    DrillLadder.await("the dead letter", Duration.ofSeconds(15), () -> reconcile(s).getLong("dead") == 1);
    assertThat(reconcile(s).getLong("pending")).isZero();
    assertThat(primary.count()).as("the live call and three attempts").isEqualTo(4);
    DrillLadder.await("the figure in /metrics", Duration.ofSeconds(10), () -> s.get("/metrics").await().bodyAsString()
        .contains("georesolver_reconcile_queue{state=\"dead\"} 1.0"));
    JsonObject dead = s.get("/v1/reconcile/dead").await().bodyAsJsonObject().getJsonArray("dead").getJsonObject(0);
    assertThat(dead.getInteger("attempts")).isEqualTo(3);
    assertThat(dead.getString("last_error")).as(dead.encode()).contains("primary");
    assertThat(dead.getString("tenant")).isEqualTo("public");
    assertThat(feed(s)).isEmpty();
  }

  @Test
  @DisplayName("when every rung above finds nothing the degraded answer is confirmed: done, and no correction")
  void confirmed(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
    Stack s = primaryAndFallback(vertx, primary, "reconcile: { interval_ms: 100 }");
    assertThat(s.geocode("1 Nowhere Row").await().bodyAsJsonObject().getBoolean("degraded")).isTrue();
    primary.behave(FakeProvider.status(404, ""));
    DrillLadder.await("confirmed", Duration.ofSeconds(10), () -> reconcile(s).getLong("done") == 1);
    assertThat(feed(s)).isEmpty();
    assertThat(s.geocode("1 Nowhere Row").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("fallback");
  }

  @Test
  @DisplayName("the reconciler takes at most max_share of a tier's rate limit: live traffic keeps the rest")
  void shareOfTheRateLimit(Vertx vertx) {
    DrillLadder l = DrillLadder.start(vertx);
    String yaml = l.yaml(TestState.freshFile().toString(), "rate_per_s: 100", "max_share: 0.4", "concurrency: 4")
        .replace("typical_ms: 30", "typical_ms: 30\n      rate_limit_per_s: 10");
    Stack s = Stack.deploy(vertx, yaml, DrillLadder.env(), Clock.systemUTC(), Map.of()).await();
    l.outage();
    Map<String, String> keys = outageTraffic(s, "share", 9);
    l.recover();
    probeUntilClosed(s, "share", keys);
    DrillLadder.await("drained", Duration.ofSeconds(30), () -> drained(s) && feed(s).size() == keys.size());
    List<Long> at = feed(s).stream().map(c -> c.getLong("corrected_at_ms")).sorted().toList();
    long spanMs = at.get(at.size() - 1) - at.get(0);
    // 0.4 x 10/s = 4 calls a second: the corrections after the first take at least (n - 1) / 4 s (less a burst).
    assertThat(spanMs).as("corrections spread at the reconciler's share").isGreaterThanOrEqualTo((at.size() - 2) * 250L * 7 / 10);
  }

  @Test
  @DisplayName("with the disk nearly full new debt is refused loudly — metric and health — and resolution goes on")
  void diskNearlyFull(Vertx vertx) {
    FakeProvider primary = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
    Stack s = primaryAndFallback(vertx, primary,
        "state: { path: \"" + TestState.freshFile() + "\", min_free_mb: 1000000000000 }\nreconcile: { interval_ms: 100 }");
    for (int i = 0; i < 3; i++) {
      JsonObject r = s.geocode(i + " Full Disk Road").await().bodyAsJsonObject();
      assertThat(r.getString("status")).isEqualTo("resolved");
      assertThat(r.getBoolean("degraded")).isTrue();
    }
    DrillLadder.await("the refusals counted", Duration.ofSeconds(10), () -> s.get("/metrics").await().bodyAsString()
        .contains("georesolver_state_refused_total{module=\"debts\"} 3.0"));
    // the write-behind is handed over every cache_flush_interval_ms (500 ms), after the debts
    DrillLadder.await("3 debts and their write-behind refused", Duration.ofSeconds(10), () -> s.get("/health/ready").await()
        .bodyAsJsonObject().getJsonObject("state").getLong("refused_total") == 6);
    JsonObject health = s.get("/health/ready").await().bodyAsJsonObject();
    assertThat(health.getJsonObject("state").getBoolean("refusing")).isTrue();
    assertThat(health.getJsonObject("state").getLong("refused_total")).as("3 debts and their write-behind").isEqualTo(6);
    assertThat(reconcile(s).getLong("pending")).isZero();
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
