package dev.georesolver.state.contract;

import dev.georesolver.audit.CanonicalJson;
import dev.georesolver.state.rules.AuditGaps;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.BatchQuota;
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
import dev.georesolver.state.AuditReader;
import dev.georesolver.state.BatchQuotaExceeded;
import dev.georesolver.state.StateStore;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.rules.OutboxRetention;
import dev.georesolver.state.tables.Row;
import dev.georesolver.state.tables.Table;
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
import java.util.List;
import java.util.UUID;
import java.util.function.Supplier;

import static dev.georesolver.reconcile.Samples.debt;
import static dev.georesolver.reconcile.Samples.repair;
import static dev.georesolver.reconcile.Samples.repairWithAddress;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The durable store's contract, every case written once (after Kafka Streams'
 * {@code AbstractKeyValueStoreTest}) and run against each backend by a subclass: the reconcile queue,
 * the corrections outbox, batch jobs, the audit trail and the cache's write-behind. Time is a fake
 * clock, so leases expire and backoffs end when the test says.
 */
public abstract class StateStoreContract {

  /** The context calls are made on. */
  protected abstract OnContext context();

  /**
   * A fresh store no other test shares, on {@code clock}.
   *
   * @param keepsCache whether it keeps the memory cache's write-behind (the embedded store)
   */
  protected abstract TablesStore open(OnContext on, FakeClock clock, boolean keepsCache);

  /** Whether this backend keeps the cache's write-behind (an embedded store does; Redis has its own shared cache). */
  protected abstract boolean keepsCache();

  protected final FakeClock clock = new FakeClock();
  protected OnContext on;
  protected TablesStore store;
  /** A tenant and key prefix no other test uses, so backends shared by the tests need no flush. */
  protected String ns;

  @BeforeEach
  void openStore() {
    on = context();
    ns = "t" + UUID.randomUUID().toString().replace("-", "").substring(0, 10);
    store = open(on, clock, keepsCache());
  }

  @AfterEach
  void closeStore() {
    on.await(() -> store.close());
  }

  protected <T> T call(Supplier<Future<T>> f) {
    return on.await(f);
  }

  StateStore.Debts q() {
    return store.debts();
  }

  long now() {
    return clock.millis();
  }

  Debt d(String key, long resolvedAt, long acceptedAt) {
    return debt(ns + key, resolvedAt, acceptedAt);
  }

  List<String> keysOf(List<LeasedDebt> ls) {
    return ls.stream().map(l -> l.debt().idempotencyKey().substring(ns.length())).toList();
  }

  JsonObject enqueue(Debt... ds) {
    return call(() -> q().enqueue(List.of(ds)));
  }

  List<LeasedDebt> lease(String owner, int max) {
    return call(() -> q().lease(owner, max, 30_000));
  }

  QueueStats stats() {
    return call(() -> q().stats());
  }

  // ---- the reconcile queue ---------------------------------------------------------------------

  @Test
  @DisplayName("a debt is queued once per key, intent and direction; a newer degraded answer keeps its place, an older one is a duplicate")
  void debtsAreQueuedOnce() {
    assertThat(enqueue(d("a", 100, 1000))).isEqualTo(new JsonObject().put("accepted", 1).put("duplicate", 0));
    assertThat(enqueue(d("a", 100, 2000)).getInteger("duplicate")).as("the same answer again").isEqualTo(1);
    assertThat(enqueue(d("a", 50, 3000)).getInteger("duplicate")).as("an older answer").isEqualTo(1);
    assertThat(enqueue(d("a", 200, 4000)).getInteger("accepted")).as("a newer answer").isEqualTo(1);
    assertThat(stats().pending()).isEqualTo(1);
    LeasedDebt l = lease("r1", 10).get(0);
    assertThat(l.debt().answerResolvedAtMs()).isEqualTo(200);
    assertThat(l.debt().acceptedAtMs()).as("its place in the queue").isEqualTo(1000);
  }

  @Test
  @DisplayName("one batch with the same key twice keeps the newer answer and counts the other as a duplicate")
  void aBatchWithOneKeyTwice() {
    assertThat(enqueue(d("a", 100, 1000), d("a", 300, 1000), d("a", 200, 1000)))
        .isEqualTo(new JsonObject().put("accepted", 2).put("duplicate", 1));
    assertThat(lease("r1", 5).get(0).debt().answerResolvedAtMs()).isEqualTo(300);
  }

  @Test
  @DisplayName("leases go oldest accepted first, each item to one owner, until its lease expires on the clock")
  void leasesGoOldestFirstAndExpire() {
    enqueue(d("c", 1, 3000), d("a", 1, 1000), d("b", 1, 2000));
    List<LeasedDebt> first = lease("r1", 2);
    assertThat(keysOf(first)).containsExactly("a", "b");
    assertThat(keysOf(lease("r2", 10))).containsExactly("c");
    assertThat(lease("r2", 10)).isEmpty();
    clock.advanceMs(30_001);
    assertThat(keysOf(lease("r2", 10))).as("every lease ran out").containsExactly("a", "b", "c");
    assertThat(call(() -> q().correct("r1", first.get(0), repair(now(), null)))).as("r1 lost its lease").isEqualTo(Settled.LOST);
    assertThat(call(() -> store.corrections().page(null, 10)).corrections()).isEmpty();
  }

  @Test
  @DisplayName("a correction appends to the outbox and ends the item together; pages follow the cursor and an empty page keeps it")
  void theTransactionalOutbox() {
    enqueue(d("a", 100, 1000));
    LeasedDebt l = lease("r1", 1).get(0);
    Settled s = call(() -> q().correct("r1", l, repair(now(), ns + "addr-a")));
    assertThat(s.ok()).isTrue();
    String cursor = s.correction().cursor();
    assertThat(cursor).isNotNull();
    assertThat(stats()).satisfies(st -> {
      assertThat(st.done()).isEqualTo(1);
      assertThat(st.pending() + st.inProgress()).isZero();
    });
    Page p = call(() -> store.corrections().page(null, 10));
    assertThat(p.corrections()).hasSize(1);
    assertThat(p.corrections().get(0).getString("correction_id")).isEqualTo(s.correction().correctionId());
    assertThat(p.next()).isEqualTo(cursor);
    Page empty = call(() -> store.corrections().page(cursor, 10));
    assertThat(empty.corrections()).isEmpty();
    assertThat(empty.next()).as("an empty page keeps the cursor").isEqualTo(cursor);
    assertThat(call(() -> store.corrections().head())).isEqualTo(cursor);
  }

  @Test
  @DisplayName("the outbox keeps a correction 30 days: housekeeping trims older ones, the head and the numbering stay, old cursors resume")
  void outboxTrimmedByRetention() {
    enqueue(d("a", 100, 1000));
    LeasedDebt a = lease("r1", 1).get(0);
    Settled old = call(() -> q().correct("r1", a, repair(now(), null)));
    clock.advanceMs(OutboxRetention.KEEP_MS - 10);
    enqueue(d("b", 100, now()));
    LeasedDebt b = lease("r1", 1).get(0);
    Settled recent = call(() -> q().correct("r1", b, repair(now(), null)));
    housekeepingDone();
    assertThat(call(() -> store.corrections().page(null, 10)).corrections()).as("nothing past its retention yet").hasSize(2);
    clock.advanceMs(11);
    housekeepingDone();
    assertThat(call(() -> store.corrections().page(null, 10)).corrections()).extracting(c -> c.getString("correction_id"))
        .containsExactly(recent.correction().correctionId());
    assertThat(call(() -> store.corrections().page(old.correction().cursor(), 10)).corrections()).hasSize(1);
    assertThat(call(() -> store.corrections().head())).isEqualTo(recent.correction().cursor());
    enqueue(d("c", 100, now()));
    LeasedDebt c = lease("r1", 1).get(0);
    Settled next = call(() -> q().correct("r1", c, repair(now(), null)));
    assertThat(Long.parseLong(next.correction().cursor())).as("numbering goes on")
        .isGreaterThan(Long.parseLong(recent.correction().cursor()));
  }

  /** Housekeeping steps until one removes nothing (each step is bounded). */
  private void housekeepingDone() {
    for (int k = 0; k < 100 && call(() -> store.housekeeping()) > 0; k++) {
      // another step
    }
  }

  @Test
  @DisplayName("a drift is corrected once per stored answer, with reason drift, owing nothing in the queue; a degraded answer's correction is still its own")
  void driftIsCorrectedOnce() {
    Debt basis = d("drifted", 100, 1000);
    Correction first = call(() -> q().drift(basis, repair(now(), null)));
    assertThat(first).isNotNull();
    assertThat(first.reason()).isEqualTo(Correction.DRIFT);
    assertThat(first.cursor()).isNotNull();
    assertThat(call(() -> q().drift(basis, repair(now(), null)))).as("another node found the same drift").isNull();
    assertThat(stats().pending() + stats().inProgress() + stats().done()).as("no debt").isZero();
    enqueue(basis);
    LeasedDebt l = lease("r1", 1).get(0);
    Settled degraded = call(() -> q().correct("r1", l, repair(now(), null)));
    assertThat(degraded.correction().correctionId()).isNotEqualTo(first.correctionId());
    assertThat(degraded.correction().reason()).isEqualTo(Correction.DEGRADED);
    List<JsonObject> page = call(() -> store.corrections().page(null, 10)).corrections();
    assertThat(page).extracting(j -> j.getString("reason")).containsExactly("drift", "degraded");
  }

  @Test
  @DisplayName("the same degraded answer is never corrected twice; a later one is a new debt, corrected once more")
  void oneCorrectionPerAnswer() {
    enqueue(d("a", 100, 1000));
    LeasedDebt l = lease("r1", 1).get(0);
    Settled first = call(() -> q().correct("r1", l, repair(now(), null)));
    assertThat(enqueue(d("a", 100, 9000)).getInteger("duplicate")).isEqualTo(1);
    assertThat(lease("r1", 1)).isEmpty();
    enqueue(d("a", 700, 9000));
    LeasedDebt again = lease("r1", 1).get(0);
    Settled second = call(() -> q().correct("r1", again, repair(now(), null)));
    assertThat(second.correction().correctionId()).isNotEqualTo(first.correction().correctionId());
    assertThat(call(() -> store.corrections().page(null, 10)).corrections()).hasSize(2);
  }

  @Test
  @DisplayName("retry counts an attempt and backs off, release does not, dead keeps the item and no later debt revives it")
  void settlingByVerdict() {
    enqueue(d("a", 1, 1000), d("b", 1, 2000), d("c", 1, 3000));
    List<LeasedDebt> ls = lease("r1", 3);
    assertThat(call(() -> q().retry("r1", ls.get(0), now() + 5000, "primary:transient")).ok()).isTrue();
    assertThat(call(() -> q().release("r1", ls.get(1), now() + 500)).ok()).isTrue();
    assertThat(call(() -> q().dead("r1", ls.get(2), "primary:transient")).ok()).isTrue();
    assertThat(call(() -> q().dead("r1", ls.get(2), "again")).ok()).as("no lease any more").isFalse();
    assertThat(lease("r1", 3)).isEmpty();
    clock.advanceMs(600);
    LeasedDebt b = lease("r1", 3).get(0);
    assertThat(keysOf(List.of(b))).containsExactly("b");
    assertThat(b.attempts()).as("released, not retried").isZero();
    clock.advanceMs(5000);
    LeasedDebt a = lease("r1", 3).get(0);
    assertThat(a.attempts()).isEqualTo(1);
    QueueStats s = stats();
    assertThat(s.inProgress()).isEqualTo(2);
    assertThat(s.dead()).isEqualTo(1);
    assertThat(enqueue(d("c", 99, 9000)).getInteger("duplicate")).as("dead stays dead").isEqualTo(1);
    assertThat(stats().dead()).isEqualTo(1);
  }

  @Test
  @DisplayName("the dead letters are listed, the longest dead first, with their attempts and last error, never their request")
  void deadLettersAreListed() {
    enqueue(d("a", 1, 1000), d("b", 1, 2000), d("c", 1, 3000));
    List<LeasedDebt> ls = lease("r1", 3);
    call(() -> q().dead("r1", ls.get(1), "primary: 503"));
    clock.advanceMs(10);
    call(() -> q().retry("r1", ls.get(0), now(), "primary: timeout"));
    clock.advanceMs(10);
    call(() -> q().dead("r1", ls.get(2), "primary: 429"));
    JsonArray dead = call(() -> q().deadLetters(10));
    assertThat(dead).hasSize(2);
    JsonObject first = dead.getJsonObject(0);
    assertThat(first.getString("idempotency_key")).isEqualTo(ns + "b");
    assertThat(first.getInteger("attempts")).isEqualTo(1);
    assertThat(first.getString("last_error")).isEqualTo("primary: 503");
    assertThat(first.containsKey("request")).isFalse();
    assertThat(dead.getJsonObject(1).getString("idempotency_key")).isEqualTo(ns + "c");
    assertThat(call(() -> q().deadLetters(1))).hasSize(1);
  }

  @Test
  @DisplayName("a settlement by another reconciler than the holder is lost and changes nothing")
  void onlyTheHolderSettles() {
    enqueue(d("a", 1, 1000));
    LeasedDebt l = lease("r1", 1).get(0);
    assertThat(call(() -> q().confirm("r2", l))).isEqualTo(Settled.LOST);
    assertThat(call(() -> q().retry("r2", l, now(), "x"))).isEqualTo(Settled.LOST);
    assertThat(stats().inProgress()).isEqualTo(1);
    assertThat(call(() -> q().confirm("r1", l))).isEqualTo(Settled.OK);
    assertThat(stats().done()).isEqualTo(1);
  }

  @Test
  @DisplayName("the backlog's age is the oldest open item's, also while every item is backing off")
  void theBacklogAgeCountsBackingOffItems() {
    long t0 = now();
    enqueue(new Debt(ns + "a", "describe", dev.georesolver.geo.Direction.FORWARD, "public", dev.georesolver.reconcile.Samples.request("x"),
        "fallback", "resolved", null, "open_data", 1.0, 1.0, 0.5, t0, t0));
    LeasedDebt l = lease("r1", 1).get(0);
    call(() -> q().retry("r1", l, now() + 600_000, "primary:transient"));
    clock.advanceMs(120_000);
    QueueStats s = stats();
    assertThat(s.pending()).isEqualTo(1);
    assertThat(s.oldestPendingAgeS()).as("two minutes, backoff or not").isEqualTo(120.0);
  }

  @Test
  @DisplayName("a done item opened again by a newer answer leaves done and counts as pending")
  void countsFollowReopening() {
    enqueue(d("a", 100, 1000));
    LeasedDebt l = lease("r1", 1).get(0);
    call(() -> q().confirm("r1", l));
    assertThat(stats().done()).isEqualTo(1);
    enqueue(d("a", 200, 5000));
    QueueStats s = stats();
    assertThat(s.done()).as("no longer done").isZero();
    assertThat(s.pending()).isEqualTo(1);
    assertThat(lease("r1", 1).get(0).attempts()).as("from the start").isZero();
  }

  @Test
  @DisplayName("done items are pruned a week after they ended, with their count; open and dead ones never")
  void doneItemsArePrunedAfterAWeek() {
    enqueue(d("a", 1, 1000), d("b", 1, 1001), d("c", 1, 1002));
    List<LeasedDebt> ls = lease("r1", 3);
    call(() -> q().confirm("r1", ls.get(0)));
    call(() -> q().dead("r1", ls.get(1), "x"));
    clock.advanceMs(7L * 86_400_000L - 1);
    assertThat(call(() -> store.housekeeping())).isZero();
    clock.advanceMs(1);
    assertThat(call(() -> store.housekeeping())).isEqualTo(1);
    QueueStats s = stats();
    assertThat(s.done()).isZero();
    assertThat(s.dead()).isEqualTo(1);
    assertThat(s.inProgress()).isEqualTo(1);
  }

  @Test
  @DisplayName("named delivery cursors are kept and read back; the head is the last correction's cursor")
  void deliveryCursors() {
    assertThat(call(() -> store.corrections().cursor("hook-" + ns))).isNull();
    call(() -> store.corrections().saveCursor("hook-" + ns, "42"));
    assertThat(call(() -> store.corrections().cursor("hook-" + ns))).isEqualTo("42");
  }

  // ---- shadow figures ----------------------------------------------------------------------------

  static dev.georesolver.shadow.ShadowTable shadowTable(String shadow, int n, double eastM) {
    dev.georesolver.shadow.KeyHasher h = new dev.georesolver.shadow.KeyHasher("a contract test secret".getBytes());
    dev.georesolver.shadow.ShadowTable t = new dev.georesolver.shadow.ShadowTable();
    for (int i = 0; i < n; i++) {
      double lon = 2.35 + eastM / (dev.georesolver.geo.GreatCircle.METRES_PER_DEGREE * Math.cos(Math.toRadians(48.85)));
      t.record(new dev.georesolver.shadow.ShadowSample(h.idOf(shadow + i), "describe", 1_000_000L + i,
          dev.georesolver.shadow.ShadowSample.Side.found("primary", new dev.georesolver.shadow.LonLat(2.35, 48.85), "rooftop",
              dev.georesolver.geo.Claim.EXACT, 40, null),
          dev.georesolver.shadow.ShadowSample.Side.found(shadow, new dev.georesolver.shadow.LonLat(lon, 48.85), "rooftop",
              dev.georesolver.geo.Claim.OPEN_DATA, 10, null)));
    }
    return t;
  }

  @Test
  @DisplayName("shadow figures from two nodes merged at once add up exactly, and read back the same from a second store over the same backend")
  void shadowFiguresMergeAcrossNodes() {
    assertThat(call(() -> store.shadow().read()).isEmpty()).as("nothing stored yet").isTrue();
    var a = shadowTable("osm", 30, 120);
    var b = shadowTable("osm", 20, 900);
    var c = shadowTable("photon", 5, 40);
    call(() -> Future.all(store.shadow().merge(a), store.shadow().merge(b), store.shadow().merge(c)));
    var expected = dev.georesolver.shadow.ShadowTable.merged(dev.georesolver.shadow.ShadowTable.merged(a, b), c);
    var read = call(() -> store.shadow().read());
    assertThat(read).isEqualTo(expected);
    assertThat(read.summaries().get(0).samples()).isEqualTo(50);
    TablesStore other = TablesStore.over(store.tables(), clock, false, null, 60);
    assertThat(call(() -> other.shadow().read())).as("another node sharing the store").isEqualTo(expected);
  }

  // ---- batch jobs --------------------------------------------------------------------------------

  BatchJob job(String name, String tenant, String idem) {
    return new BatchJob(ns + name, tenant, idem, BatchJob.LOADING, new JsonObject().put("intent", "describe").put("slice_rows", 2),
        0, 0, 0, 0, 0, 0, now(), null, null);
  }

  static JsonObject row(long i, JsonObject result) {
    JsonObject r = new JsonObject().put("i", i).put("row", new JsonObject().put("address", "row " + i));
    return result == null ? r : r.put("result", result);
  }

  static JsonObject result(long i, String status) {
    return new JsonObject().put("i", i).put("result", new JsonObject().put("status", status));
  }

  @Test
  @DisplayName("a job is submitted once per tenant and idempotency key; a second submission finds the first")
  void submitIsIdempotent() {
    BatchJob j = job("j1", ns, "key:x");
    JsonObject first = call(() -> store.batches().create(j));
    assertThat(first.getBoolean("created")).isTrue();
    JsonObject again = call(() -> store.batches().create(job("j2", ns, "key:x")));
    assertThat(again.getBoolean("created")).isFalse();
    assertThat(again.getJsonObject("job").getString("id")).isEqualTo(j.id());
    assertThat(call(() -> store.batches().find(ns, "key:x")).id()).isEqualTo(j.id());
    assertThat(call(() -> store.batches().find(ns + "other", "key:x"))).as("another tenant's key is its own").isNull();
  }

  @Test
  @DisplayName("a job's slices are leased one holder at a time, renewed by the holder only, taken over when the lease ends")
  void slicesAreLeased() {
    BatchJob j = job("j", ns, "key:s");
    call(() -> store.batches().create(j));
    call(() -> store.batches().append(j.id(), List.of(row(0, null), row(1, null), row(2, null))));
    BatchJob sealed = call(() -> store.batches().seal(j.id(), 3, new JsonArray().add("address")));
    assertThat(sealed.state()).isEqualTo(BatchJob.QUEUED);
    JsonObject a = leaseOf(j.id(), "w1");
    assertThat(a.getJsonObject("job").getString("state")).isEqualTo(BatchJob.RUNNING);
    assertThat(a.getJsonArray("rows")).hasSize(2);
    JsonObject b = leaseOf(j.id(), "w2");
    assertThat(b.getInteger("slice")).isNotEqualTo(a.getInteger("slice"));
    assertThat(leaseOf(j.id(), "w3")).as("both slices are held").isNull();
    assertThat(call(() -> store.batches().renew("w1", j.id(), a.getInteger("slice"), 30_000))).isTrue();
    assertThat(call(() -> store.batches().renew("w2", j.id(), a.getInteger("slice"), 30_000))).as("not its holder").isFalse();
    clock.advanceMs(30_001);
    JsonObject taken = leaseOf(j.id(), "w3");
    assertThat(taken).as("a lease that ran out is taken over").isNotNull();
  }

  @Test
  @DisplayName("leasing is fair across tenants: a tenant's later job gets a slice before another tenant's earlier jobs are used up")
  void leasingTakesTurnsAcrossTenants() {
    String big = ns + "a";
    String small = ns + "b";
    List<String> ours = new java.util.ArrayList<>();
    for (String[] spec : new String[][] {{"fa1", big}, {"fa2", big}, {"fb1", small}}) {
      BatchJob j = job(spec[0], spec[1], "key:" + spec[0]);
      ours.add(j.id());
      call(() -> store.batches().create(j));
      call(() -> store.batches().append(j.id(), List.of(row(0, null), row(1, null), row(2, null), row(3, null),
          row(4, null), row(5, null), row(6, null), row(7, null))));
      call(() -> store.batches().seal(j.id(), 8, new JsonArray().add("address")));
      clock.advanceMs(10);
    }
    List<String> tenants = new java.util.ArrayList<>();
    for (int i = 0; i < 200 && tenants.size() < 3; i++) {
      JsonObject l = call(() -> store.batches().lease("w", 30_000));
      if (l == null) {
        break;
      }
      if (ours.contains(l.getJsonObject("job").getString("id"))) {
        tenants.add(l.getJsonObject("job").getString("tenant"));
      }
    }
    assertThat(tenants).as("the tenants our first three leases went to").hasSize(3).contains(big, small);
  }

  /** Leases until it gets a slice of job {@code id} (other tests' jobs may be open on a shared backend). */
  JsonObject leaseOf(String id, String owner) {
    for (int i = 0; i < 50; i++) {
      JsonObject l = call(() -> store.batches().lease(owner, 30_000));
      if (l == null) {
        return null;
      }
      if (l.getJsonObject("job").getString("id").equals(id)) {
        return l;
      }
    }
    return null;
  }

  @Test
  @DisplayName("each row's first result counts once, by status; the job is done when every row has one; pages keep input order")
  void resultsCountOnce() {
    BatchJob j = job("r", ns, "key:r");
    call(() -> store.batches().create(j));
    call(() -> store.batches().append(j.id(), List.of(row(0, null), row(1, null),
        row(2, new JsonObject().put("status", "invalid").put("error", "no address")))));
    call(() -> store.batches().seal(j.id(), 3, new JsonArray().add("address")));
    BatchJob after = call(() -> store.batches().record(j.id(), List.of(result(0, "resolved"), result(0, "refused"))));
    assertThat(after.done()).isEqualTo(2);
    assertThat(after.resolved()).isEqualTo(1);
    assertThat(after.refused()).as("a second result for a row is ignored").isZero();
    assertThat(after.invalid()).isEqualTo(1);
    assertThat(after.state()).isEqualTo(BatchJob.QUEUED);
    BatchJob done = call(() -> store.batches().record(j.id(), List.of(result(1, "refused"), result(0, "resolved"))));
    assertThat(done.state()).isEqualTo(BatchJob.DONE);
    assertThat(done.finishedAtMs()).isNotNull();
    assertThat(List.of(done.done(), done.resolved(), done.refused(), done.invalid())).containsExactly(3L, 1L, 1L, 1L);
    List<JsonObject> page = call(() -> store.batches().page(j.id(), 0, 10));
    assertThat(page).extracting(o -> o.getLong("i")).containsExactly(0L, 1L, 2L);
    assertThat(page.get(1).getJsonObject("result").getString("status")).isEqualTo("refused");
    assertThat(leaseOf(j.id(), "w")).as("a done job is never leased").isNull();
  }

  @Test
  @DisplayName("a job whose rows were all invalid is done when sealed; a cancelled job ends and is never leased")
  void sealAndCancel() {
    BatchJob all = job("bad", ns, "key:bad");
    call(() -> store.batches().create(all));
    call(() -> store.batches().append(all.id(), List.of(row(0, new JsonObject().put("status", "invalid")))));
    assertThat(call(() -> store.batches().seal(all.id(), 1, new JsonArray())).state()).isEqualTo(BatchJob.DONE);
    BatchJob c = job("c", ns, "key:c");
    call(() -> store.batches().create(c));
    call(() -> store.batches().append(c.id(), List.of(row(0, null))));
    call(() -> store.batches().seal(c.id(), 1, new JsonArray()));
    BatchJob cancelled = call(() -> store.batches().cancel(c.id()));
    assertThat(cancelled.state()).isEqualTo(BatchJob.CANCELLED);
    assertThat(call(() -> store.batches().cancel(c.id())).state()).as("ended jobs stay as they ended").isEqualTo(BatchJob.CANCELLED);
    assertThat(leaseOf(c.id(), "w")).isNull();
  }

  @Test
  @DisplayName("jobs are listed newest first, every tenant's or one tenant's")
  void jobsAreListedNewestFirst() {
    call(() -> store.batches().create(job("old", ns, "key:1")));
    clock.advanceMs(10);
    call(() -> store.batches().create(job("new", ns, "key:2")));
    call(() -> store.batches().create(job("theirs", ns + "x", "key:3")));
    assertThat(call(() -> store.batches().list(ns, 10))).extracting(BatchJob::id).containsExactly(ns + "new", ns + "old");
  }

  BatchJob jobOf(String name, String tenant, long total) {
    return new BatchJob(ns + name, tenant, "key:" + name, BatchJob.LOADING, new JsonObject().put("intent", "describe")
        .put("slice_rows", 2), total, 0, 0, 0, 0, 0, now(), null, null);
  }

  /** Whether the backend still holds row {@code key} of a job's {@code table} ({@code rows}, {@code results}, {@code slices}). */
  boolean stored(String jobId, String table, String key) {
    Row r = on.await(() -> store.tables().read(x -> x.get(Table.of("batch:" + jobId, table), key)));
    return r.exists();
  }

  /** The store's refusal of a create, or null when it created the job. */
  Throwable refusal(BatchJob j, BatchQuota q) {
    try {
      call(() -> store.batches().create(j, q));
      return null;
    } catch (RuntimeException e) {
      return e;
    }
  }

  @Test
  @DisplayName("a tenant's live jobs and their rows are bounded; over quota nothing is written; an ended job frees its place")
  void quotasBoundLiveJobsAndRows() {
    BatchQuota two = new BatchQuota(2, 10, "batch.tenant_max_live_jobs", "batch.tenant_max_live_rows");
    assertThat(refusal(jobOf("q1", ns, 4), two)).isNull();
    assertThat(refusal(jobOf("q2", ns, 4), two)).isNull();
    assertThat(refusal(jobOf("other", ns + "x", 4), two)).as("another tenant's quota is its own").isNull();
    Throwable jobs = refusal(jobOf("q3", ns, 1), two);
    assertThat(jobs).isInstanceOf(BatchQuotaExceeded.class);
    assertThat(jobs.getMessage()).contains("has 2 live batch job(s)", "at most 2", "batch.tenant_max_live_jobs");
    assertThat(call(() -> store.batches().get(ns + "q3"))).as("a refused job is not stored").isNull();
    assertThat(call(() -> store.batches().find(ns, "key:q3"))).isNull();
    assertThat(call(() -> store.batches().list(ns, 10))).extracting(BatchJob::id).containsExactlyInAnyOrder(ns + "q1", ns + "q2");

    call(() -> store.batches().cancel(ns + "q1"));
    assertThat(refusal(jobOf("q3", ns, 4), two)).as("a cancelled job no longer counts").isNull();
    Throwable rows = refusal(jobOf("q4", ns, 3), new BatchQuota(5, 10, "a", "tenants[" + ns + "].batch_max_live_rows"));
    assertThat(rows).isInstanceOf(BatchQuotaExceeded.class);
    assertThat(rows.getMessage()).contains("hold 8 row(s)", "this file has 3", "tenants[" + ns + "].batch_max_live_rows");
    // A job that ends done (every row resolved) frees its rows too.
    call(() -> store.batches().append(ns + "q2", List.of(row(0, null), row(1, null), row(2, null), row(3, null))));
    call(() -> store.batches().seal(ns + "q2", 4, new JsonArray().add("address")));
    call(() -> store.batches().record(ns + "q2", List.of(result(0, "resolved"), result(1, "resolved"), result(2, "resolved"),
        result(3, "resolved"))));
    assertThat(refusal(jobOf("q4", ns, 3), new BatchQuota(5, 10, "a", "b"))).isNull();
  }

  @Test
  @DisplayName("jobs that ended more than keep_days ago are removed with their rows, results and name; live and recent ones stay")
  void endedJobsExpire() {
    long keep = 7L * 86_400_000L;
    BatchJob old = jobOf("old", ns, 5);
    BatchJob live = jobOf("live", ns, 2);
    for (BatchJob j : List.of(old, live)) {
      call(() -> store.batches().create(j));
      call(() -> store.batches().append(j.id(), List.of(row(0, null), row(1, null))));
    }
    call(() -> store.batches().append(old.id(), List.of(row(2, null), row(3, null), row(4, null))));
    call(() -> store.batches().seal(old.id(), 5, new JsonArray().add("address")));
    call(() -> store.batches().record(old.id(), List.of(result(0, "resolved"), result(1, "refused"))));
    call(() -> store.batches().cancel(old.id()));
    call(() -> store.batches().seal(live.id(), 2, new JsonArray().add("address")));
    clock.advanceMs(keep - 86_400_000L);
    BatchJob recent = jobOf("recent", ns, 1);
    call(() -> store.batches().create(recent));
    call(() -> store.batches().cancel(recent.id()));
    clock.advanceMs(86_400_000L);
    call(() -> store.batches().expire(keep, 5_000));
    assertThat(call(() -> store.batches().get(old.id()))).as("ended exactly keep_days ago: kept").isNotNull();

    clock.advanceMs(1);
    call(() -> store.batches().expire(keep, 5_000));
    assertThat(call(() -> store.batches().get(old.id()))).as("ended more than keep_days ago").isNull();
    assertThat(call(() -> store.batches().find(ns, "key:old"))).isNull();
    assertThat(call(() -> store.batches().page(old.id(), 0, 10))).isEmpty();
    assertThat(List.of(stored(old.id(), "rows", "0"), stored(old.id(), "rows", "4"), stored(old.id(), "results", "0"),
        stored(old.id(), "slices", "0"))).as("its rows, results and slices").containsOnly(false);
    assertThat(call(() -> store.batches().list(ns, 10))).extracting(BatchJob::id).containsExactlyInAnyOrder(live.id(), recent.id());
    assertThat(call(() -> store.batches().get(live.id())).state()).as("a job that has not ended is never removed")
        .isEqualTo(BatchJob.QUEUED);
    assertThat(call(() -> store.batches().create(jobOf("old", ns, 5))).getBoolean("created"))
        .as("the same content again is a fresh job").isTrue();
  }

  @Test
  @DisplayName("a large expired job goes a bounded step at a time, and reads as absent from the first step")
  void expiryIsBounded() {
    BatchJob big = jobOf("big", ns, 2_500);
    call(() -> store.batches().create(big));
    List<JsonObject> rows = new ArrayList<>();
    for (int i = 0; i < 2_500; i++) {
      rows.add(row(i, null));
    }
    call(() -> store.batches().append(big.id(), rows));
    call(() -> store.batches().seal(big.id(), 2_500, new JsonArray().add("address")));
    call(() -> store.batches().cancel(big.id()));
    clock.advanceMs(2_000);
    int first = call(() -> store.batches().expire(1_000, 1_000));
    assertThat(first).isGreaterThanOrEqualTo(1_000);
    assertThat(call(() -> store.batches().get(big.id()))).isNull();
    assertThat(stored(big.id(), "rows", "2499")).as("not yet removed").isTrue();
    int steps = 1;
    while (call(() -> store.batches().expire(1_000, 1_000)) >= 1_000) {
      steps++;
    }
    assertThat(steps).isGreaterThan(1);
    assertThat(List.of(stored(big.id(), "rows", "0"), stored(big.id(), "rows", "1999"), stored(big.id(), "rows", "2499"),
        stored(big.id(), "slices", "1249"))).containsOnly(false);
  }

  // ---- the audit trail ---------------------------------------------------------------------------

  AuditEvent event(String tenant, String id, long ts) {
    JsonObject b = new JsonObject().put("id", id).put("tenant", tenant).put("ts_ms", ts).put("kind", "degraded");
    return new AuditEvent(tenant, id, ts, CanonicalJson.canonical(b));
  }

  @Test
  @DisplayName("each tenant's records get their own sequence numbers and chain; a retried batch is not written twice; the chains verify")
  void auditChains() {
    String a = ns + "a";
    String b = ns + "b";
    JsonObject w = call(() -> store.audit().append(List.of(event(a, "1", 10), event(b, "1", 11), event(a, "2", 12))));
    assertThat(w.getInteger("written")).isEqualTo(3);
    JsonObject again = call(() -> store.audit().append(List.of(event(a, "2", 12), event(a, "3", 13))));
    assertThat(again.getInteger("written")).isEqualTo(1);
    assertThat(again.getInteger("duplicate")).isEqualTo(1);
    JsonArray page = call(() -> store.audit().page(a, null, Long.MIN_VALUE, Long.MAX_VALUE, 10)).getJsonArray("records");
    assertThat(page).hasSize(3);
    assertThat(page.getJsonObject(0).getLong("seq")).isEqualTo(1);
    assertThat(page.getJsonObject(1).getString("prev_hash")).isEqualTo(page.getJsonObject(0).getString("hash"));
    List<AuditReader.Report> reports = new ArrayList<>(call(() -> AuditReader.verify(store, a)));
    reports.addAll(call(() -> AuditReader.verify(store, b)));
    assertThat(reports).allMatch(AuditReader.Report::ok);
    assertThat(reports).extracting(AuditReader.Report::records).containsExactly(3L, 1L);
  }

  @Test
  @DisplayName("audit pages follow the chain by cursor and narrow by time; an empty page keeps the cursor")
  void auditPages() {
    String t = ns + "p";
    List<AuditEvent> es = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      es.add(event(t, "r" + i, i * 100L));
    }
    call(() -> store.audit().append(es));
    JsonObject first = call(() -> store.audit().page(t, null, Long.MIN_VALUE, Long.MAX_VALUE, 2));
    assertThat(first.getJsonArray("records")).hasSize(2);
    JsonObject rest = call(() -> store.audit().page(t, first.getString("next"), Long.MIN_VALUE, Long.MAX_VALUE, 10));
    assertThat(rest.getJsonArray("records")).hasSize(3);
    JsonObject narrow = call(() -> store.audit().page(t, null, 200, 400, 10));
    assertThat(narrow.getJsonArray("records")).extracting(o -> ((JsonObject) o).getLong("ts_ms")).containsExactly(200L, 300L);
    JsonObject end = call(() -> store.audit().page(t, rest.getString("next"), Long.MIN_VALUE, Long.MAX_VALUE, 10));
    assertThat(end.getJsonArray("records")).isEmpty();
    assertThat(end.getString("next")).isEqualTo(rest.getString("next"));
  }

  @Test
  @DisplayName("retention removes only the whole expired prefix and moves the anchor; the chain still verifies and grows from it")
  void auditRetention() {
    String t = ns + "r";
    call(() -> store.audit().append(List.of(event(t, "1", 100), event(t, "2", 200), event(t, "3", 900), event(t, "4", 150))));
    int removed = call(() -> store.audit().retain(500));
    assertThat(removed).as("records 1 and 2; record 4 is old but after a young one").isEqualTo(2);
    AuditReader.Report r = call(() -> AuditReader.verify(store, t)).get(0);
    assertThat(r.ok()).isTrue();
    assertThat(r.anchor().seq()).isEqualTo(2);
    assertThat(r.records()).isEqualTo(2);
    call(() -> store.audit().append(List.of(event(t, "5", 1000))));
    AuditReader.Report grown = call(() -> AuditReader.verify(store, t)).get(0);
    assertThat(grown.ok()).isTrue();
    assertThat(grown.records()).isEqualTo(3);
  }

  @Test
  @DisplayName("a writer session not renewed in time is declared lost once, with a gap record in every chain; a renewed or closed one is not")
  void lostWritersLeaveGapRecords() {
    String a = ns + "a";
    String b = ns + "b";
    call(() -> store.audit().append(List.of(event(a, "1", now()), event(b, "1", now()))));
    call(() -> store.audit().renew("aaaa0001", 500));
    call(() -> store.audit().renew("aaaa0002", 500));
    call(() -> store.audit().renew("aaaa0003", 500));
    call(() -> store.audit().close("aaaa0003"));
    assertThat(call(() -> store.audit().sweep())).as("nobody is late yet").isZero();
    clock.advanceMs(AuditGaps.STALE_MS / 2);
    call(() -> store.audit().renew("aaaa0002", 500));
    clock.advanceMs(AuditGaps.STALE_MS / 2 + 1);
    assertThat(call(() -> store.audit().sweep())).as("only the writer that stopped renewing").isEqualTo(1);
    assertThat(call(() -> store.audit().sweep())).as("and only once").isZero();
    for (String t : List.of(a, b)) {
      AuditReader.Report r = call(() -> AuditReader.verify(store, t)).get(0);
      assertThat(r.ok()).isTrue();
      assertThat(r.complete()).isFalse();
      assertThat(r.gaps()).isEqualTo(new AuditGaps.Tally(1, 0, 1, 500));
      JsonObject gap = call(() -> store.audit().page(t, null, Long.MIN_VALUE, Long.MAX_VALUE, 10)).getJsonArray("records").getJsonObject(1);
      assertThat(gap.getString("kind")).isEqualTo("gap");
      assertThat(gap.getString("cause")).isEqualTo(AuditGaps.WRITER_LOST);
      assertThat(gap.getString("session")).isEqualTo("aaaa0001");
    }
    // Two sweepers that read the same lost session (two resolvers on one store) record it once.
    call(() -> store.audit().renew("aaaa0004", 500));
    clock.advanceMs(AuditGaps.STALE_MS + 1);
    call(() -> store.audit().append(List.of(AuditGaps.lost("aaaa0004", a, 500, now() - AuditGaps.STALE_MS - 1, now()))));
    call(() -> store.audit().sweep());
    assertThat(call(() -> AuditReader.verify(store, a)).get(0).gaps().writersLost()).as("aaaa0001, aaaa0002 and aaaa0004, each once").isEqualTo(3);
  }

  // ---- the cache's write-behind ------------------------------------------------------------------

  @Test
  @DisplayName("the write-behind keeps the newest answer per key and loads back the live ones, most recent first (or is absent)")
  void theWriteBehind() {
    StateStore.Cache c = store.cache();
    assertThat(c.enabled()).isEqualTo(keepsCache());
    ResolveResult r1 = ResolveResult.builder().status("resolved").lon(1.0).lat(1.0).idempotencyKey("k1").resolvedAtMs(10)
        .address(dev.georesolver.reconcile.Samples.EIFFEL).build();
    ResolveResult r2 = r1.toBuilder().idempotencyKey("k2").resolvedAtMs(20).build();
    ResolveResult stale = r1.toBuilder().lon(9.0).resolvedAtMs(5).build();
    long t = now();
    int written = call(() -> c.write(new CacheWrites(List.of(
        new CacheWrites.Idem("k1", t, 60_000, StoredAnswer.of(r1)),
        new CacheWrites.Idem("k2", t + 1, 60_000, StoredAnswer.of(r2)),
        new CacheWrites.Idem("k1", t + 2, 60_000, StoredAnswer.of(stale)),
        new CacheWrites.Idem("gone", t - 120_000, 60_000, StoredAnswer.of(r1))),
        List.of(new IndexEntry("x", 1, 2, "osm", "open_data", 0.8, "X", "street", t, null)))));
    if (!keepsCache()) {
      assertThat(written).isZero();
      assertThat(call(() -> c.load("idem", 10)).idem()).isEmpty();
      return;
    }
    CacheWrites back = call(() -> c.load("idem", 10));
    assertThat(back.idem()).extracting(CacheWrites.Idem::key).containsExactly("k2", "k1");
    assertThat(ResolveResult.fromJson(back.idem().get(1).answer().toJson()).lon()).as("the older answer ignored").isEqualTo(1.0);
    assertThat(ResolveResult.fromJson(back.idem().get(1).answer().toJson()).address()).as("the components replayed")
        .isEqualTo(dev.georesolver.reconcile.Samples.EIFFEL);
    assertThat(call(() -> c.load("index", 10)).index()).extracting(IndexEntry::source).containsExactly("osm");
  }

  @Test
  @DisplayName("a correction replaces the stored answer in the store's cache unless a newer answer was stored since")
  void correctionsReplaceCachedAnswers() {
    if (!keepsCache()) {
      return;
    }
    enqueue(d("a", 100, 1000), d("b", 100, 1000));
    ResolveResult newer = ResolveResult.builder().status("resolved").lon(1.0).lat(1.0).resolutionSource("primary")
        .idempotencyKey(ns + "b").resolvedAtMs(500).build();
    call(() -> store.cache().write(new CacheWrites(List.of(new CacheWrites.Idem(ns + "b", now(), 60_000, StoredAnswer.of(newer))),
        List.of())));
    List<LeasedDebt> ls = lease("r1", 2);
    ls.forEach(l -> call(() -> q().correct("r1", l, repairWithAddress(now(), l.debt().idempotencyKey() + "-addr"))));
    CacheWrites idem = call(() -> store.cache().load("idem", 10));
    assertThat(idem.idem()).filteredOn(e -> e.key().equals(ns + "a")).singleElement()
        .satisfies(e -> assertThat(e.answer().resolutionSource()).isEqualTo("primary"))
        .satisfies(e -> assertThat(ResolveResult.fromJson(e.answer().toJson()).address()).as("the corrected components")
            .isEqualTo(dev.georesolver.reconcile.Samples.EIFFEL));
    assertThat(idem.idem()).filteredOn(e -> e.key().equals(ns + "b")).singleElement()
        .satisfies(e -> assertThat(e.answer().resolvedAtMs()).as("the newer answer kept").isEqualTo(500));
    assertThat(call(() -> store.cache().load("index", 10)).index()).extracting(IndexEntry::addrKey).contains(ns + "a-addr");
  }
}
