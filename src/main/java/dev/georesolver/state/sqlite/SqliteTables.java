package dev.georesolver.state.sqlite;

import dev.georesolver.state.tables.Conflict;
import dev.georesolver.state.tables.Entry;
import dev.georesolver.state.tables.Log;
import dev.georesolver.state.tables.Row;
import dev.georesolver.state.tables.Table;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.state.tables.Txn;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * The embedded backend: one SQLite file ({@link SqliteDb}: WAL, an exclusive lock, migrations) holding
 * the primitives in five tables ({@code t_rows}, {@code t_index}, {@code t_counters}, {@code t_logs},
 * {@code t_log_seq}). Transactions are run with <b>group commit</b>: each is queued, and the queue runs
 * as one SQLite transaction (one savepoint per transaction, so one failing undoes only itself) when
 * {@code commitIntervalMs} passed since the first was queued, or at once when {@code commitMaxWrites}
 * are waiting; each transaction's future completes after the commit. The file is written by this
 * process alone, so a transaction never conflicts; its reads are served at once from the file, with
 * its own writes visible to them.
 *
 * <p>Blocking JDBC: use from a worker context only (the state verticle is a worker for this backend).
 * Not thread-safe.
 */
public final class SqliteTables implements Tables {

  private final Vertx vertx;
  private final SqliteDb db;
  private final long commitIntervalMs;
  private final int commitMaxWrites;
  private final List<Queued<?>> queue = new ArrayList<>();
  private long timer = -1;
  private long commits;

  private record Queued<T>(SqliteDb.Op<T> op, Promise<T> promise) {}

  /**
   * @param db the open file
   * @param commitIntervalMs the longest a transaction waits for its group commit, milliseconds
   * @param commitMaxWrites the most transactions in one group commit
   */
  public SqliteTables(Vertx vertx, SqliteDb db, long commitIntervalMs, int commitMaxWrites) {
    this.vertx = vertx;
    this.db = db;
    this.commitIntervalMs = commitIntervalMs;
    this.commitMaxWrites = commitMaxWrites;
  }

  /** Opens (creating and migrating) the file at {@code path}. */
  public static SqliteTables open(Vertx vertx, Path path, long commitIntervalMs, int commitMaxWrites) {
    return new SqliteTables(vertx, SqliteDb.open(path), commitIntervalMs, commitMaxWrites);
  }

  /** Opens the file at {@code path} read-only, without its lock (see {@link SqliteDb#openReadOnly}); only {@link #read} works. */
  public static SqliteTables openReadOnly(Vertx vertx, Path path) {
    return new SqliteTables(vertx, SqliteDb.openReadOnly(path), 1, 1);
  }

  /** The names of the tables in the SQLite file at {@code path} (read-only, briefly). Blocking. */
  public static java.util.Set<String> tableNames(Path path) {
    return SqliteDb.tableNames(path);
  }

  /** The file. */
  public Path path() {
    return db.path();
  }

  @Override
  public String kind() {
    return "sqlite";
  }

  @Override
  public boolean shared() {
    return false;
  }

  @Override
  public <T> Future<T> transact(Function<Txn, Future<T>> body) {
    return submit(d -> run(body, false));
  }

  @Override
  public <T> Future<T> read(Function<Txn, Future<T>> body) {
    return submit(d -> run(body, true));
  }

  private <T> T run(Function<Txn, Future<T>> body, boolean readOnly) throws SQLException {
    Future<T> f = body.apply(new SqliteTxn(readOnly));
    if (!f.isComplete()) {
      throw new IllegalStateException("a transaction waited for something other than its own reads");
    }
    if (f.failed()) {
      Throwable t = f.cause();
      if (t instanceof SQLException s) {
        throw s;
      }
      if (t instanceof RuntimeException r) {
        throw r;
      }
      throw new IllegalStateException(t);
    }
    return f.result();
  }

  /**
   * Runs {@code op} on the file in the next group commit, like a transaction: for the reader of the
   * earlier layout's tables ({@link SqliteLegacy}), which are not primitives.
   */
  <T> Future<T> statement(SqliteDb.Op<T> op) {
    return submit(op);
  }

  /** Queues one operation for the next group commit. */
  private <T> Future<T> submit(SqliteDb.Op<T> op) {
    Promise<T> p = Promise.promise();
    queue.add(new Queued<>(op, p));
    if (queue.size() >= commitMaxWrites) {
      flush();
    } else if (timer < 0) {
      timer = vertx.setTimer(commitIntervalMs, id -> {
        timer = -1;
        flush();
      });
    }
    return p.future();
  }

  @SuppressWarnings("unchecked")
  private void flush() {
    if (timer >= 0) {
      vertx.cancelTimer(timer);
      timer = -1;
    }
    if (queue.isEmpty()) {
      return;
    }
    List<Queued<?>> batch = new ArrayList<>(queue);
    queue.clear();
    List<SqliteDb.Outcome> outcomes = db.transaction(batch.stream().map(Queued::op).toList());
    commits++;
    for (int i = 0; i < batch.size(); i++) {
      Promise<Object> p = (Promise<Object>) batch.get(i).promise();
      SqliteDb.Outcome o = outcomes.get(i);
      if (o.failure() == null) {
        p.complete(o.value());
      } else {
        p.fail(o.failure());
      }
    }
  }

  @Override
  public Future<JsonObject> status() {
    return Future.succeededFuture(new JsonObject().put("store", "sqlite").put("reachable", true).put("persistent", true)
        .put("path", db.path().toString()).put("commits", commits));
  }

  @Override
  public Future<Void> close() {
    flush();
    db.close();
    return Future.succeededFuture();
  }

  private static String tbl(Table t) {
    return t.group() + "/" + t.name();
  }

  private static String log(Log l) {
    return l.group() + "/" + l.name();
  }

  /** One transaction's view: statements on the writer connection, inside the group commit's savepoint. */
  private final class SqliteTxn implements Txn {
    private final boolean readOnly;
    /** The next sequence number each log may take in this transaction. */
    private final Map<String, Long> nextSeq = new HashMap<>();

    SqliteTxn(boolean readOnly) {
      this.readOnly = readOnly;
    }

    private <T> Future<T> sql(SqlCall<T> c) {
      try {
        return Future.succeededFuture(c.call());
      } catch (SQLException | RuntimeException e) {
        return Future.failedFuture(e);
      }
    }

    private void writable() {
      if (readOnly) {
        throw new IllegalStateException("a read-only view cannot write");
      }
    }

    @Override
    public Future<Row> get(Table table, String key) {
      return sql(() -> {
        PreparedStatement ps = db.prepared("SELECT version, body FROM t_rows WHERE tbl = ? AND key = ?");
        ps.setString(1, tbl(table));
        ps.setString(2, key);
        try (ResultSet rs = ps.executeQuery()) {
          return rs.next() ? new Row(key, rs.getLong(1), rs.getBytes(2)) : Row.absent(key);
        }
      });
    }

    @Override
    public Future<List<Row>> get(Table table, List<String> keys) {
      return sql(() -> {
        List<Row> out = new ArrayList<>(keys.size());
        PreparedStatement ps = db.prepared("SELECT version, body FROM t_rows WHERE tbl = ? AND key = ?");
        for (String key : keys) {
          ps.setString(1, tbl(table));
          ps.setString(2, key);
          try (ResultSet rs = ps.executeQuery()) {
            out.add(rs.next() ? new Row(key, rs.getLong(1), rs.getBytes(2)) : Row.absent(key));
          }
        }
        return out;
      });
    }

    @Override
    public Future<List<Scored>> range(Table table, String index, double min, double max, int offset, int limit) {
      table.requireIndex(index);
      return sql(() -> {
        PreparedStatement ps = db.prepared(
            "SELECT key, score FROM t_index WHERE tbl = ? AND idx = ? AND score >= ? AND score <= ? ORDER BY score, key LIMIT ? OFFSET ?");
        ps.setString(1, tbl(table));
        ps.setString(2, index);
        ps.setDouble(3, min);
        ps.setDouble(4, max);
        ps.setInt(5, Math.max(0, limit));
        ps.setInt(6, Math.max(0, offset));
        List<Scored> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new Scored(rs.getString(1), rs.getDouble(2)));
          }
        }
        return out;
      });
    }

    @Override
    public Future<Long> count(Table table, String index) {
      table.requireIndex(index);
      return sql(() -> {
        PreparedStatement ps = db.prepared("SELECT COUNT(*) FROM t_index WHERE tbl = ? AND idx = ?");
        ps.setString(1, tbl(table));
        ps.setString(2, index);
        try (ResultSet rs = ps.executeQuery()) {
          rs.next();
          return rs.getLong(1);
        }
      });
    }

    @Override
    public Future<Map<String, Long>> counters(Table table) {
      return sql(() -> {
        PreparedStatement ps = db.prepared("SELECT name, value FROM t_counters WHERE tbl = ?");
        ps.setString(1, tbl(table));
        Map<String, Long> out = new HashMap<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.put(rs.getString(1), rs.getLong(2));
          }
        }
        return out;
      });
    }

    @Override
    public Future<Long> lastSeq(Log l) {
      return sql(() -> {
        long last = storedLastSeq(l);
        nextSeq.putIfAbsent(log(l), last + 1);
        return last;
      });
    }

    private long storedLastSeq(Log l) throws SQLException {
      PreparedStatement ps = db.prepared("SELECT last FROM t_log_seq WHERE log = ?");
      ps.setString(1, log(l));
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    }

    @Override
    public Future<List<Entry>> read(Log l, long after, int limit) {
      return sql(() -> {
        PreparedStatement ps = db.prepared("SELECT seq, body FROM t_logs WHERE log = ? AND seq > ? ORDER BY seq LIMIT ?");
        ps.setString(1, log(l));
        ps.setLong(2, after);
        ps.setInt(3, Math.max(0, limit));
        List<Entry> out = new ArrayList<>();
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            out.add(new Entry(rs.getLong(1), rs.getBytes(2)));
          }
        }
        return out;
      });
    }

    @Override
    public void put(Table table, String key, byte[] body, Map<String, Double> indexes) {
      writable();
      indexes.keySet().forEach(table::requireIndex);
      exec(() -> {
        PreparedStatement ps = db.prepared("INSERT INTO t_rows (tbl, key, version, body) VALUES (?, ?, 1, ?) "
            + "ON CONFLICT (tbl, key) DO UPDATE SET version = version + 1, body = excluded.body");
        ps.setString(1, tbl(table));
        ps.setString(2, key);
        ps.setBytes(3, body);
        ps.executeUpdate();
        memberships(table, key, indexes);
      });
    }

    private void memberships(Table table, String key, Map<String, Double> indexes) throws SQLException {
      if (table.indexes().isEmpty()) {
        return;
      }
      PreparedStatement del = db.prepared("DELETE FROM t_index WHERE tbl = ? AND key = ?");
      del.setString(1, tbl(table));
      del.setString(2, key);
      del.executeUpdate();
      if (indexes.isEmpty()) {
        return;
      }
      PreparedStatement ins = db.prepared("INSERT INTO t_index (tbl, idx, score, key) VALUES (?, ?, ?, ?)");
      for (Map.Entry<String, Double> e : indexes.entrySet()) {
        ins.setString(1, tbl(table));
        ins.setString(2, e.getKey());
        ins.setDouble(3, e.getValue());
        ins.setString(4, key);
        ins.executeUpdate();
      }
    }

    @Override
    public void delete(Table table, String key) {
      writable();
      exec(() -> {
        PreparedStatement ps = db.prepared("DELETE FROM t_rows WHERE tbl = ? AND key = ?");
        ps.setString(1, tbl(table));
        ps.setString(2, key);
        ps.executeUpdate();
        memberships(table, key, Map.of());
      });
    }

    @Override
    public void add(Table table, String counter, long delta) {
      writable();
      exec(() -> {
        PreparedStatement ps = db.prepared("INSERT INTO t_counters (tbl, name, value) VALUES (?, ?, ?) "
            + "ON CONFLICT (tbl, name) DO UPDATE SET value = value + excluded.value");
        ps.setString(1, tbl(table));
        ps.setString(2, counter);
        ps.setLong(3, delta);
        ps.executeUpdate();
      });
    }

    @Override
    public void append(Log l, long seq, byte[] body) {
      writable();
      Long next = nextSeq.get(log(l));
      if (next == null) {
        throw new IllegalStateException("append to " + l.id() + " without reading its lastSeq first");
      }
      if (seq < next) {
        throw new Conflict("append to " + l.id() + " as " + seq + " where the next number is " + next);
      }
      exec(() -> {
        PreparedStatement ps = db.prepared("INSERT INTO t_logs (log, seq, body) VALUES (?, ?, ?)");
        ps.setString(1, log(l));
        ps.setLong(2, seq);
        ps.setBytes(3, body);
        ps.executeUpdate();
        PreparedStatement last = db.prepared("INSERT INTO t_log_seq (log, last) VALUES (?, ?) "
            + "ON CONFLICT (log) DO UPDATE SET last = excluded.last");
        last.setString(1, log(l));
        last.setLong(2, seq);
        last.executeUpdate();
      });
      nextSeq.put(log(l), seq + 1);
    }

    @Override
    public void trim(Log l, long upTo) {
      writable();
      exec(() -> {
        PreparedStatement ps = db.prepared("DELETE FROM t_logs WHERE log = ? AND seq <= ?");
        ps.setString(1, log(l));
        ps.setLong(2, upTo);
        ps.executeUpdate();
      });
    }

    private void exec(SqlRun r) {
      try {
        r.run();
      } catch (SQLException e) {
        throw new IllegalStateException(e.getMessage(), e);
      }
    }
  }

  @FunctionalInterface
  private interface SqlCall<T> {
    T call() throws SQLException;
  }

  @FunctionalInterface
  private interface SqlRun {
    void run() throws SQLException;
  }
}
