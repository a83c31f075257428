package dev.georesolver.issues;

import dev.georesolver.audit.CanonicalJson;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.Caller;
import io.vertx.core.eventbus.DeliveryOptions;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.config.Manifest;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.state.AuditReader;
import dev.georesolver.state.EarlierLayout;
import dev.georesolver.state.StateVerticle;
import dev.georesolver.state.redis.LegacyRedisKeys;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.Corrections;
import dev.georesolver.state.rules.Cursors;
import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import dev.georesolver.state.sqlite.LegacySqliteFile;
import dev.georesolver.support.LogCapture;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.TestState;
import io.vertx.core.DeploymentOptions;
import io.vertx.core.ThreadingModel;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;

import static dev.georesolver.reconcile.Samples.debt;
import static dev.georesolver.reconcile.Samples.repair;
import static org.assertj.core.api.Assertions.assertThat;

/** Upgrading keeps what the earlier release's store held (queue, outbox and cursors, audit chains, batch jobs, write-behind): it moves at start and the earlier layout is removed. */
@ExtendWith(VertxExtension.class)
class Issue22LegacyStateMigratesTest {

  private final long now = System.currentTimeMillis();
  private final List<String> cursors = new ArrayList<>();

  private QueueItem item(String key, String state, String outcome) {
    Debt d = Debt.fromJson(debt(key, now - 60_000, now - 50_000).toJson());
    return new QueueItem(d.debtKey(), d, state, 0, 0, null, null, now - 50_000, outcome, null, now - 1000);
  }

  private static AuditEvent event(String tenant, int i, long ts) {
    JsonObject b = new JsonObject().put("id", "r" + i).put("tenant", tenant).put("ts_ms", ts).put("kind", "degraded");
    return new AuditEvent(tenant, "r" + i, ts, CanonicalJson.canonical(b));
  }

  private BatchJob job() {
    return new BatchJob("job1", "acme", "key:1", BatchJob.RUNNING, new JsonObject().put("intent", "describe").put("slice_rows", 2), 2, 1,
        1, 0, 0, 0, now - 5000, now - 4000, null);
  }

  /** What an earlier release's store held: two queue items, two corrections and a webhook's cursor, a chain, a job. */
  private void write(EarlierLayout e) {
    e.item(item("k-open", QueueRules.PENDING, null));
    e.item(item("k-done", QueueRules.DONE, "corrected"));
    for (String k : List.of("k-done", "k-other")) {
      Correction c = Corrections.build(debt(k, now - 60_000, now - 50_000), repair(now - 30_000, "addr-" + k));
      cursors.add(e.correction(c, now - 30_000 + cursors.size()));
    }
    e.cursor("webhook:hook", cursors.get(0));
    List<AuditEvent> events = new ArrayList<>();
    for (int i = 1; i <= 3; i++) {
      events.add(event("acme", i, now - 10_000 + i));
    }
    e.audit("acme", events);
    e.job(job());
    e.row("job1", 0, new JsonObject().put("v", new JsonArray().add("Paris")), new JsonObject().put("status", "resolved"));
    e.row("job1", 1, new JsonObject().put("v", new JsonArray().add("Lyon")), null);
    e.slice("job1", 0, BatchRules.Slice.FREE);
  }

  private static JsonObject ask(Vertx vertx, String address, JsonObject body) {
    return vertx.eventBus().<JsonObject>request(address, body, Caller.SYSTEM.on(new DeliveryOptions())).await().body();
  }

  /** The store, started on the upgraded state, serves all of it as the earlier one did. */
  private void assertServed(Vertx vertx, boolean embedded) {
    JsonObject stats = ask(vertx, Addresses.STATE_DEBTS_STATS, new JsonObject());
    assertThat(stats.getLong("pending")).isEqualTo(1);
    assertThat(stats.getLong("done")).isEqualTo(1);
    JsonObject page = ask(vertx, Addresses.STATE_CORRECTIONS_PAGE, new JsonObject().put("after", cursors.get(0)).put("limit", 10));
    assertThat(page.getJsonArray("corrections")).as("after the cursor a client held, the one after it").hasSize(1);
    assertThat(page.getJsonArray("corrections").getJsonObject(0).getString("cursor"))
        .isEqualTo(Long.toString(Cursors.seq(cursors.get(1))));
    JsonObject hook = ask(vertx, Addresses.STATE_CORRECTIONS_CURSOR, new JsonObject().put("name", "webhook:hook"));
    assertThat(hook.getString("cursor")).isEqualTo(Long.toString(Cursors.seq(cursors.get(0))));
    JsonObject audit = ask(vertx, Addresses.STATE_AUDIT_PAGE, new JsonObject().put("tenant", "acme").put("limit", 10));
    assertThat(audit.getJsonArray("records")).hasSize(3);
    assertThat(BatchJob.fromJson(ask(vertx, Addresses.STATE_BATCHES_GET, new JsonObject().put("job", "job1")))).isEqualTo(job());
    JsonObject lease = ask(vertx, Addresses.STATE_BATCHES_LEASE, new JsonObject().put("owner", "w").put("lease_ms", 30_000));
    assertThat(lease.getJsonArray("rows")).as("the row left to resolve").hasSize(1);
    if (embedded) {
      CacheWrites back = vertx.eventBus().<CacheWrites>request(Addresses.STATE_CACHE_LOAD, new JsonObject().put("kind", "idem"))
          .await().body();
      assertThat(back.idem()).extracting(CacheWrites.Idem::key).containsExactly("warm");
    }
  }

  private static boolean movedLine(LogCapture logs) {
    return logs.lines().stream().anyMatch(l -> l.startsWith("INFO") && l.contains("into the current layout and removed it")
        && l.contains("2 queue items") && l.contains("3 audit records"));
  }

  @Test
  @DisplayName("SQLite: the earlier tables move into the current layout at start, are dropped, and the chains still verify")
  void sqlite(Vertx vertx) {
    Codecs.registerAll(vertx.eventBus());
    Path file = TestState.freshFile();
    try (LegacySqliteFile f = LegacySqliteFile.create(file, 6)) {
      write(f);
      ResolveResult r = ResolveResult.builder().status("resolved").lon(1.0).lat(2.0).idempotencyKey("warm").resolvedAtMs(now - 1000)
          .build();
      f.idem("warm", new StoredEntry(StoredAnswer.of(r), now - 1000, 3_600_000), now - 1000);
    }
    Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000)
        .extra("state:\n  path: \"" + file + "\"\n").build();
    DeploymentOptions worker = new DeploymentOptions().setThreadingModel(ThreadingModel.WORKER);
    String id;
    try (LogCapture logs = LogCapture.everyLevel()) {
      id = vertx.deployVerticle(new StateVerticle(m, "sqlite", null, true, Clock.systemUTC(), new Metrics()), worker).await();
      assertThat(movedLine(logs)).as("one INFO line says what moved").isTrue();
    }
    assertServed(vertx, true);
    vertx.undeploy(id).await();
    assertThat(LegacySqliteFile.tables(file)).doesNotContainAnyElementsOf(LegacySqliteFile.legacyTables());
    assertThat(AuditReader.sqlite(file, "acme")).singleElement().satisfies(r -> {
      assertThat(r.ok()).isTrue();
      assertThat(r.records()).isEqualTo(3);
    });
    try (LogCapture logs = LogCapture.everyLevel()) {
      id = vertx.deployVerticle(new StateVerticle(m, "sqlite", null, true, Clock.systemUTC(), new Metrics()), worker).await();
      assertThat(movedLine(logs)).as("the second start has nothing to move").isFalse();
    }
    JsonObject stats = ask(vertx, Addresses.STATE_DEBTS_STATS, new JsonObject());
    assertThat(stats.getLong("pending") + stats.getLong("in_progress")).isEqualTo(1);
    vertx.undeploy(id).await();
  }

  @Test
  @DisplayName("Redis: the earlier keys move into the current layout at start, are deleted, and the chains still verify")
  void redis(Vertx vertx) {
    Codecs.registerAll(vertx.eventBus());
    try (RedisServer server = RedisServer.start()) {
      OnContext on = OnContext.on(vertx, ThreadingModel.EVENT_LOOP);
      try (LegacyRedisKeys keys = new LegacyRedisKeys(on, server.url(), "geo:")) {
        write(keys);
      }
      Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000).build();
      String id;
      try (LogCapture logs = LogCapture.everyLevel()) {
        id = vertx.deployVerticle(new StateVerticle(m, "redis", server.url(), false, Clock.systemUTC(), new Metrics())).await();
        assertThat(movedLine(logs)).as("one INFO line says what moved").isTrue();
      }
      assertServed(vertx, false);
      vertx.undeploy(id).await();
      try (LegacyRedisKeys keys = new LegacyRedisKeys(on, server.url(), "geo:", false)) {
        assertThat(keys.send(io.vertx.redis.client.Request.cmd(io.vertx.redis.client.Command.EXISTS).arg(keys.keys().auditTenants())
            .arg(keys.keys().batches()).arg(keys.keys().auditHead("acme")).arg(keys.keys().reconcile()).arg(keys.keys().corrections())).toLong()).as("the earlier keys are gone").isZero();
      }
      assertThat(AuditReader.redis(server.url(), "geo:", "acme")).singleElement().satisfies(r -> {
        assertThat(r.ok()).isTrue();
        assertThat(r.records()).isEqualTo(3);
      });
    }
  }

  @Test
  @DisplayName("Redis not answering at start: the store stays closed instead of writing over the earlier keys, and moves them once it answers")
  void redisUnreachableAtStart(Vertx vertx) throws InterruptedException {
    Codecs.registerAll(vertx.eventBus());
    try (RedisServer server = RedisServer.start()) {
      OnContext on = OnContext.on(vertx, ThreadingModel.EVENT_LOOP);
      try (LegacyRedisKeys keys = new LegacyRedisKeys(on, server.url(), "geo:")) {
        write(keys);
      }
      server.pause();
      Manifest m = ManifestBuilder.manifest().tier("t", "gazetteer", null, "locality", 1000).build();
      String id = vertx.deployVerticle(new StateVerticle(m, "redis", server.url(), false, Clock.systemUTC(), new Metrics())).await();
      Throwable closed = vertx.eventBus().request(Addresses.STATE_DEBTS_STATS, new JsonObject(), Caller.SYSTEM.on(new DeliveryOptions())).map(r -> (Throwable) null)
          .otherwise(t -> t).await();
      assertThat(closed).as("unavailable while the earlier layout has not moved").isInstanceOf(ReplyException.class)
          .hasMessageContaining("still moving an earlier release's layout");
      assertThat(((ReplyException) closed).failureCode()).isEqualTo(FailureCode.STORE_UNAVAILABLE.code());
      server.resume();
      JsonObject stats = null;
      long until = System.currentTimeMillis() + 30_000;
      while (stats == null && System.currentTimeMillis() < until) {
        stats = vertx.eventBus().<JsonObject>request(Addresses.STATE_DEBTS_STATS, new JsonObject(), Caller.SYSTEM.on(new DeliveryOptions())).map(r -> r.body())
            .otherwise((JsonObject) null).await();
        if (stats == null) {
          Thread.sleep(200);
        }
      }
      assertThat(stats).as("served once Redis answered and the import ran").isNotNull();
      assertServed(vertx, false);
      vertx.undeploy(id).await();
    }
  }
}
