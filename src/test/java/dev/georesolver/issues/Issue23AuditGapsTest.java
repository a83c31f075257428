package dev.georesolver.issues;

import dev.georesolver.audit.AuditBuffer;
import dev.georesolver.bus.Addresses;
import dev.georesolver.bus.AuditBatch;
import dev.georesolver.bus.Codecs;
import dev.georesolver.bus.FailureCode;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.config.AuditConfig;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.bus.Attempt;
import dev.georesolver.geo.Claim;
import dev.georesolver.metrics.Metrics;
import dev.georesolver.state.AuditKey;
import dev.georesolver.state.AuditReader;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.rules.AuditGaps;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.support.Backends;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23, item 7: records a full buffer refused, or a writer lost in a crash, leave gap records in the chain, so verify sees the hole. */
class Issue23AuditGapsTest {

  private static final int BUFFER = 5;

  private final FakeClock clock = new FakeClock();
  private final AtomicBoolean down = new AtomicBoolean();
  /** Appends the store refused while {@link #down}. */
  private final java.util.concurrent.atomic.AtomicInteger failedAppends = new java.util.concurrent.atomic.AtomicInteger();
  private OnContext on;
  private SqliteTables tables;
  private TablesStore store;
  private io.vertx.core.eventbus.MessageConsumer<AuditBatch> appendConsumer;
  private io.vertx.core.eventbus.MessageConsumer<JsonObject> sessionConsumer;

  /**
   * A real SQLite store behind the bus addresses the state verticle serves; while {@link #down} the
   * appends fail as the verticle's do when the disk is nearly full.
   */
  @BeforeEach
  void storeOnTheBus() {
    on = Backends.worker();
    Codecs.registerAll(on.vertx().eventBus());
    tables = SqliteTables.open(on.vertx(), TestState.freshFile(), 2, 1000);
    store = TablesStore.over(tables, clock, false, null, 0, AuditKey.of("a-deployment-secret-for-gap-tests", "test"));
    on.await(() -> {
      appendConsumer = on.vertx().eventBus().<AuditBatch>consumer(Addresses.STATE_AUDIT_APPEND, m -> {
        if (down.get()) {
          failedAppends.incrementAndGet();
          m.fail(FailureCode.STORE_UNAVAILABLE.code(), "disk nearly full");
        } else {
          store.audit().append(m.body().events()).onComplete(ar -> m.reply(ar.result()));
        }
      });
      sessionConsumer = on.vertx().eventBus().<JsonObject>consumer(Addresses.STATE_AUDIT_SESSION, m -> {
        String s = m.body().getString("session");
        Future<Void> f = "renew".equals(m.body().getString("op")) ? store.audit().renew(s, m.body().getLong("at_most"))
            : store.audit().close(s);
        f.onComplete(ar -> m.reply(new JsonObject()));
      });
      return Future.succeededFuture();
    });
  }

  @AfterEach
  void close() {
    appendConsumer.unregister().await();
    sessionConsumer.unregister().await();
    on.await(tables::close);
    if (writer != null && on.vertx().deploymentIDs().contains(writer)) {
      on.vertx().undeploy(writer).await();
    }
  }

  /** The writer's verticle: undeploying it without {@link AuditBuffer#close} is a crash (its timers and buffer are gone). */
  private String writer;

  /** A writer (as a chain instance is) with a buffer of {@link #BUFFER} records, on its own context. */
  private AuditBuffer buffer() throws Exception {
    AuditConfig cfg = ManifestLoader.parse("routing:\n  tiers:\n" + ManifestBuilder.tierEntry()
        + "audit: { buffer_max: " + BUFFER + ", batch_max: " + BUFFER + ", flush_interval_ms: 20 }\n", Map.of()).audit();
    AtomicReference<AuditBuffer> b = new AtomicReference<>();
    AtomicReference<io.vertx.core.Context> ctx = new AtomicReference<>();
    writer = on.vertx().deployVerticle(new VerticleBase() {
      @Override
      public Future<?> start() {
        ctx.set(context);
        b.set(AuditBuffer.create(vertx, cfg, () -> cfg, true, clock, new Metrics()));
        return Future.succeededFuture();
      }
    }).await();
    writerContext = ctx.get();
    return b.get();
  }

  private io.vertx.core.Context writerContext;

  /** Runs {@code r} on the writer's context and waits for it. */
  private void onWriter(Runnable r) {
    io.vertx.core.Promise<Void> p = io.vertx.core.Promise.promise();
    writerContext.runOnContext(v -> {
      r.run();
      p.complete();
    });
    p.future().await();
  }

  /** Waits up to {@code seconds} for {@code done}, polling. */
  private static void eventually(int seconds, java.util.function.BooleanSupplier done) throws InterruptedException {
    long until = System.nanoTime() + seconds * 1_000_000_000L;
    while (!done.getAsBoolean()) {
      assertThat(System.nanoTime() - until).as("still not so after " + seconds + " s").isNegative();
      Thread.sleep(20);
    }
  }

  private static ResolveResult degraded(int n) {
    return ResolveResult.builder().status(ResolveResult.RESOLVED).resolutionSource("fallback").claim(Claim.LOCALITY).confidence(0.6)
        .degraded(true).idempotencyKey(String.format("%064x", n)).intent("describe").manifestRevision("r1").traceId("t" + n)
        .attempts(List.of(new Attempt("primary", "http_5xx", 1, 12, null), new Attempt("fallback", "ok", 1, 8, null)))
        .resolvedAtMs(5).build();
  }

  private void offer(AuditBuffer b, String tenant, int from, int to) {
    onWriter(() -> {
      for (int i = from; i <= to; i++) {
        b.offer(tenant, degraded(i));
      }
    });
  }

  private AuditReader.Report report(String tenant) {
    return on.await(() -> AuditReader.verify(store, tenant)).get(0);
  }

  private JsonArray records(String tenant) {
    return on.await(() -> store.audit().page(tenant, null, Long.MIN_VALUE, Long.MAX_VALUE, 100)).getJsonArray("records");
  }

  @Test
  @DisplayName("records a full buffer refused while the store was down are counted, for their tenant, in a gap record once it is back")
  void refusedRecordsLeaveAGapRecord() throws Exception {
    AuditBuffer b = buffer();
    offer(b, "acme", 1, 2);
    eventually(10, () -> report("acme").records() == 2);
    down.set(true);
    // In one go on the writer's context, so no flush runs in between.
    onWriter(() -> {
      for (int i = 3; i <= 9; i++) {
        b.offer("acme", degraded(i));
      }
      for (int i = 10; i <= 12; i++) {
        b.offer("beta", degraded(i));
      }
    });
    // The fifth record sent a full batch at once; the store stays down until it has refused that
    // batch, which by then finds the buffer full again (records 8-12), so records 3-7 are refused.
    eventually(10, () -> failedAppends.get() > 0);
    down.set(false);
    eventually(10, () -> report("acme").gaps().records() > 0);

    AuditReader.Report acme = report("acme");
    AuditReader.Report beta = report("beta");
    assertThat(acme.ok()).isTrue();
    assertThat(beta.ok()).isTrue();
    // Every record offered is either in a chain or counted by a gap record of its tenant (which
    // records the buffer refused depends on when its flushes ran).
    long kept = acme.records() - acme.gaps().records() + beta.records() - beta.gaps().records();
    assertThat(kept + acme.gaps().missing() + beta.gaps().missing()).isEqualTo(12);
    assertThat(acme.gaps().missing() + beta.gaps().missing()).as("the buffer holds " + BUFFER).isGreaterThanOrEqualTo(2);
    JsonObject gap = records("acme").stream().map(o -> (JsonObject) o).filter(r -> "gap".equals(r.getString("kind"))).findFirst()
        .orElseThrow();
    assertThat(gap.getString("cause")).isEqualTo(AuditGaps.BUFFER_FULL);
    assertThat(gap.getLong("count")).isEqualTo(acme.gaps().missing());
    assertThat(gap.getLong("from_ts_ms")).isLessThanOrEqualTo(gap.getLong("to_ts_ms"));
  }

  @Test
  @DisplayName("a writer that dies with records in memory is declared lost by the sweep: every chain records the gap and its bound")
  void aLostWriterLeavesAGapRecord() throws Exception {
    AuditBuffer b = buffer();
    offer(b, "acme", 1, 1);
    offer(b, "beta", 2, 2);
    eventually(10, () -> report("acme").records() == 1 && report("beta").records() == 1);
    down.set(true);
    offer(b, "acme", 3, 4);
    // The process dies here: its buffer never hands records 3-4 over and never closes its session.
    on.vertx().undeploy(writer).await();
    down.set(false);
    assertThat(on.await(() -> store.audit().sweep())).as("the writer renewed recently").isZero();
    clock.advanceMs(AuditGaps.STALE_MS + 1);
    assertThat(on.await(() -> store.audit().sweep())).isEqualTo(1);
    for (String t : List.of("acme", "beta")) {
      AuditReader.Report r = report(t);
      assertThat(r.ok()).isTrue();
      assertThat(r.gaps()).as(t).isEqualTo(new AuditGaps.Tally(1, 0, 1, BUFFER));
    }
  }

  @Test
  @DisplayName("a clean stop hands everything over and closes the session: no gap is recorded")
  void aCleanStopLeavesNoGap() throws Exception {
    AuditBuffer b = buffer();
    offer(b, "acme", 1, 3);
    io.vertx.core.Promise<Void> closed = io.vertx.core.Promise.promise();
    writerContext.runOnContext(v -> b.close().onComplete(closed));
    closed.future().await();
    assertThat(report("acme").records()).isEqualTo(3);
    clock.advanceMs(AuditGaps.STALE_MS + 1);
    assertThat(on.await(() -> store.audit().sweep())).isZero();
    assertThat(report("acme").complete()).isTrue();
  }
}
