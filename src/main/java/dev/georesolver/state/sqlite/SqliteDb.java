package dev.georesolver.state.sqlite;

import dev.georesolver.state.StateStoreException;
import dev.georesolver.state.AuditRows;
import dev.georesolver.bus.Page;
import dev.georesolver.bus.QueueStats;
import dev.georesolver.bus.Settled;
import dev.georesolver.state.rules.CacheReplay;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.CacheWrites;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.LeasedDebt;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.state.rules.Corrections;
import dev.georesolver.state.rules.Lease;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQLite file itself: one writer connection, blocking JDBC. Every operation runs inside
 * {@link #transaction}, which the store calls with a batch of queued operations (group commit):
 * one transaction, one savepoint per operation so that one failing does not undo the others, one
 * commit. WAL mode with {@code synchronous=NORMAL}: a commit is durable against a process crash
 * (the WAL is written before it returns) and fsyncs only at checkpoints.
 *
 * <p>Not thread-safe: confined to the state worker (or a test's thread). Time is always passed in.
 */
public final class SqliteDb implements AutoCloseable {

  private final Path path;
  private final Connection conn;
  private final FileChannel lockChannel;
  private final FileLock lock;
  /**
   * The hot statements, prepared once per connection: parsing a statement costs about as much as
   * running it, and the write-behind runs thousands a second. Closed with the connection.
   */
  private final Map<String, PreparedStatement> statements = new HashMap<>();

  private SqliteDb(Path path, Connection conn, FileChannel lockChannel, FileLock lock) {
    this.path = path;
    this.conn = conn;
    this.lockChannel = lockChannel;
    this.lock = lock;
  }

  /**
   * Opens (creating it and its directory when missing) and migrates the file, holding an exclusive
   * lock on {@code <path>.lock} for as long as it is open, so a second resolver on the same file is
   * refused while read-only readers may still open the database.
   *
   * @throws StateStoreException when the directory cannot be made, another process holds the lock,
   *     or the file is not a SQLite database
   */
  public static SqliteDb open(Path path) {
    Path abs = path.toAbsolutePath();
    try {
      if (abs.getParent() != null) {
        Files.createDirectories(abs.getParent());
      }
    } catch (IOException e) {
      throw new StateStoreException("cannot create the directory of state file " + abs + ": " + e.getMessage(), e);
    }
    Path lockPath = abs.resolveSibling(abs.getFileName() + ".lock");
    FileChannel ch;
    FileLock lock;
    try {
      ch = FileChannel.open(lockPath, StandardOpenOption.CREATE, StandardOpenOption.WRITE);
    } catch (IOException e) {
      throw new StateStoreException("cannot open lock file " + lockPath + ": " + e.getMessage(), e);
    }
    try {
      lock = ch.tryLock();
    } catch (OverlappingFileLockException e) {
      closeQuietly(ch);
      throw new StateStoreException("state file " + abs + " is already open in this process (lock " + lockPath + ")");
    } catch (IOException e) {
      closeQuietly(ch);
      throw new StateStoreException("cannot lock " + lockPath + ": " + e.getMessage(), e);
    }
    if (lock == null) {
      closeQuietly(ch);
      throw new StateStoreException("state file " + abs + " is in use by another process (it holds " + lockPath
          + "); stop it, or give this resolver its own state.path");
    }
    Connection c = null;
    try {
      c = DriverManager.getConnection("jdbc:sqlite:" + abs);
      try (Statement s = c.createStatement()) {
        try (ResultSet rs = s.executeQuery("PRAGMA journal_mode=WAL")) {
          String mode = rs.next() ? rs.getString(1) : "";
          if (!"wal".equalsIgnoreCase(mode)) {
            throw new StateStoreException("state file " + abs + " cannot use WAL mode (journal_mode is " + mode + ")");
          }
        }
        s.execute("PRAGMA synchronous=NORMAL");
        s.execute("PRAGMA busy_timeout=5000");
      }
      SqliteDb db = new SqliteDb(abs, c, ch, lock);
      db.migrate();
      return db;
    } catch (SQLException e) {
      closeQuietly(c);
      releaseQuietly(lock, ch);
      String m = String.valueOf(e.getMessage());
      if (m.contains("not a database") || m.contains("SQLITE_NOTADB") || m.contains("malformed")) {
        throw new StateStoreException("state file " + abs + " is not a SQLite database (" + m
            + "); move it away or point state.path elsewhere", e);
      }
      throw new StateStoreException("cannot open state file " + abs + ": " + m, e);
    } catch (RuntimeException e) {
      closeQuietly(c);
      releaseQuietly(lock, ch);
      throw e;
    }
  }

  private void migrate() throws SQLException {
    int version;
    try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
      version = rs.next() ? rs.getInt(1) : 0;
    }
    if (version > SqliteSchema.latest()) {
      throw new StateStoreException("state file " + path + " has schema version " + version + ", newer than this build's "
          + SqliteSchema.latest());
    }
    if (version == SqliteSchema.latest()) {
      conn.setAutoCommit(false);
      return;
    }
    conn.setAutoCommit(false);
    try (Statement s = conn.createStatement()) {
      for (int v = version; v < SqliteSchema.latest(); v++) {
        for (String ddl : SqliteSchema.MIGRATIONS.get(v).statements()) {
          s.execute(ddl);
        }
      }
      s.execute("PRAGMA user_version = " + SqliteSchema.latest());
      conn.commit();
    } catch (SQLException e) {
      conn.rollback();
      throw e;
    }
  }

  /** The connection, for a module's statements inside {@link #transaction} only. */
  Connection connection() {
    return conn;
  }

  /** The file. */
  public Path path() {
    return path;
  }

  /** An operation of a group commit. */
  interface Op<T> {
    T run(SqliteDb db) throws SQLException;
  }

  /** One operation's outcome: its value or its failure. */
  record Outcome(Object value, Throwable failure) {}

  /**
   * Runs {@code ops} in one transaction, each in its own savepoint, and commits once.
   *
   * @return each operation's outcome, in order; all failed when the commit itself failed
   */
  List<Outcome> transaction(List<? extends Op<?>> ops) {
    List<Outcome> out = new ArrayList<>(ops.size());
    try {
      for (Op<?> op : ops) {
        Savepoint sp = conn.setSavepoint();
        try {
          Object v = op.run(this);
          conn.releaseSavepoint(sp);
          out.add(new Outcome(v, null));
        } catch (SQLException | RuntimeException e) {
          conn.rollback(sp);
          out.add(new Outcome(null, e));
        }
      }
      conn.commit();
      return out;
    } catch (SQLException e) {
      try {
        conn.rollback();
      } catch (SQLException ignored) {
        // the connection is in trouble already; the commit's failure is what is reported
      }
      List<Outcome> failed = new ArrayList<>(ops.size());
      ops.forEach(o -> failed.add(new Outcome(null, e)));
      return failed;
    }
  }

  // ---- debts ----------------------------------------------------------------------------------

  /** Queues each debt once per key, intent and direction; returns {accepted, duplicate}. */
  int[] enqueue(List<Debt> debts, long nowMs) throws SQLException {
    int accepted = 0;
    int duplicate = 0;
    // A new debt is inserted. An existing one takes a newer degraded answer: a done item is opened
    // again (from the start), a pending or leased one keeps its place and attempts.
    String sql = """
        INSERT INTO reconcile_queue (debt_key, idempotency_key, debt, answer_resolved_at_ms, accepted_at_ms, state,
                                     attempts, not_before_ms, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, 'pending', 0, 0, ?)
        ON CONFLICT(debt_key) DO UPDATE SET
          debt = CASE WHEN state = 'done' THEN excluded.debt ELSE json_set(excluded.debt, '$.accepted_at_ms', accepted_at_ms) END,
          answer_resolved_at_ms = excluded.answer_resolved_at_ms,
          accepted_at_ms = CASE WHEN state = 'done' THEN excluded.accepted_at_ms ELSE accepted_at_ms END,
          attempts = CASE WHEN state = 'done' THEN 0 ELSE attempts END,
          not_before_ms = CASE WHEN state = 'done' THEN 0 ELSE not_before_ms END,
          outcome = CASE WHEN state = 'done' THEN NULL ELSE outcome END,
          state = CASE WHEN state = 'done' THEN 'pending' ELSE state END,
          updated_at_ms = excluded.updated_at_ms
        WHERE excluded.answer_resolved_at_ms > answer_resolved_at_ms AND state <> 'dead'""";
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      for (Debt d : debts) {
        ps.setString(1, d.debtKey());
        ps.setString(2, d.idempotencyKey());
        ps.setString(3, d.toJson().encode());
        ps.setLong(4, d.answerResolvedAtMs());
        ps.setLong(5, d.acceptedAtMs());
        ps.setLong(6, nowMs);
        if (ps.executeUpdate() > 0) {
          accepted++;
        } else {
          duplicate++;
        }
      }
    }
    return new int[] {accepted, duplicate};
  }

  /** Leases up to {@code max} claimable items ({@link Lease#claimable}), oldest accepted first. */
  List<LeasedDebt> lease(String owner, int max, long leaseMs, long nowMs) throws SQLException {
    String sql = """
        UPDATE reconcile_queue SET state = 'in_progress', lease_owner = ?, lease_until_ms = ?, updated_at_ms = ?
        WHERE id IN (SELECT id FROM reconcile_queue
                     WHERE state IN ('pending', 'in_progress')
                       AND ((state = 'pending' AND not_before_ms <= ?) OR (state = 'in_progress' AND lease_until_ms < ?))
                     ORDER BY accepted_at_ms, id LIMIT ?)
        RETURNING id, debt, attempts""";
    List<LeasedDebt> out = new ArrayList<>();
    try (PreparedStatement ps = conn.prepareStatement(sql)) {
      ps.setString(1, owner);
      ps.setLong(2, nowMs + leaseMs);
      ps.setLong(3, nowMs);
      ps.setLong(4, nowMs);
      ps.setLong(5, nowMs);
      ps.setInt(6, max);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new LeasedDebt(Long.toString(rs.getLong(1)), Debt.fromJson(new JsonObject(rs.getString(2))), rs.getInt(3)));
        }
      }
    }
    out.sort(Comparator.comparingLong((LeasedDebt l) -> l.debt().acceptedAtMs()).thenComparingLong(l -> Long.parseLong(l.id())));
    return out;
  }

  private record Held(Debt debt) {}

  /** The item's current debt if {@code owner} holds its lease, else null. */
  private Held held(String id, String owner) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement("SELECT debt, state, lease_owner FROM reconcile_queue WHERE id = ?")) {
      ps.setLong(1, Long.parseLong(id));
      try (ResultSet rs = ps.executeQuery()) {
        if (!rs.next() || !Lease.held(rs.getString(2), rs.getString(3), owner)) {
          return null;
        }
        return new Held(Debt.fromJson(new JsonObject(rs.getString(1))));
      }
    }
  }

  /**
   * The transactional outbox: replaces the idempotency entry (when {@code withCache}, and only if the
   * stored one is not newer), updates the cached-index entry (same rules), appends the correction
   * (once per answer) and marks the item done — all guarded by the lease.
   */
  Settled correct(String owner, String id, Repair repair, boolean withCache, long nowMs) throws SQLException {
    Held h = held(id, owner);
    if (h == null) {
      return Settled.LOST;
    }
    Debt d = h.debt();
    Correction c = Corrections.build(d, repair);
    if (withCache) {
      // Appended with the degraded answer's time as their basis: reading back applies the
      // newer-wins rule where the log says what was stored before them.
      appendIdem(d.idempotencyKey(), new StoredEntry(c.answer(), nowMs, repair.ttlMs()), repair.correctedAtMs(),
          d.answerResolvedAtMs());
      IndexEntry e = Corrections.indexEntry(repair);
      if (e != null) {
        appendIndex(e, nowMs + repair.indexTtlS() * 1000, d.answerResolvedAtMs());
      }
    }
    String cursor = null;
    try (PreparedStatement ps = conn.prepareStatement("""
        INSERT INTO corrections (correction_id, idempotency_key, corrected_at_ms, body) VALUES (?, ?, ?, ?)
        ON CONFLICT(correction_id) DO NOTHING""")) {
      ps.setString(1, c.correctionId());
      ps.setString(2, c.idempotencyKey());
      ps.setLong(3, c.correctedAtMs());
      ps.setString(4, c.toJson().encode());
      if (ps.executeUpdate() == 1) {
        try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT last_insert_rowid()")) {
          rs.next();
          cursor = Long.toString(rs.getLong(1));
        }
      }
    }
    if (finish(id, owner, "done", "corrected", null, null, nowMs) == 0) {
      throw new SQLException("lease lost during the correction of item " + id);
    }
    return new Settled(true, cursor == null ? null : c.withCursor(cursor));
  }

  /** Ends or returns a leased item; 0 rows when the lease was lost. */
  int finish(String id, String owner, String state, String outcome, Long notBeforeMs, String error, long nowMs)
      throws SQLException {
    boolean counts = "dead".equals(state) || ("pending".equals(state) && error != null);
    try (PreparedStatement ps = conn.prepareStatement("""
        UPDATE reconcile_queue SET state = ?, outcome = COALESCE(?, outcome), attempts = attempts + ?,
          not_before_ms = COALESCE(?, not_before_ms), last_error = COALESCE(?, last_error),
          lease_owner = NULL, lease_until_ms = NULL, updated_at_ms = ?
        WHERE id = ? AND lease_owner = ? AND state = 'in_progress'""")) {
      ps.setString(1, state);
      ps.setString(2, outcome);
      ps.setInt(3, counts ? 1 : 0);
      if (notBeforeMs == null) {
        ps.setNull(4, java.sql.Types.INTEGER);
      } else {
        ps.setLong(4, notBeforeMs);
      }
      ps.setString(5, error == null ? null : error.length() > 500 ? error.substring(0, 500) : error);
      ps.setLong(6, nowMs);
      ps.setLong(7, Long.parseLong(id));
      ps.setString(8, owner);
      return ps.executeUpdate();
    }
  }

  /** The queue's figures. */
  QueueStats stats(long nowMs) throws SQLException {
    long pending = 0;
    long inProgress = 0;
    long done = 0;
    long dead = 0;
    long oldest = Long.MAX_VALUE;
    try (Statement s = conn.createStatement();
         ResultSet rs = s.executeQuery("SELECT state, COUNT(*), MIN(accepted_at_ms) FROM reconcile_queue GROUP BY state")) {
      while (rs.next()) {
        long n = rs.getLong(2);
        switch (rs.getString(1)) {
          case "pending" -> pending = n;
          case "in_progress" -> inProgress = n;
          case "done" -> done = n;
          case "dead" -> dead = n;
          default -> { }
        }
        if (("pending".equals(rs.getString(1)) || "in_progress".equals(rs.getString(1))) && n > 0) {
          oldest = Math.min(oldest, rs.getLong(3));
        }
      }
    }
    double age = oldest == Long.MAX_VALUE ? 0 : Math.max(0, nowMs - oldest) / 1000.0;
    return new QueueStats(pending, inProgress, done, dead, age);
  }

  // ---- corrections ----------------------------------------------------------------------------

  /** Up to {@code limit} corrections after {@code after} (null: from the start), oldest first. */
  Page page(String after, int limit) throws SQLException {
    long from = after == null || after.isEmpty() ? 0 : Long.parseLong(after);
    List<JsonObject> out = new ArrayList<>();
    String next = after;
    try (PreparedStatement ps = conn.prepareStatement("SELECT seq, body FROM corrections WHERE seq > ? ORDER BY seq LIMIT ?")) {
      ps.setLong(1, from);
      ps.setInt(2, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          next = Long.toString(rs.getLong(1));
          out.add(new JsonObject(rs.getString(2)).put("cursor", next));
        }
      }
    }
    return new Page(out, next);
  }

  /** The newest cursor, or null when the outbox is empty. */
  String head() throws SQLException {
    try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT MAX(seq) FROM corrections")) {
      long v = rs.next() ? rs.getLong(1) : 0;
      return v == 0 ? null : Long.toString(v);
    }
  }

  /** A named delivery cursor, or null. */
  String cursor(String name) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement("SELECT cursor FROM delivery_cursors WHERE name = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getString(1) : null;
      }
    }
  }

  /** Saves a named delivery cursor. */
  void saveCursor(String name, String cursor, long nowMs) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement("""
        INSERT INTO delivery_cursors (name, cursor, updated_at_ms) VALUES (?, ?, ?)
        ON CONFLICT(name) DO UPDATE SET cursor = excluded.cursor, updated_at_ms = excluded.updated_at_ms""")) {
      ps.setString(1, name);
      ps.setString(2, cursor);
      ps.setLong(3, nowMs);
      ps.executeUpdate();
    }
  }

  // ---- cache (the memory store's write-behind) -------------------------------------------------

  /**
   * Appends idempotency and index entries to their logs, in the order given; reading back keeps
   * per key the newest answer (an older answer never replaces a newer one).
   *
   * @return the rows appended
   */
  int writeCache(CacheWrites w, long indexTtlS, long nowMs) throws SQLException {
    int n = 0;
    for (CacheWrites.Idem e : w.idem()) {
      n += appendIdem(e.key(), new StoredEntry(e.answer(), e.storedAtMs(), e.ttlMs()), e.answer().resolvedAtMs(), null);
    }
    for (IndexEntry e : w.index()) {
      n += appendIndex(e, e.resolvedAtMs() + indexTtlS * 1000, null);
    }
    return n;
  }

  private static final String APPEND_IDEM = """
      INSERT INTO idem_log (key, stored_at_ms, expires_at_ms, resolved_at_ms, basis_ms, entry) VALUES (?, ?, ?, ?, ?, ?)""";

  private int appendIdem(String key, StoredEntry e, long resolvedAtMs, Long basisMs) throws SQLException {
    PreparedStatement ps = prepared(APPEND_IDEM);
    ps.setString(1, key);
    ps.setLong(2, e.storedAtMs());
    ps.setLong(3, e.storedAtMs() + e.ttlMs());
    ps.setLong(4, resolvedAtMs);
    setNullableLong(ps, 5, basisMs);
    ps.setBytes(6, e.toBuffer().getBytes());
    return ps.executeUpdate();
  }

  /** {@code sql} prepared on this connection, once; the caller must not close it. */
  PreparedStatement prepared(String sql) throws SQLException {
    PreparedStatement ps = statements.get(sql);
    if (ps == null) {
      ps = conn.prepareStatement(sql);
      statements.put(sql, ps);
    }
    return ps;
  }

  private static final String APPEND_INDEX = """
      INSERT INTO index_log (addr_key, lon, lat, source, claim, confidence, label, precision, resolved_at_ms, expires_at_ms, basis_ms)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)""";

  private int appendIndex(IndexEntry e, long expiresAtMs, Long basisMs) throws SQLException {
    PreparedStatement ps = prepared(APPEND_INDEX);
    ps.setString(1, e.addrKey());
    ps.setDouble(2, e.lon());
    ps.setDouble(3, e.lat());
    ps.setString(4, e.source());
    ps.setString(5, e.claim());
    ps.setDouble(6, e.confidence());
    ps.setString(7, e.label());
    ps.setString(8, e.precision());
    ps.setLong(9, e.resolvedAtMs());
    ps.setLong(10, expiresAtMs);
    setNullableLong(ps, 11, basisMs);
    return ps.executeUpdate();
  }

  private static void setNullableLong(PreparedStatement ps, int i, Long v) throws SQLException {
    if (v == null) {
      ps.setNull(i, java.sql.Types.INTEGER);
    } else {
      ps.setLong(i, v);
    }
  }

  /**
   * The most recent live entries of one kind ({@code idem} or {@code index}), at most
   * {@code limit}: the kind's log replayed in order ({@link CacheReplay}); only the entries kept
   * are decoded, and one that this build cannot read is skipped, never fatal.
   */
  CacheWrites loadCache(String kind, int limit, long nowMs) throws SQLException {
    List<CacheWrites.Idem> idem = new ArrayList<>();
    List<IndexEntry> index = new ArrayList<>();
    if ("idem".equals(kind)) {
      CacheReplay<byte[]> replay = new CacheReplay<>();
      try (PreparedStatement ps = conn.prepareStatement(
          "SELECT seq, key, stored_at_ms, expires_at_ms, resolved_at_ms, basis_ms, entry FROM idem_log ORDER BY seq")) {
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            replay.apply(new CacheReplay.Write<>(rs.getLong(1), rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5),
                nullableLong(rs, 6), rs.getBytes(7)));
          }
        }
      }
      for (CacheReplay.Write<byte[]> w : replay.newest(limit, nowMs)) {
        try {
          StoredEntry e = StoredEntry.fromJson(new JsonObject(new String(w.value(), StandardCharsets.UTF_8)));
          idem.add(new CacheWrites.Idem(w.key(), e.storedAtMs(), e.ttlMs(), e.answer()));
        } catch (RuntimeException unreadable) {
          // skipped, never fatal
        }
      }
    } else {
      CacheReplay<IndexEntry> replay = new CacheReplay<>();
      try (PreparedStatement ps = conn.prepareStatement("""
          SELECT seq, addr_key, lon, lat, source, claim, confidence, label, precision, resolved_at_ms, expires_at_ms, basis_ms
          FROM index_log ORDER BY seq""")) {
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            IndexEntry e = new IndexEntry(rs.getString(2), rs.getDouble(3), rs.getDouble(4), rs.getString(5), rs.getString(6),
                rs.getDouble(7), rs.getString(8), rs.getString(9), rs.getLong(10), null);
            replay.apply(new CacheReplay.Write<>(rs.getLong(1), e.addrKey(), e.resolvedAtMs(), rs.getLong(11), e.resolvedAtMs(),
                nullableLong(rs, 12), e));
          }
        }
      }
      replay.newest(limit, nowMs).forEach(w -> index.add(w.value()));
    }
    return new CacheWrites(idem, index);
  }

  private static Long nullableLong(ResultSet rs, int i) throws SQLException {
    long v = rs.getLong(i);
    return rs.wasNull() ? null : v;
  }

  /**
   * Keeps each log within {@code maxEntries} writes, dropping the oldest, at most {@code slice}
   * of each per call, and (when {@code expired}) every expired write. Bounded so that one call
   * never holds the state worker for long: deleting a million rows in one go took the one core for
   * seconds, and every answer and replay waited behind it. A slice is one range of the table's own
   * key (the oldest sequence numbers).
   *
   * @return the rows deleted, and whether a log still holds more than its bound
   */
  Pruned pruneCache(long maxEntries, int slice, boolean expired, long nowMs) throws SQLException {
    int n = 0;
    if (expired) {
      try (PreparedStatement a = conn.prepareStatement("DELETE FROM idem_log WHERE expires_at_ms <= ?");
           PreparedStatement b = conn.prepareStatement("DELETE FROM index_log WHERE expires_at_ms <= ?")) {
        a.setLong(1, nowMs);
        b.setLong(1, nowMs);
        n += a.executeUpdate() + b.executeUpdate();
      }
    }
    Pruned idem = overBound("idem_log", maxEntries, slice);
    Pruned index = overBound("index_log", maxEntries, slice);
    return new Pruned(n + idem.deleted() + index.deleted(), idem.more() || index.more());
  }

  /** What {@link #pruneCache} did: rows deleted, and whether more are over the bound. */
  public record Pruned(int deleted, boolean more) {}

  /**
   * Deletes up to {@code slice} of the oldest rows of {@code log} whose sequence number is not
   * among the last {@code maxEntries} (expired rows deleted earlier leave gaps, so a log may keep
   * fewer). Reads only the ends of the table's key, never counts its rows.
   */
  private Pruned overBound(String log, long maxEntries, int slice) throws SQLException {
    long oldest;
    long newest;
    try (ResultSet rs = prepared("SELECT MIN(seq), MAX(seq) FROM " + log).executeQuery()) {
      rs.next();
      oldest = rs.getLong(1);
      if (rs.wasNull()) {
        return new Pruned(0, false);
      }
      newest = rs.getLong(2);
    }
    long lastOver = newest - maxEntries;
    if (lastOver < oldest) {
      return new Pruned(0, false);
    }
    long upTo = Math.min(lastOver, oldest + slice - 1);
    PreparedStatement del = prepared("DELETE FROM " + log + " WHERE seq <= ?");
    del.setLong(1, upTo);
    return new Pruned(del.executeUpdate(), upTo < lastOver);
  }

  // ---- audit -----------------------------------------------------------------------------------

  /**
   * Appends each event to its tenant's chain, in order: the next sequence number, the previous
   * hash, the new hash, and the tenant's head moved to it. An event whose id is already stored (a
   * retried batch whose first write did commit) is skipped. Returns {written, duplicate}.
   */
  int[] appendAudit(List<AuditEvent> events) throws SQLException {
    Map<String, AuditChain.Anchor> heads = new HashMap<>();
    int written = 0;
    int duplicate = 0;
    try (PreparedStatement seen = conn.prepareStatement("SELECT 1 FROM audit WHERE tenant = ? AND record_id = ?");
         PreparedStatement ins = conn.prepareStatement(
             "INSERT INTO audit (tenant, seq, record_id, ts_ms, prev_hash, hash, body) VALUES (?, ?, ?, ?, ?, ?, ?)")) {
      for (AuditEvent e : events) {
        seen.setString(1, e.tenant());
        seen.setString(2, e.id());
        try (ResultSet rs = seen.executeQuery()) {
          if (rs.next()) {
            duplicate++;
            continue;
          }
        }
        AuditChain.Anchor head = heads.get(e.tenant());
        if (head == null) {
          head = auditHead(e.tenant());
        }
        long seq = head.seq() + 1;
        String hash = AuditChain.hash(head.hash(), seq, e.body());
        ins.setString(1, e.tenant());
        ins.setLong(2, seq);
        ins.setString(3, e.id());
        ins.setLong(4, e.tsMs());
        ins.setString(5, head.hash());
        ins.setString(6, hash);
        ins.setString(7, e.body());
        ins.executeUpdate();
        heads.put(e.tenant(), new AuditChain.Anchor(seq, hash));
        written++;
      }
    }
    try (PreparedStatement up = conn.prepareStatement("""
        INSERT INTO audit_head (tenant, seq, hash) VALUES (?, ?, ?)
        ON CONFLICT(tenant) DO UPDATE SET seq = excluded.seq, hash = excluded.hash""")) {
      for (Map.Entry<String, AuditChain.Anchor> h : heads.entrySet()) {
        up.setString(1, h.getKey());
        up.setLong(2, h.getValue().seq());
        up.setString(3, h.getValue().hash());
        up.executeUpdate();
      }
    }
    return new int[] {written, duplicate};
  }

  /** Where {@code tenant}'s chain continues: its head, else its anchor, else the genesis. */
  private AuditChain.Anchor auditHead(String tenant) throws SQLException {
    AuditChain.Anchor a = anchorIn("audit_head", tenant);
    return a != null ? a : auditAnchor(tenant);
  }

  /** {@code tenant}'s retention anchor ({@link AuditChain.Anchor#NONE} when nothing was removed). */
  AuditChain.Anchor auditAnchor(String tenant) throws SQLException {
    AuditChain.Anchor a = anchorIn("audit_anchor", tenant);
    return a != null ? a : AuditChain.Anchor.NONE;
  }

  private AuditChain.Anchor anchorIn(String table, String tenant) throws SQLException {
    try (PreparedStatement ps = conn.prepareStatement("SELECT seq, hash FROM " + table + " WHERE tenant = ?")) {
      ps.setString(1, tenant);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new AuditChain.Anchor(rs.getLong(1), rs.getString(2)) : null;
      }
    }
  }

  /**
   * Up to {@code limit} of {@code tenant}'s records after sequence number {@code after}, with
   * {@code fromMs <= ts_ms < toMs}, in chain order: {@code {"records": [...], "next": cursor}}.
   */
  JsonObject pageAudit(String tenant, long after, long fromMs, long toMs, int limit) throws SQLException {
    JsonArray out = new JsonArray();
    long next = after;
    try (PreparedStatement ps = conn.prepareStatement("""
        SELECT seq, prev_hash, hash, body FROM audit WHERE tenant = ? AND seq > ? AND ts_ms >= ? AND ts_ms < ?
        ORDER BY seq LIMIT ?""")) {
      ps.setString(1, tenant);
      ps.setLong(2, after);
      ps.setLong(3, fromMs);
      ps.setLong(4, toMs);
      ps.setInt(5, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          next = rs.getLong(1);
          out.add(AuditRows.served(rs.getString(4), next, rs.getString(2), rs.getString(3)));
        }
      }
    }
    return new JsonObject().put("records", out).put("next", Long.toString(next));
  }

  /**
   * Retention: for each tenant, removes the longest prefix of its chain whose records are all older
   * than {@code cutoffMs}, after moving its anchor to the last record removed (the triggers allow
   * deleting only what the anchor covers). Returns the records removed.
   */
  int retainAudit(long cutoffMs, long nowMs) throws SQLException {
    List<String> tenants = new ArrayList<>();
    try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("SELECT DISTINCT tenant FROM audit")) {
      while (rs.next()) {
        tenants.add(rs.getString(1));
      }
    }
    int removed = 0;
    for (String t : tenants) {
      long upTo;
      try (PreparedStatement ps = conn.prepareStatement("""
          SELECT COALESCE((SELECT MIN(seq) FROM audit WHERE tenant = ?1 AND ts_ms >= ?2) - 1,
                          (SELECT MAX(seq) FROM audit WHERE tenant = ?1))""")) {
        ps.setString(1, t);
        ps.setLong(2, cutoffMs);
        try (ResultSet rs = ps.executeQuery()) {
          upTo = rs.next() ? rs.getLong(1) : 0;
        }
      }
      String hash;
      try (PreparedStatement ps = conn.prepareStatement("SELECT hash FROM audit WHERE tenant = ? AND seq = ?")) {
        ps.setString(1, t);
        ps.setLong(2, upTo);
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            continue;
          }
          hash = rs.getString(1);
        }
      }
      try (PreparedStatement a = conn.prepareStatement("""
          INSERT INTO audit_anchor (tenant, seq, hash, anchored_at_ms) VALUES (?, ?, ?, ?)
          ON CONFLICT(tenant) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, anchored_at_ms = excluded.anchored_at_ms""");
           PreparedStatement d = conn.prepareStatement("DELETE FROM audit WHERE tenant = ? AND seq <= ?")) {
        a.setString(1, t);
        a.setLong(2, upTo);
        a.setString(3, hash);
        a.setLong(4, nowMs);
        a.executeUpdate();
        d.setString(1, t);
        d.setLong(2, upTo);
        removed += d.executeUpdate();
      }
    }
    return removed;
  }

  @Override
  public void close() {
    statements.values().forEach(SqliteDb::closeQuietly);
    statements.clear();
    closeQuietly(conn);
    releaseQuietly(lock, lockChannel);
  }

  private static void closeQuietly(AutoCloseable c) {
    if (c != null) {
      try {
        c.close();
      } catch (Exception ignored) {
        // closing on the way out
      }
    }
  }

  private static void releaseQuietly(FileLock lock, FileChannel ch) {
    try {
      if (lock != null && lock.isValid()) {
        lock.release();
      }
    } catch (IOException ignored) {
      // the channel's close releases it too
    }
    closeQuietly(ch);
  }
}
