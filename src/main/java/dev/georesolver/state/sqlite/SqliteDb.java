package dev.georesolver.state.sqlite;

import dev.georesolver.state.StateStoreException;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The SQLite file itself: one writer connection, blocking JDBC. Every operation runs inside
 * {@link #transaction}, which {@link SqliteTables} calls with a batch of queued operations (group commit):
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

  /**
   * Opens the file read-only and without its lock, for a reader beside a running resolver (the
   * command line's {@code audit verify}). The file must have this build's layout: a reader never
   * migrates.
   *
   * @throws StateStoreException when it cannot be opened or has another layout
   */
  /** The names of the tables in the file at {@code path}, opened read-only for the moment it takes. */
  public static java.util.Set<String> tableNames(Path path) {
    org.sqlite.SQLiteConfig cfg = new org.sqlite.SQLiteConfig();
    cfg.setReadOnly(true);
    java.util.Set<String> out = new java.util.TreeSet<>();
    try (Connection c = cfg.createConnection("jdbc:sqlite:" + path.toAbsolutePath());
         Statement s = c.createStatement();
         ResultSet rs = s.executeQuery("SELECT name FROM sqlite_master WHERE type = 'table'")) {
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    } catch (SQLException e) {
      throw new StateStoreException("cannot read the state file " + path.toAbsolutePath() + ": " + e.getMessage(), e);
    }
  }

  public static SqliteDb openReadOnly(Path path) {
    Path abs = path.toAbsolutePath();
    org.sqlite.SQLiteConfig cfg = new org.sqlite.SQLiteConfig();
    cfg.setReadOnly(true);
    Connection c = null;
    try {
      c = cfg.createConnection("jdbc:sqlite:" + abs);
      int version;
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
        version = rs.next() ? rs.getInt(1) : 0;
      }
      if (version != SqliteSchema.latest()) {
        throw new StateStoreException("state file " + abs + " has layout version " + version + " and this build reads "
            + SqliteSchema.latest() + (version < SqliteSchema.latest() ? ": start the resolver on it once to bring it up to date" : ""));
      }
      c.setAutoCommit(false);
      return new SqliteDb(abs, c, null, null);
    } catch (SQLException e) {
      closeQuietly(c);
      throw new StateStoreException("cannot open state file " + abs + " read-only: " + e.getMessage(), e);
    } catch (RuntimeException e) {
      closeQuietly(c);
      throw e;
    }
  }

  private void migrate() throws SQLException {
    int version = version();
    if (version > SqliteSchema.latest()) {
      throw new StateStoreException("state file " + path + " has schema version " + version + ", newer than this build's "
          + SqliteSchema.latest());
    }
    // A new file starts with the current layout; a file with the earlier one stops before the
    // migration that drops it, which the import runs once it moved the rows (dropLegacy).
    int from = version == 0 ? SqliteSchema.firstCurrent() : version;
    int to = version <= SqliteSchema.legacyDropped() && version > 0 ? SqliteSchema.legacyDropped() : SqliteSchema.latest();
    conn.setAutoCommit(false);
    if (version == to) {
      return;
    }
    try {
      run(from, to);
      conn.commit();
    } catch (SQLException e) {
      conn.rollback();
      throw e;
    }
  }

  /** {@code PRAGMA user_version}: how many migrations ran. */
  int version() throws SQLException {
    try (Statement s = conn.createStatement(); ResultSet rs = s.executeQuery("PRAGMA user_version")) {
      return rs.next() ? rs.getInt(1) : 0;
    }
  }

  /** Runs migrations {@code from} (inclusive) to {@code to} and records {@code to}, in the caller's transaction. */
  private void run(int from, int to) throws SQLException {
    try (Statement s = conn.createStatement()) {
      for (int v = from; v < to; v++) {
        for (String ddl : SqliteSchema.MIGRATIONS.get(v).statements()) {
          s.execute(ddl);
        }
      }
      s.execute("PRAGMA user_version = " + to);
    }
  }

  /**
   * Whether the file still has the earlier layout's tables: it was opened with them, and
   * {@link #dropLegacy} has not run.
   */
  boolean hasLegacy() throws SQLException {
    int v = version();
    return v > 0 && v <= SqliteSchema.legacyDropped();
  }

  /**
   * Drops the earlier layout's tables and runs every migration after that, inside the caller's
   * transaction (an operation of {@link #transaction}); nothing when they are gone already.
   */
  void dropLegacy() throws SQLException {
    if (hasLegacy()) {
      run(SqliteSchema.legacyDropped(), SqliteSchema.latest());
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

  /** {@code sql} prepared on this connection, once; the caller must not close it. */
  PreparedStatement prepared(String sql) throws SQLException {
    PreparedStatement ps = statements.get(sql);
    if (ps == null) {
      ps = conn.prepareStatement(sql);
      statements.put(sql, ps);
    }
    return ps;
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
