package dev.georesolver.state.sqlite;

import dev.georesolver.state.StateStoreException;
import dev.georesolver.bus.Page;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Settled;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.bus.StoredAnswer;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.TestState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.List;

import static dev.georesolver.reconcile.Samples.debt;
import static dev.georesolver.reconcile.Samples.repair;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The SQLite file without Vert.x, on a fake clock: schema, the queue's once-only rule and
 * oldest-first leases, lease expiry, the transactional outbox with its newer-wins and once-per-answer
 * rules, and the memory store's write-behind.
 */
class SqliteDbTest {

  private final FakeClock clock = new FakeClock();
  private Path file;
  private SqliteDb db;

  @BeforeEach
  void open() {
    file = TestState.freshDir().resolve("nested/dir/state.db");
    db = SqliteDb.open(file);
  }

  @AfterEach
  void close() {
    db.close();
  }

  private long now() {
    return clock.millis();
  }

  private String scalar(String sql) throws Exception {
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + file); var s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      return rs.next() ? rs.getString(1) : null;
    }
  }

  @Test
  @DisplayName("the file and its directory are created, in WAL mode, at the latest schema version, and reopen with their data")
  void createsAndReopens() throws Exception {
    assertThat(Files.exists(file)).isTrue();
    assertThat(scalar("PRAGMA journal_mode")).isEqualTo("wal");
    assertThat(scalar("PRAGMA user_version")).isEqualTo(Integer.toString(SqliteSchema.latest()));
    db.enqueue(List.of(debt("a", 1, now())), now());
    db.transaction(List.of());
    db.close();
    db = SqliteDb.open(file);
    assertThat(db.stats(now()).pending()).isEqualTo(1);
  }

  @Test
  @DisplayName("a file that is not a database, or one already open, stops start-up with a clear message")
  void refusesBadFiles() throws Exception {
    Path junk = TestState.freshDir().resolve("junk.db");
    Files.writeString(junk, "this is not a database, just text that is long enough to be read as a header ".repeat(20));
    assertThatThrownBy(() -> SqliteDb.open(junk)).isInstanceOf(StateStoreException.class).hasMessageContaining("not a SQLite database");
    assertThatThrownBy(() -> SqliteDb.open(file)).isInstanceOf(StateStoreException.class).hasMessageContaining("already open");
  }

  @Test
  @DisplayName("a debt is queued once per key, intent and direction; a newer degraded answer keeps its place, an older one is a duplicate")
  void onceOnly() throws Exception {
    assertThat(db.enqueue(List.of(debt("a", 100, 1000)), now())).containsExactly(1, 0);
    assertThat(db.enqueue(List.of(debt("a", 100, 2000)), now())).as("same answer again").containsExactly(0, 1);
    assertThat(db.enqueue(List.of(debt("a", 50, 3000)), now())).as("older answer").containsExactly(0, 1);
    assertThat(db.enqueue(List.of(debt("a", 200, 4000)), now())).as("newer answer").containsExactly(1, 0);
    QueueStats s = db.stats(now());
    assertThat(s.pending()).isEqualTo(1);
    LeasedDebt l = db.lease("r1", 10, 60_000, now()).get(0);
    assertThat(l.debt().answerResolvedAtMs()).isEqualTo(200);
    assertThat(l.debt().acceptedAtMs()).as("its place in the queue").isEqualTo(1000);
  }

  @Test
  @DisplayName("leases go oldest accepted first, each item to one owner, until its lease expires on the clock")
  void leasesOldestFirstAndExpire() throws Exception {
    db.enqueue(List.of(debt("c", 1, 3000), debt("a", 1, 1000), debt("b", 1, 2000)), now());
    List<LeasedDebt> first = db.lease("r1", 2, 30_000, now());
    assertThat(first).extracting(l -> l.debt().idempotencyKey()).containsExactly("a", "b");
    assertThat(db.lease("r2", 10, 30_000, now())).extracting(l -> l.debt().idempotencyKey()).containsExactly("c");
    assertThat(db.lease("r2", 10, 30_000, now())).isEmpty();
    clock.advanceMs(30_001);
    List<LeasedDebt> taken = db.lease("r2", 10, 30_000, now());
    assertThat(taken).as("r1's leases expired; r2's too").extracting(l -> l.debt().idempotencyKey()).containsExactly("a", "b", "c");
    assertThat(db.correct("r1", first.get(0).id(), repair(now(), "addr-a"), true, now())).as("r1 lost its lease")
        .isEqualTo(Settled.LOST);
    assertThat(scalar("SELECT COUNT(*) FROM corrections")).isEqualTo("0");
  }

  @Test
  @DisplayName("a correction replaces the idempotency entry, updates the index, appends to the outbox and ends the item, together")
  void transactionalOutbox() throws Exception {
    db.enqueue(List.of(debt("a", 100, 1000)), now());
    LeasedDebt l = db.lease("r1", 1, 30_000, now()).get(0);
    Settled s = db.correct("r1", l.id(), repair(now(), "addr-a"), true, now());
    db.transaction(List.of());
    assertThat(s.ok()).isTrue();
    assertThat(s.correction().cursor()).isEqualTo("1");
    assertThat(scalar("SELECT state || '/' || outcome FROM reconcile_queue")).isEqualTo("done/corrected");
    assertThat(db.loadCache("index", 10, now()).index()).filteredOn(e -> e.addrKey().equals("addr-a"))
        .extracting(IndexEntry::source).containsExactly("primary");
    CacheWrites idem = db.loadCache("idem", 10, now());
    ResolveResult replayed = ResolveResult.fromJson(idem.idem().get(0).answer().toJson());
    assertThat(replayed.resolutionSource()).isEqualTo("primary");
    assertThat(replayed.degraded()).isFalse();
    Page p = db.page(null, 10);
    assertThat(p.corrections()).hasSize(1);
    assertThat(p.next()).isEqualTo("1");
    assertThat(db.page("1", 10).corrections()).isEmpty();
    assertThat(db.page("1", 10).next()).as("an empty page keeps the cursor").isEqualTo("1");
  }

  @Test
  @DisplayName("a correction never replaces an answer stored after the degraded one, and the same answer is never corrected twice")
  void newerWinsAndOnce() throws Exception {
    db.enqueue(List.of(debt("a", 100, 1000)), now());
    ResolveResult newer = ResolveResult.builder().status("resolved").lon(1.0).lat(1.0).resolutionSource("primary")
        .idempotencyKey("a").resolvedAtMs(500).build();
    db.writeCache(new CacheWrites(List.of(new CacheWrites.Idem("a", now(), 60_000, StoredAnswer.of(newer))), List.of()), 86_400, now());
    LeasedDebt l = db.lease("r1", 1, 30_000, now()).get(0);
    assertThat(db.correct("r1", l.id(), repair(now(), null), true, now()).correction()).isNotNull();
    assertThat(db.loadCache("idem", 10, now()).idem().get(0).answer().resolvedAtMs()).as("kept the newer answer").isEqualTo(500);
    // The same degraded answer queued again is a duplicate: no second lease, no second correction.
    assertThat(db.enqueue(List.of(debt("a", 100, 9000)), now())).containsExactly(0, 1);
    assertThat(db.lease("r1", 1, 30_000, now())).isEmpty();
    // A later degraded answer is a new debt and may be corrected once more.
    db.enqueue(List.of(debt("a", 700, 9000)), now());
    LeasedDebt again = db.lease("r1", 1, 30_000, now()).get(0);
    assertThat(db.correct("r1", again.id(), repair(now(), null), true, now()).correction().cursor()).isEqualTo("2");
  }

  @Test
  @DisplayName("retry counts an attempt and backs off, release does not, dead keeps the item visible")
  void settling() throws Exception {
    db.enqueue(List.of(debt("a", 1, 1000), debt("b", 1, 2000), debt("c", 1, 3000)), now());
    List<LeasedDebt> ls = db.lease("r1", 3, 30_000, now());
    assertThat(db.finish(ls.get(0).id(), "r1", "pending", null, now() + 5000, "primary:transient", now())).isEqualTo(1);
    assertThat(db.finish(ls.get(1).id(), "r1", "pending", null, now() + 500, null, now())).isEqualTo(1);
    assertThat(db.finish(ls.get(2).id(), "r1", "dead", "dead", null, "primary:transient", now())).isEqualTo(1);
    assertThat(db.finish(ls.get(2).id(), "r1", "dead", "dead", null, "again", now())).as("no lease any more").isZero();
    assertThat(db.lease("r1", 3, 30_000, now())).isEmpty();
    clock.advanceMs(600);
    LeasedDebt b = db.lease("r1", 3, 30_000, now()).get(0);
    assertThat(b.debt().idempotencyKey()).isEqualTo("b");
    assertThat(b.attempts()).as("released, not retried").isZero();
    clock.advanceMs(5000);
    LeasedDebt a = db.lease("r1", 3, 30_000, now()).get(0);
    assertThat(a.attempts()).isEqualTo(1);
    QueueStats s = db.stats(now());
    assertThat(s.inProgress()).isEqualTo(2);
    assertThat(s.dead()).isEqualTo(1);
    assertThat(s.oldestPendingAgeS()).isPositive();
  }

  @Test
  @DisplayName("one failing operation of a group commit leaves the others committed")
  void groupCommitIsolatesFailures() throws Exception {
    List<SqliteDb.Outcome> out = db.transaction(List.of(
        d -> d.enqueue(List.of(debt("a", 1, 1)), now()),
        d -> {
          throw new java.sql.SQLException("boom");
        },
        d -> d.enqueue(List.of(debt("b", 1, 2)), now())));
    assertThat(out.get(1).failure()).hasMessage("boom");
    assertThat(db.stats(now()).pending()).isEqualTo(2);
  }

  @Test
  @DisplayName("the write-behind keeps the newest answer per key and loads back the live ones, most recent first")
  void writeBehind() throws Exception {
    ResolveResult r1 = ResolveResult.builder().status("resolved").lon(1.0).lat(1.0).idempotencyKey("k1").resolvedAtMs(10).build();
    ResolveResult r2 = r1.toBuilder().idempotencyKey("k2").resolvedAtMs(20).build();
    ResolveResult stale = r1.toBuilder().lon(9.0).resolvedAtMs(5).build();
    long t = now();
    db.writeCache(new CacheWrites(List.of(
        new CacheWrites.Idem("k1", t, 60_000, StoredAnswer.of(r1)),
        new CacheWrites.Idem("k2", t + 1, 60_000, StoredAnswer.of(r2)),
        new CacheWrites.Idem("k1", t + 2, 60_000, StoredAnswer.of(stale)),
        new CacheWrites.Idem("gone", t - 120_000, 60_000, StoredAnswer.of(r1))),
        List.of(new IndexEntry("x", 1, 2, "osm", "open_data", 0.8, "X", "street", t, null))), 86_400, t);
    CacheWrites back = db.loadCache("idem", 10, t);
    assertThat(back.idem()).extracting(CacheWrites.Idem::key).containsExactly("k2", "k1");
    assertThat(ResolveResult.fromJson(back.idem().get(1).answer().toJson()).lon()).as("older answer ignored").isEqualTo(1.0);
    assertThat(db.loadCache("index", 10, t).index()).extracting(IndexEntry::source).containsExactly("osm");
    assertThat(db.loadCache("index", 10, t + 86_400_001).index()).as("expired").isEmpty();
    assertThat(db.pruneCache(1, 5_000, true, t).deleted()).isPositive();
    assertThat(db.loadCache("idem", 10, t).idem()).hasSize(1);
  }

  @Test
  @DisplayName("a write-behind batch keeps its order within a key: of two answers as new, the later one stays; the statements survive a failed operation")
  void writeBehindOrderWithinKey() throws Exception {
    ResolveResult first = ResolveResult.builder().status("resolved").lon(1.0).lat(1.0).idempotencyKey("m").resolvedAtMs(10).build();
    ResolveResult second = first.toBuilder().lon(2.0).build();
    long t = now();
    List<SqliteDb.Outcome> out = db.transaction(List.of(
        d -> d.writeCache(new CacheWrites(List.of(
            new CacheWrites.Idem("z", t, 60_000, StoredAnswer.of(first.toBuilder().idempotencyKey("z").build())),
            new CacheWrites.Idem("m", t, 60_000, StoredAnswer.of(first)),
            new CacheWrites.Idem("a", t, 60_000, StoredAnswer.of(first.toBuilder().idempotencyKey("a").build())),
            new CacheWrites.Idem("m", t, 60_000, StoredAnswer.of(second))),
            List.of(new IndexEntry("q", 5, 5, "later", "open_data", 0.8, "Q", "street", t, null),
                new IndexEntry("b", 1, 1, "osm", "open_data", 0.8, "B", "street", t, null),
                new IndexEntry("q", 6, 6, "latest", "open_data", 0.8, "Q", "street", t, null))), 86_400, t),
        d -> {
          throw new java.sql.SQLException("this operation fails on purpose");
        }));
    assertThat(out.get(0).failure()).isNull();
    assertThat(out.get(0).value()).isEqualTo(7);
    assertThat(out.get(1).failure()).hasMessageContaining("on purpose");
    // a later transaction reuses the prepared statements
    db.transaction(List.of(d -> d.writeCache(new CacheWrites(List.of(
        new CacheWrites.Idem("n", t, 60_000, StoredAnswer.of(first.toBuilder().idempotencyKey("n").build()))), List.of()), 86_400, t)));
    CacheWrites back = db.loadCache("idem", 10, t);
    assertThat(back.idem()).extracting(CacheWrites.Idem::key).containsExactlyInAnyOrder("a", "m", "n", "z");
    CacheWrites.Idem m = back.idem().stream().filter(e -> e.key().equals("m")).findFirst().orElseThrow();
    assertThat(ResolveResult.fromJson(m.answer().toJson()).lon()).as("the later of two equally new answers").isEqualTo(2.0);
    assertThat(db.loadCache("index", 10, t).index()).filteredOn(e -> e.addrKey().equals("q"))
        .extracting(IndexEntry::source).containsExactly("latest");
  }

  @Test
  @DisplayName("pruning keeps the newest entries of each kind within the bound, in slices that say whether more is left, never deleting what is within it")
  void pruneInSlices() throws Exception {
    ResolveResult r = ResolveResult.builder().status("resolved").lon(1.0).lat(1.0).idempotencyKey("k").resolvedAtMs(10).build();
    long t = now();
    List<CacheWrites.Idem> idem = new java.util.ArrayList<>();
    List<IndexEntry> index = new java.util.ArrayList<>();
    for (int i = 0; i < 30; i++) {
      idem.add(new CacheWrites.Idem("k" + i, t + i, 60_000, StoredAnswer.of(r)));
      index.add(new IndexEntry("a" + i, 1, 2, "osm", "open_data", 0.8, "A", "street", t + i, null));
    }
    db.writeCache(new CacheWrites(idem, index), 86_400, t);
    SqliteDb.Pruned p = db.pruneCache(10, 7, false, t);
    assertThat(p.deleted()).isEqualTo(14);
    assertThat(p.more()).isTrue();
    int steps = 1;
    while (p.more()) {
      p = db.pruneCache(10, 7, false, t);
      steps++;
    }
    assertThat(steps).as("20 over the bound per kind, 7 a slice").isEqualTo(3);
    assertThat(db.loadCache("idem", 100, t).idem()).extracting(CacheWrites.Idem::key)
        .containsExactlyElementsOf(java.util.stream.IntStream.iterate(29, i -> i >= 20, i -> i - 1).mapToObj(i -> "k" + i).toList());
    assertThat(db.loadCache("index", 100, t).index()).hasSize(10);
    assertThat(db.pruneCache(10, 7, false, t)).isEqualTo(new SqliteDb.Pruned(0, false));
  }

  @Test
  @DisplayName("a file written before the write-behind became a log keeps its stored answers and index entries, newest first")
  void cacheTablesMoveToTheLogs() throws Exception {
    Path old = TestState.freshDir().resolve("old.db");
    long t = now();
    ResolveResult r = ResolveResult.builder().status("resolved").lon(1.0).lat(1.0).idempotencyKey("k1").resolvedAtMs(10).build();
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + old); var s = c.createStatement()) {
      int before = SqliteSchema.latest() - 1;
      for (SqliteSchema.Migration m : SqliteSchema.MIGRATIONS.subList(0, before)) {
        for (String ddl : m.statements()) {
          s.execute(ddl);
        }
      }
      s.execute("PRAGMA user_version = " + before);
      try (var ps = c.prepareStatement("INSERT INTO idem (key, stored_at_ms, expires_at_ms, resolved_at_ms, entry) VALUES (?, ?, ?, ?, ?)")) {
        for (String k : List.of("k2", "k1")) {
          long at = k.equals("k1") ? t : t + 5;
          ps.setString(1, k);
          ps.setLong(2, at);
          ps.setLong(3, at + 60_000);
          ps.setLong(4, 10);
          ps.setBytes(5, new dev.georesolver.bus.StoredEntry(StoredAnswer.of(r.toBuilder().idempotencyKey(k).build()), at, 60_000)
              .toBuffer().getBytes());
          ps.executeUpdate();
        }
      }
      s.execute("INSERT INTO addr_index (addr_key, lon, lat, source, claim, confidence, label, precision, resolved_at_ms, expires_at_ms)"
          + " VALUES ('x', 1, 2, 'osm', 'open_data', 0.8, 'X', 'street', " + t + ", " + (t + 86_400_000) + ")");
    }
    try (SqliteDb migrated = SqliteDb.open(old)) {
      assertThat(migrated.loadCache("idem", 10, t).idem()).extracting(CacheWrites.Idem::key).containsExactly("k2", "k1");
      assertThat(migrated.loadCache("index", 10, t).index()).extracting(IndexEntry::source).containsExactly("osm");
    }
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + old); var s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM sqlite_master WHERE name IN ('idem', 'addr_index')")) {
      rs.next();
      assertThat(rs.getInt(1)).as("the old tables are gone").isZero();
    }
  }
}
