package dev.georesolver.state;

import dev.georesolver.audit.CanonicalJson;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.Page;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.Settled;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.AuditRules;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.Corrections;
import dev.georesolver.state.rules.Cursors;
import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.OnContext;
import io.vertx.core.Future;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.Supplier;

import static dev.georesolver.reconcile.Samples.debt;
import static dev.georesolver.reconcile.Samples.repair;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The import of an earlier release's layout, every case written once and run on each backend by a
 * subclass: the earlier layout is written raw ({@link EarlierLayout}) the way its store left it, the
 * current store is opened on the same file or server, and {@link LegacyImport} moves it. Then every
 * module must hold what the earlier one did and go on from there; the earlier layout must be gone;
 * an import cut short, or run twice, must change nothing more.
 */
public abstract class LegacyImportContract {

  protected abstract OnContext context();

  /** A fresh place (file or key prefix) holding the earlier layout, empty. */
  protected EarlierLayout earlier() {
    return earlier(true);
  }

  /**
   * The earlier layout in this test's place.
   *
   * @param fresh a new place (else the one of this test, to write more)
   */
  protected abstract EarlierLayout earlier(boolean fresh);

  /** The current store on the same place. */
  protected abstract TablesStore open(FakeClock clock);

  /** The reader of the earlier layout in the same place. */
  protected abstract Legacy legacy(TablesStore store);

  /** Whether the earlier layout kept a write-behind (SQLite) and the time of an item's last change (SQLite). */
  protected abstract boolean embedded();

  /** Fails unless nothing of the earlier layout is left. */
  protected abstract void assertEarlierGone();

  /** How long the earlier layout must hold still in these tests, milliseconds. */
  protected static final long QUIET = 20;

  protected final FakeClock clock = new FakeClock();
  protected OnContext on;
  protected String ns;
  protected long t0;
  protected TablesStore store;

  @BeforeEach
  void fresh() {
    on = context();
    ns = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    t0 = clock.millis();
  }

  @AfterEach
  void closeStore() {
    if (store != null) {
      on.await(() -> store.close());
    }
  }

  protected <T> T call(Supplier<Future<T>> f) {
    return on.await(f);
  }

  // ---- the earlier layout's content ------------------------------------------------------------

  QueueItem item(String key, String state, int attempts, long notBefore, String owner, Long until, long accepted, String outcome,
      String error, long updated) {
    // As a debt travels and is stored: without the trace id of the request it came from.
    Debt d = Debt.fromJson(debt(ns + key, t0 - 20_000, accepted).toJson());
    return new QueueItem(d.debtKey(), d, state, attempts, notBefore, owner, until, accepted, outcome, error, updated);
  }

  /** Pending, backing off, held, lease run out, done, dead: oldest accepted last. */
  List<QueueItem> items() {
    return List.of(
        item("a", QueueRules.PENDING, 0, 0, null, null, t0 - 5000, null, null, t0 - 5000),
        item("b", QueueRules.PENDING, 2, t0 + 60_000, null, null, t0 - 6000, null, "timeout", t0 - 100),
        item("c", QueueRules.IN_PROGRESS, 1, 0, "old-r", t0 + 30_000, t0 - 7000, null, null, t0 - 50),
        item("d", QueueRules.IN_PROGRESS, 0, 0, "old-r", t0 - 1000, t0 - 8000, null, null, t0 - 40),
        item("e", QueueRules.DONE, 0, 0, null, null, t0 - 9000, "corrected", null, t0 - 200),
        item("f", QueueRules.DEAD, 5, 0, null, null, t0 - 10_000, "dead", "boom", t0 - 300));
  }

  List<Correction> corrections() {
    List<Correction> out = new ArrayList<>();
    for (String k : List.of("e", "x1", "x2")) {
      out.add(Corrections.build(debt(ns + k, t0 - 20_000, t0 - 9000), repair(t0 - 3000, ns + "addr-" + k)));
    }
    return out;
  }

  AuditEvent event(String tenant, String id, long ts) {
    JsonObject b = new JsonObject().put("id", id).put("tenant", tenant).put("ts_ms", ts).put("kind", "degraded");
    return new AuditEvent(tenant, id, ts, CanonicalJson.canonical(b));
  }

  List<AuditEvent> events(String tenant, int n) {
    List<AuditEvent> out = new ArrayList<>();
    for (int i = 1; i <= n; i++) {
      out.add(event(tenant, Integer.toString(i), t0 - 10_000 + i));
    }
    return out;
  }

  /** The chain the earlier store computed for {@code events}: seq → hash. */
  static Map<Long, String> hashes(List<AuditEvent> events) {
    Map<Long, String> out = new LinkedHashMap<>();
    String prev = AuditChain.GENESIS;
    long seq = 0;
    for (AuditEvent e : events) {
      seq++;
      prev = AuditChain.hash(prev, seq, e.body());
      out.put(seq, prev);
    }
    return out;
  }

  static JsonObject spec() {
    return new JsonObject().put("intent", "describe").put("format", "csv").put("slice_rows", 3).put("columns", new JsonArray().add("a"));
  }

  BatchJob running() {
    return new BatchJob(ns + "j1", ns, "key:1", BatchJob.RUNNING, spec(), 7, 4, 3, 0, 0, 1, t0 - 3000, t0 - 2500, null);
  }

  BatchJob finished() {
    return new BatchJob(ns + "j2", ns, "key:2", BatchJob.DONE, spec(), 2, 2, 2, 0, 0, 0, t0 - 2000, t0 - 1900, t0 - 1800);
  }

  BatchJob loading() {
    return new BatchJob(ns + "j3", ns, "key:3", BatchJob.LOADING, spec(), 0, 0, 0, 0, 0, 0, t0 - 1000, null, null);
  }

  static JsonObject row(long i) {
    return new JsonObject().put("v", new JsonArray().add("Paris " + i)).put("d", "FORWARD");
  }

  static JsonObject result(String status) {
    return new JsonObject().put("status", status).put("lon", 2.35).put("lat", 48.85);
  }

  ResolveResult answer(String key, double lon, long resolvedAt) {
    return ResolveResult.builder().status("resolved").lon(lon).lat(1.0).idempotencyKey(key).resolvedAtMs(resolvedAt).build();
  }

  /** The cursors the earlier store handed out for {@link #corrections()}. */
  List<String> cursors = new ArrayList<>();

  /** Writes everything above as the earlier store left it. */
  void writeEarlier() {
    try (EarlierLayout e = earlier()) {
      items().forEach(e::item);
      List<Correction> cs = corrections();
      cursors.add(e.correction(cs.get(0), t0 - 3000));
      cursors.add(e.correction(cs.get(1), t0 - 3000));
      cursors.add(e.correction(cs.get(2), t0 - 2000));
      e.cursor("webhook:hook", cursors.get(1));
      e.audit(ns + "a", events(ns + "a", 6));
      e.retain(ns + "a", 2);
      e.audit(ns + "b", events(ns + "b", 2));
      BatchJob j1 = running();
      e.job(j1);
      for (long i = 0; i < 7; i++) {
        e.row(j1.id(), i, row(i), i < 3 ? result("resolved") : i == 3 ? result("failed") : null);
      }
      e.slice(j1.id(), 0, new BatchRules.Slice(null, 0, true));
      e.slice(j1.id(), 1, new BatchRules.Slice("old-w", t0 + 30_000, false));
      e.slice(j1.id(), 2, BatchRules.Slice.FREE);
      BatchJob j2 = finished();
      e.job(j2);
      e.row(j2.id(), 0, row(0), result("resolved"));
      e.row(j2.id(), 1, row(1), result("resolved"));
      e.slice(j2.id(), 0, new BatchRules.Slice(null, 0, true));
      BatchJob j3 = loading();
      e.job(j3);
      e.row(j3.id(), 0, row(0), null);
      e.row(j3.id(), 1, row(1), null);
      if (embedded()) {
        e.idem(ns + "k1", new StoredEntry(StoredAnswer.of(answer(ns + "k1", 1.0, t0 - 3000)), t0 - 3000, 3_600_000), t0 - 3000);
        e.idem(ns + "k2", new StoredEntry(StoredAnswer.of(answer(ns + "k2", 1.0, t0 - 2000)), t0 - 2000, 3_600_000), t0 - 2000);
        e.idem(ns + "k1", new StoredEntry(StoredAnswer.of(answer(ns + "k1", 2.0, t0 - 1000)), t0 - 1000, 3_600_000), t0 - 1000);
        e.idem(ns + "gone", new StoredEntry(StoredAnswer.of(answer(ns + "gone", 1.0, t0 - 7_200_000)), t0 - 7_200_000, 60_000),
            t0 - 7_200_000);
        e.index(new IndexEntry(ns + "x", 1, 2, "osm", "open_data", 0.8, "X", "street", t0 - 1000, null), t0 + 86_400_000);
      }
    }
  }

  /** The earlier layout written, the current store opened on it, and the import run. */
  Map<String, Long> migrated() {
    writeEarlier();
    store = open(clock);
    return call(() -> LegacyImport.run(store, legacy(store), clock, QUIET));
  }

  String cursor(int i) {
    return Long.toString(Cursors.seq(cursors.get(i)));
  }

  // ---- what must hold after ----------------------------------------------------------------------

  @Test
  @DisplayName("every queue item keeps its state, attempts, lease and acceptance; leases go oldest first; the figures hold")
  void theQueueMoves() {
    migrated();
    QueueStats s = call(() -> store.debts().stats());
    assertThat(List.of(s.pending(), s.inProgress(), s.done(), s.dead())).containsExactly(2L, 2L, 1L, 1L);
    assertThat(s.oldestPendingAgeS()).as("the oldest open item's age").isEqualTo(8.0);
    List<QueueItem> open = call(() -> store.queueStore().items(QueueRules.OPEN, 100));
    List<QueueItem> want = items().subList(0, 4);
    assertThat(open).hasSize(4);
    for (QueueItem w : want) {
      QueueItem got = open.stream().filter(i -> i.key().equals(w.key())).findFirst().orElseThrow();
      assertThat(got).usingRecursiveComparison().ignoringFields("updatedAtMs").isEqualTo(w);
    }
    QueueItem done = call(() -> store.queueStore().items(QueueRules.ENDED, 10)).get(0);
    assertThat(done).usingRecursiveComparison().ignoringFields("updatedAtMs").isEqualTo(items().get(4));
    assertThat(done.updatedAtMs()).as("kept a week from when it ended (Redis: from the migration)").isEqualTo(embedded() ? t0 - 200 : t0);
    QueueItem dead = call(() -> store.queueStore().items(QueueRules.DEAD_LETTERS, 10)).get(0);
    assertThat(dead).usingRecursiveComparison().ignoringFields("updatedAtMs").isEqualTo(items().get(5));

    List<LeasedDebt> first = call(() -> store.debts().lease("new", 10, 600_000));
    assertThat(first).extracting(LeasedDebt::id).as("the expired lease, then the due item, oldest first")
        .containsExactly(items().get(3).key(), items().get(0).key());
    assertThat(first.get(0).debt().acceptedAtMs()).isEqualTo(t0 - 8000);
    clock.advanceMs(60_001);
    List<LeasedDebt> later = call(() -> store.debts().lease("new2", 10, 30_000));
    assertThat(later).extracting(LeasedDebt::id).as("the old holder's lease ran out, the backoff ended")
        .containsExactly(items().get(2).key(), items().get(1).key());
    assertThat(later).extracting(LeasedDebt::attempts).containsExactly(1, 2);
    assertThat(call(() -> store.debts().confirm("new2", later.get(0)))).isEqualTo(Settled.OK);
  }

  @Test
  @DisplayName("the outbox keeps its order and cursors: a page after a cursor a client held goes on without loss or repeat, and grows on")
  void theOutboxMoves() {
    migrated();
    Page all = call(() -> store.corrections().page(null, 10));
    assertThat(all.corrections()).extracting(c -> c.getString("correction_id"))
        .containsExactly(corrections().stream().map(Correction::correctionId).toArray(String[]::new));
    assertThat(all.corrections()).extracting(c -> c.getString("cursor")).containsExactly(cursor(0), cursor(1), cursor(2));
    Page after = call(() -> store.corrections().page(cursors.get(0), 10));
    assertThat(after.corrections()).as("from the cursor the client held").extracting(c -> c.getString("cursor"))
        .containsExactly(cursor(1), cursor(2));
    assertThat(call(() -> store.corrections().head())).isEqualTo(cursor(2));
    assertThat(call(() -> store.corrections().cursor("webhook:hook"))).as("the webhook's cursor, as a number").isEqualTo(cursor(1));
    String held = call(() -> store.corrections().cursor("webhook:hook"));
    Page fromWebhook = call(() -> store.corrections().page(held, 10));
    assertThat(fromWebhook.corrections()).extracting(c -> c.getString("cursor")).containsExactly(cursor(2));
    String id = corrections().get(0).correctionId();
    assertThat(call(() -> store.tables().read(x -> x.get(OutboxStore.CORRECTED, id))).text()).as("its answer counts as corrected")
        .isEqualTo(cursor(0));

    LeasedDebt a = call(() -> store.debts().lease("new", 10, 30_000)).stream().filter(l -> l.id().endsWith("a|describe|forward"))
        .findFirst().orElseThrow();
    Settled s = call(() -> store.debts().correct("new", a, repair(clock.millis(), ns + "addr-a")));
    assertThat(s.correction().cursor()).as("the next number").isEqualTo(Long.toString(Long.parseLong(cursor(2)) + 1));
    assertThat(call(() -> store.corrections().page(cursor(2), 10)).corrections()).extracting(c -> c.getString("cursor"))
        .containsExactly(s.correction().cursor());
  }

  @Test
  @DisplayName("audit chains keep their numbers, hashes and anchors, verify, and grow on")
  void theAuditTrailMoves() {
    migrated();
    String a = ns + "a";
    List<AuditReader.Report> reports = call(() -> AuditReader.verify(store, null));
    assertThat(reports).filteredOn(r -> r.tenant().startsWith(ns)).extracting(AuditReader.Report::tenant).containsExactly(a, ns + "b");
    assertThat(reports).filteredOn(r -> r.tenant().startsWith(ns)).allMatch(AuditReader.Report::ok);
    AuditReader.Report ra = reports.stream().filter(r -> r.tenant().equals(a)).findFirst().orElseThrow();
    assertThat(ra.records()).isEqualTo(4);
    Map<Long, String> hashes = hashes(events(a, 6));
    assertThat(ra.anchor()).isEqualTo(new AuditChain.Anchor(2, hashes.get(2L)));
    JsonArray page = call(() -> store.audit().page(a, null, Long.MIN_VALUE, Long.MAX_VALUE, 10)).getJsonArray("records");
    assertThat(page.stream().map(o -> ((JsonObject) o).getLong("seq")).toList()).containsExactly(3L, 4L, 5L, 6L);
    for (Object o : page) {
      JsonObject r = (JsonObject) o;
      assertThat(r.getString("hash")).isEqualTo(hashes.get(r.getLong("seq")));
    }
    JsonObject w = call(() -> store.audit().append(List.of(event(a, "6", t0), event(a, "7", t0))));
    assertThat(w.getInteger("written")).as("record 6 is known by its id; 7 extends the chain").isEqualTo(1);
    JsonArray tail = call(() -> store.audit().page(a, "6", Long.MIN_VALUE, Long.MAX_VALUE, 10)).getJsonArray("records");
    assertThat(tail.getJsonObject(0).getLong("seq")).isEqualTo(7L);
    assertThat(tail.getJsonObject(0).getString("prev_hash")).isEqualTo(hashes.get(6L));
    assertThat(call(() -> AuditReader.verify(store, a)).get(0).ok()).isTrue();
  }

  @Test
  @DisplayName("batch jobs keep their figures, rows and results; the slices left are leased and the job finishes")
  void batchJobsMove() {
    migrated();
    StateStore.Batches b = store.batches();
    assertThat(call(() -> b.get(ns + "j1"))).isEqualTo(running());
    assertThat(call(() -> b.get(ns + "j2"))).isEqualTo(finished());
    assertThat(call(() -> b.get(ns + "j3"))).isEqualTo(loading());
    assertThat(call(() -> b.find(ns, "key:1"))).isEqualTo(running());
    assertThat(call(() -> b.list(ns, 10))).extracting(BatchJob::id).containsExactly(ns + "j3", ns + "j2", ns + "j1");
    List<JsonObject> rows = call(() -> b.page(ns + "j1", 0, 10));
    assertThat(rows).hasSize(7);
    assertThat(rows).extracting(r -> r.getJsonObject("row")).containsExactly(row(0), row(1), row(2), row(3), row(4), row(5), row(6));
    assertThat(rows).extracting(r -> r.getJsonObject("result") == null ? null : r.getJsonObject("result").getString("status"))
        .containsExactly("resolved", "resolved", "resolved", "failed", null, null, null);

    JsonObject free = call(() -> b.lease("w", 30_000));
    assertThat(free.getInteger("slice")).as("the free slice first").isEqualTo(2);
    assertThat(free.getJsonArray("rows").stream().map(r -> ((JsonObject) r).getLong("i")).toList()).containsExactly(6L);
    assertThat(call(() -> b.lease("w", 30_000))).as("the other slice is still the old worker's").isNull();
    clock.advanceMs(30_001);
    JsonObject taken = call(() -> b.lease("w", 30_000));
    assertThat(taken.getInteger("slice")).isEqualTo(1);
    assertThat(taken.getJsonArray("rows").stream().map(r -> ((JsonObject) r).getLong("i")).toList()).containsExactly(4L, 5L);
    List<JsonObject> results = new ArrayList<>();
    for (long i = 4; i <= 6; i++) {
      results.add(new JsonObject().put("i", i).put("result", result("resolved")));
    }
    BatchJob end = call(() -> b.record(ns + "j1", results));
    assertThat(end.state()).isEqualTo(BatchJob.DONE);
    assertThat(List.of(end.done(), end.resolved(), end.failed())).containsExactly(7L, 6L, 1L);
  }

  @Test
  @DisplayName("the write-behind logs load back as before: the newest answer per key, the most recent first, the expired left out")
  void theWriteBehindMoves() {
    if (!embedded()) {
      assertThat(migrated().getOrDefault("cache.idem", 0L)).as("the earlier Redis store kept none").isZero();
      return;
    }
    migrated();
    CacheWrites idem = call(() -> store.cache().load("idem", 10));
    assertThat(idem.idem()).extracting(CacheWrites.Idem::key).containsExactly(ns + "k1", ns + "k2");
    assertThat(ResolveResult.fromJson(idem.idem().get(0).answer().toJson()).lon()).as("the newer answer").isEqualTo(2.0);
    assertThat(call(() -> store.cache().load("index", 10)).index()).extracting(IndexEntry::addrKey).containsExactly(ns + "x");
  }

  @Test
  @DisplayName("more than a page moves whole, page by page: a job's rows and slices, a tenant's chain")
  void moreThanAPage() {
    int n = LegacyImport.PAGE * 2 + 1;
    String tenant = ns + "big";
    BatchJob big = new BatchJob(ns + "big", ns, "key:big", BatchJob.QUEUED, spec().put("slice_rows", 1), n, 0, 0, 0, 0, 0, t0, null,
        null);
    try (EarlierLayout e = earlier()) {
      e.job(big);
      for (long i = 0; i < n; i++) {
        e.row(big.id(), i, row(i), null);
        e.slice(big.id(), i, BatchRules.Slice.FREE);
      }
      e.audit(tenant, events(tenant, n));
    }
    store = open(clock);
    Map<String, Long> moved = call(() -> LegacyImport.run(store, legacy(store), clock, QUIET));
    assertThat(moved.get("batch_rows")).isEqualTo(n);
    assertThat(moved.get("audit")).isEqualTo(n);
    List<JsonObject> rows = call(() -> store.batches().page(big.id(), 0, n + 10));
    assertThat(rows).hasSize(n);
    assertThat(rows.get(n - 1).getJsonObject("row")).isEqualTo(row(n - 1));
    long free = call(() -> store.tables().read(x -> x.count(BatchStore.slices(big.id()), BatchStore.FREE)));
    assertThat(free).isEqualTo(n);
    AuditReader.Report r = call(() -> AuditReader.verify(store, tenant)).get(0);
    assertThat(r.ok()).isTrue();
    assertThat(r.records()).isEqualTo(n);
    assertEarlierGone();
  }

  @Test
  @DisplayName("the earlier layout is gone afterwards, and the import run again finds nothing and changes nothing")
  void earlierRemovedAndTwiceIsOnce() {
    Map<String, Long> moved = migrated();
    assertThat(moved.get("queue")).isEqualTo(6);
    assertThat(moved.get("outbox")).isEqualTo(3);
    assertThat(moved.get("audit")).isEqualTo(6);
    assertThat(moved.get("batch_rows")).isEqualTo(11);
    assertEarlierGone();
    assertThat(call(() -> legacy(store).present())).isFalse();
    Snapshot before = snapshot();
    assertThat(call(() -> LegacyImport.run(store, legacy(store), clock, QUIET))).isEmpty();
    assertThat(snapshot()).isEqualTo(before);
  }

  @Test
  @DisplayName("an import cut short at any step, then run again, ends with everything once")
  void cutShortThenAgain() {
    writeEarlier();
    store = open(clock);
    Snapshot whole = null;
    for (int failAt = 1; ; failAt += 3) {
      Flaky f = new Flaky(legacy(store), failAt, false);
      try {
        call(() -> LegacyImport.run(store, f, clock, QUIET));
        break;
      } catch (RuntimeException expected) {
        assertThat(expected).hasMessageContaining("cut short");
        assertThat(call(() -> legacy(store).present())).as("nothing removed").isTrue();
      }
    }
    whole = snapshot();
    assertEarlierGone();
    assertThat(whole.stats()).containsExactly(2L, 2L, 1L, 1L);
    assertThat(whole.outbox()).hasSize(3);
    assertThat(whole.audit()).containsExactly(4L, 2L);
    assertThat(whole.rows()).isEqualTo(11);
  }

  @Test
  @DisplayName("an import cut short before removing, then run again, removes the earlier layout and duplicates nothing")
  void cutShortAtRemoval() {
    writeEarlier();
    store = open(clock);
    assertThat(on.failure(() -> LegacyImport.run(store, new Flaky(legacy(store), Integer.MAX_VALUE, true), clock, QUIET)))
        .hasMessageContaining("cut short");
    assertThat(call(() -> legacy(store).present())).isTrue();
    call(() -> LegacyImport.run(store, legacy(store), clock, QUIET));
    assertEarlierGone();
    Snapshot s = snapshot();
    assertThat(s.stats()).containsExactly(2L, 2L, 1L, 1L);
    assertThat(s.outbox()).hasSize(3);
    assertThat(s.audit()).containsExactly(4L, 2L);
  }

  @Test
  @DisplayName("when the figures do not add up nothing is removed and the import fails, naming what is short")
  void shortFiguresRemoveNothing() {
    writeEarlier();
    store = open(clock);
    Legacy real = legacy(store);
    Legacy inflated = new Flaky(real, Integer.MAX_VALUE, false) {
      @Override
      public Future<Map<String, Long>> counts() {
        return real.counts().map(c -> {
          Map<String, Long> more = new LinkedHashMap<>(c);
          more.merge("outbox", 1L, Long::sum);
          return more;
        });
      }
    };
    Throwable t = on.failure(() -> LegacyImport.run(store, inflated, clock, QUIET));
    assertThat(t).isInstanceOf(LegacyImport.Unaccounted.class).hasMessageContaining("outbox 3 of 4");
    assertThat(call(real::present)).isTrue();
    assertThat(call(real::counts).get("outbox")).isEqualTo(3);
    call(() -> LegacyImport.run(store, real, clock, QUIET));
    assertEarlierGone();
  }

  @Test
  @DisplayName("an earlier release that went on after an import stopped short is followed: what it changed since is brought up to date, "
      + "what this store changed is kept")
  void theEarlierReleaseWentOn() {
    writeEarlier();
    store = open(clock);
    on.failure(() -> LegacyImport.run(store, new Flaky(legacy(store), Integer.MAX_VALUE, true), clock, QUIET));
    List<LeasedDebt> mine = call(() -> store.debts().lease("new", 1, 600_000));
    assertThat(mine).extracting(LeasedDebt::id).containsExactly(items().get(3).key());
    // Then the earlier release ran again on its own layout (a downgrade) and went on.
    QueueItem a = items().get(0);
    QueueItem aDone = new QueueItem(a.key(), a.debt(), QueueRules.DONE, 0, 0, null, null, a.acceptedAtMs(), "confirmed", null, t0 - 10);
    QueueItem d = items().get(3);
    QueueItem dDead = new QueueItem(d.key(), d.debt(), QueueRules.DEAD, 1, 0, null, null, d.acceptedAtMs(), "dead", "gone", t0 - 10);
    BatchJob j1 = running();
    BatchJob j1More = new BatchJob(j1.id(), j1.tenant(), j1.idemKey(), j1.state(), j1.spec(), j1.total(), 5, 4, 0, 0, 1,
        j1.createdAtMs(), j1.startedAtMs(), null);
    Correction extra = Corrections.build(debt(ns + "x3", t0 - 20_000, t0 - 9000), repair(t0 - 1000, ns + "addr-x3"));
    try (EarlierLayout e = earlier(false)) {
      e.item(aDone);
      e.item(dDead);
      e.row(j1.id(), 4, row(4), result("resolved"));
      e.job(j1More);
      e.audit(ns + "b", List.of(event(ns + "b", "3", t0 - 500), event(ns + "b", "4", t0 - 400)));
      cursors.add(e.correction(extra, t0 - 1000));
    }
    call(() -> LegacyImport.run(store, legacy(store), clock, QUIET));
    assertEarlierGone();
    QueueItem aNow = call(() -> store.queueStore().items(QueueRules.ENDED, 10)).stream().filter(i -> i.key().equals(a.key()))
        .findFirst().orElseThrow();
    assertThat(aNow.outcome()).as("brought up to date").isEqualTo("confirmed");
    QueueItem dNow = call(() -> store.queueStore().items(QueueRules.OPEN, 10)).stream().filter(i -> i.key().equals(d.key()))
        .findFirst().orElseThrow();
    assertThat(dNow.leaseOwner()).as("this store's lease kept").isEqualTo("new");
    QueueStats s = call(() -> store.debts().stats());
    assertThat(List.of(s.pending(), s.inProgress(), s.done(), s.dead())).containsExactly(1L, 2L, 2L, 1L);
    assertThat(call(() -> store.batches().get(j1.id())).done()).isEqualTo(5);
    assertThat(call(() -> store.batches().page(j1.id(), 4, 1)).get(0).getJsonObject("result")).isEqualTo(result("resolved"));
    AuditReader.Report b = call(() -> AuditReader.verify(store, ns + "b")).get(0);
    assertThat(b.ok()).isTrue();
    assertThat(b.records()).isEqualTo(4);
    assertThat(call(() -> store.corrections().page(null, 10)).corrections()).extracting(c -> c.getString("cursor"))
        .containsExactly(cursor(0), cursor(1), cursor(2), cursor(3));
  }

  @Test
  @DisplayName("an earlier layout that changes while it is read (an earlier resolver still writing) is not removed")
  void aLayoutStillWrittenIsKept() {
    writeEarlier();
    store = open(clock);
    Legacy real = legacy(store);
    int[] calls = {0};
    Legacy moving = new Flaky(real, Integer.MAX_VALUE, false) {
      @Override
      public Future<String> fingerprint() {
        return Future.succeededFuture("write " + (calls[0]++ / 2));
      }
    };
    Throwable t = on.failure(() -> LegacyImport.run(store, moving, clock, QUIET));
    assertThat(t).isInstanceOf(LegacyImport.Busy.class).hasMessageContaining("still writes it");
    assertThat(call(real::present)).isTrue();
    call(() -> LegacyImport.run(store, real, clock, QUIET));
    assertEarlierGone();
  }

  /** What the store holds, compared before and after a second run. */
  record Snapshot(List<Long> stats, List<String> outbox, List<Long> audit, long rows, List<BatchJob> jobs) {}

  Snapshot snapshot() {
    QueueStats s = call(() -> store.debts().stats());
    List<String> outbox = call(() -> store.corrections().page(null, 100)).corrections().stream()
        .map(c -> c.getString("cursor") + "/" + c.getString("correction_id")).toList();
    List<Long> audit = call(() -> AuditReader.verify(store, null)).stream().filter(r -> r.tenant().startsWith(ns))
        .peek(r -> assertThat(r.ok()).isTrue()).map(AuditReader.Report::records).toList();
    long rows = 0;
    for (String j : List.of("j1", "j2", "j3")) {
      rows += call(() -> store.batches().page(ns + j, 0, 100)).size();
    }
    return new Snapshot(List.of(s.pending(), s.inProgress(), s.done(), s.dead()), outbox, audit, rows + loadingRows(),
        call(() -> store.batches().list(ns, 10)));
  }

  /** A loading job's rows (its total is not known, so pages show none): counted from its table. */
  private long loadingRows() {
    return call(() -> store.tables().read(x -> x.get(BatchStore.rows(ns + "j3"), List.of("0", "1", "2"))))
        .stream().filter(r -> r.exists()).count();
  }

  /**
   * The earlier layout read in pages of two, failing ("cut short") at its {@code failAt}-th read,
   * or at removal: an import that stops anywhere.
   */
  static class Flaky implements Legacy {
    private final Legacy inner;
    private final boolean failRemoval;
    private int left;

    Flaky(Legacy inner, int failAt, boolean failRemoval) {
      this.inner = inner;
      this.left = failAt;
      this.failRemoval = failRemoval;
    }

    private <T> Future<T> read(Supplier<Future<T>> f) {
      return --left <= 0 ? Future.failedFuture(new IllegalStateException("cut short")) : f.get();
    }

    @Override
    public String describe() {
      return inner.describe();
    }

    @Override
    public Future<Boolean> present() {
      return inner.present();
    }

    @Override
    public Future<Map<String, Long>> counts() {
      return inner.counts();
    }

    @Override
    public Future<String> fingerprint() {
      return inner.fingerprint();
    }

    @Override
    public Future<Legacy.Page<QueueItem>> queue(String after, int limit, long nowMs) {
      return read(() -> inner.queue(after, Math.min(limit, 2), nowMs));
    }

    @Override
    public Future<Legacy.Page<OutboxEntry>> outbox(String after, int limit) {
      return read(() -> inner.outbox(after, Math.min(limit, 2)));
    }

    @Override
    public Future<List<DeliveryCursor>> cursors() {
      return read(inner::cursors);
    }

    @Override
    public Future<List<String>> auditTenants() {
      return read(inner::auditTenants);
    }

    @Override
    public Future<AuditChain.Anchor> auditAnchor(String tenant) {
      return read(() -> inner.auditAnchor(tenant));
    }

    @Override
    public Future<Legacy.Page<AuditRules.Link>> audit(String tenant, String after, int limit) {
      return read(() -> inner.audit(tenant, after, Math.min(limit, 2)));
    }

    @Override
    public Future<Legacy.Page<BatchJob>> jobs(String after, int limit) {
      return read(() -> inner.jobs(after, Math.min(limit, 2)));
    }

    @Override
    public Future<Legacy.Page<BatchRow>> batchRows(BatchJob job, String after, int limit) {
      return read(() -> inner.batchRows(job, after, Math.min(limit, 2)));
    }

    @Override
    public Future<List<Slice>> slices(BatchJob job, long from, int limit) {
      return read(() -> inner.slices(job, from, limit));
    }

    @Override
    public Future<Legacy.Page<CacheEntry>> cache(String kind, String after, int limit) {
      return read(() -> inner.cache(kind, after, Math.min(limit, 2)));
    }

    @Override
    public Future<Void> remove() {
      return failRemoval ? Future.failedFuture(new IllegalStateException("cut short")) : inner.remove();
    }
  }
}
