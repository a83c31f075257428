package dev.georesolver.state.sqlite;

import dev.georesolver.bus.AuditEvent;
import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.StoredEntry;
import dev.georesolver.state.EarlierLayout;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.QueueItem;
import io.vertx.core.json.JsonObject;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * A SQLite file in the earlier release's layout: its schema is the earlier migrations (still the
 * first of {@link SqliteSchema#MIGRATIONS}), its rows written with the earlier store's own
 * statements, raw, so that the triggers of the earlier audit table check them as they did.
 */
public final class LegacySqliteFile implements EarlierLayout {

  private final Connection c;

  private LegacySqliteFile(Connection c) {
    this.c = c;
  }

  /** A file at {@code path} with the earlier layout's schema up to migration {@code version} (6: the last earlier one). */
  public static LegacySqliteFile create(Path path, int version) {
    try {
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + path.toAbsolutePath());
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA journal_mode=WAL");
        s.execute("PRAGMA synchronous=NORMAL");
        for (int v = 0; v < version; v++) {
          for (String ddl : SqliteSchema.MIGRATIONS.get(v).statements()) {
            s.execute(ddl);
          }
        }
        s.execute("PRAGMA user_version = " + version);
      }
      return new LegacySqliteFile(c);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The earlier layout of the file at {@code path}, as it is, to write more (while the current store may have it open). */
  public static LegacySqliteFile open(Path path) {
    try {
      Connection c = DriverManager.getConnection("jdbc:sqlite:" + path.toAbsolutePath());
      try (Statement s = c.createStatement()) {
        s.execute("PRAGMA busy_timeout=5000");
      }
      return new LegacySqliteFile(c);
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The file's tables, by name. */
  public static List<String> tables(Path path) {
    return strings(path, "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name");
  }

  /** The file's {@code user_version}. */
  public static int version(Path path) {
    return Integer.parseInt(strings(path, "PRAGMA user_version").get(0));
  }

  /** The version a file has once every migration ran (the earlier tables dropped). */
  public static int latestVersion() {
    return SqliteSchema.latest();
  }

  /** The tables of the earlier layout (what the import must leave none of). */
  public static List<String> legacyTables() {
    return SqliteSchema.LEGACY_TABLES;
  }

  private static List<String> strings(Path path, String sql) {
    try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + path.toAbsolutePath());
         Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
      List<String> out = new ArrayList<>();
      while (rs.next()) {
        out.add(rs.getString(1));
      }
      return out;
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  /** Runs {@code sql} with {@code args}; the generated key when there is one. */
  public long exec(String sql, Object... args) {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setObject(i + 1, args[i]);
      }
      ps.executeUpdate();
      try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT last_insert_rowid()")) {
        return rs.next() ? rs.getLong(1) : 0;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(sql + ": " + e.getMessage(), e);
    }
  }

  @Override
  public void item(QueueItem i) {
    exec("""
        INSERT INTO reconcile_queue (debt_key, idempotency_key, debt, answer_resolved_at_ms, accepted_at_ms, state, outcome, attempts,
                                     not_before_ms, lease_owner, lease_until_ms, last_error, updated_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(debt_key) DO UPDATE SET debt = excluded.debt, answer_resolved_at_ms = excluded.answer_resolved_at_ms,
          accepted_at_ms = excluded.accepted_at_ms, state = excluded.state, outcome = excluded.outcome, attempts = excluded.attempts,
          not_before_ms = excluded.not_before_ms, lease_owner = excluded.lease_owner, lease_until_ms = excluded.lease_until_ms,
          last_error = excluded.last_error, updated_at_ms = excluded.updated_at_ms""", i.key(), i.debt().idempotencyKey(), i.debt().toJson().encode(),
        i.answerResolvedAtMs(), i.acceptedAtMs(), i.state(), i.outcome(), i.attempts(), i.notBeforeMs(), i.leaseOwner(),
        i.leaseUntilMs(), i.lastError(), i.updatedAtMs());
  }

  @Override
  public String correction(Correction cr, long atMs) {
    return Long.toString(exec("INSERT INTO corrections (correction_id, idempotency_key, corrected_at_ms, body) VALUES (?, ?, ?, ?)",
        cr.correctionId(), cr.idempotencyKey(), cr.correctedAtMs(), cr.toJson().encode()));
  }

  @Override
  public void cursor(String name, String cursor) {
    exec("INSERT INTO delivery_cursors (name, cursor, updated_at_ms) VALUES (?, ?, 0)", name, cursor);
  }

  @Override
  public void audit(String tenant, List<AuditEvent> events) {
    AuditChain.Anchor head = anchorIn("audit_head", tenant);
    if (head == null) {
      head = anchorIn("audit_anchor", tenant);
    }
    if (head == null) {
      head = AuditChain.Anchor.NONE;
    }
    for (AuditEvent e : events) {
      long seq = head.seq() + 1;
      String hash = AuditChain.hash(head.hash(), seq, e.body());
      exec("INSERT INTO audit (tenant, seq, record_id, ts_ms, prev_hash, hash, body) VALUES (?, ?, ?, ?, ?, ?, ?)", tenant, seq, e.id(),
          e.tsMs(), head.hash(), hash, e.body());
      head = new AuditChain.Anchor(seq, hash);
    }
    exec("INSERT INTO audit_head (tenant, seq, hash) VALUES (?, ?, ?) ON CONFLICT(tenant) DO UPDATE SET seq = excluded.seq, "
        + "hash = excluded.hash", tenant, head.seq(), head.hash());
  }

  private AuditChain.Anchor anchorIn(String table, String tenant) {
    try (PreparedStatement ps = c.prepareStatement("SELECT seq, hash FROM " + table + " WHERE tenant = ?")) {
      ps.setString(1, tenant);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new AuditChain.Anchor(rs.getLong(1), rs.getString(2)) : null;
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }

  @Override
  public void retain(String tenant, long upTo) {
    String hash;
    try (PreparedStatement ps = c.prepareStatement("SELECT hash FROM audit WHERE tenant = ? AND seq = ?")) {
      ps.setString(1, tenant);
      ps.setLong(2, upTo);
      try (ResultSet rs = ps.executeQuery()) {
        rs.next();
        hash = rs.getString(1);
      }
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
    exec("INSERT INTO audit_anchor (tenant, seq, hash, anchored_at_ms) VALUES (?, ?, ?, 0) ON CONFLICT(tenant) DO UPDATE SET "
        + "seq = excluded.seq, hash = excluded.hash", tenant, upTo, hash);
    exec("DELETE FROM audit WHERE tenant = ? AND seq <= ?", tenant, upTo);
  }

  @Override
  public void job(BatchJob j) {
    exec("""
        INSERT INTO batch_jobs (id, tenant, idem_key, state, spec, total, done, resolved, refused, invalid, failed, created_at_ms,
                                started_at_ms, finished_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT(id) DO UPDATE SET state = excluded.state, total = excluded.total, done = excluded.done,
          resolved = excluded.resolved, refused = excluded.refused, invalid = excluded.invalid, failed = excluded.failed,
          started_at_ms = excluded.started_at_ms, finished_at_ms = excluded.finished_at_ms""", j.id(), j.tenant(), j.idemKey(), j.state(), j.spec().encode(), j.total(),
        j.done(), j.resolved(), j.refused(), j.invalid(), j.failed(), j.createdAtMs(), j.startedAtMs(), j.finishedAtMs());
  }

  @Override
  public void row(String jobId, long i, JsonObject row, JsonObject result) {
    exec("INSERT INTO batch_items (job_id, idx, row, result) VALUES (?, ?, ?, ?) ON CONFLICT(job_id, idx) DO UPDATE SET "
        + "result = excluded.result", jobId, i, row.encode(),
        result == null ? null : result.encode());
  }

  @Override
  public void slice(String jobId, long number, BatchRules.Slice s) {
    exec("INSERT INTO batch_slices (job_id, slice, done, lease_owner, lease_until_ms) VALUES (?, ?, ?, ?, ?) ON CONFLICT(job_id, slice) "
        + "DO UPDATE SET done = excluded.done, lease_owner = excluded.lease_owner, lease_until_ms = excluded.lease_until_ms", jobId, number,
        s.done() ? 1 : 0, s.owner(), s.leaseUntilMs());
  }

  @Override
  public void idem(String key, StoredEntry e, long resolvedAtMs) {
    exec("INSERT INTO idem_log (key, stored_at_ms, expires_at_ms, resolved_at_ms, basis_ms, entry) VALUES (?, ?, ?, ?, NULL, ?)", key,
        e.storedAtMs(), e.storedAtMs() + e.ttlMs(), resolvedAtMs, e.toBuffer().getBytes());
  }

  @Override
  public void index(IndexEntry e, long expiresAtMs) {
    exec("""
        INSERT INTO index_log (addr_key, lon, lat, source, claim, confidence, label, precision, resolved_at_ms, expires_at_ms, basis_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)""", e.addrKey(), e.lon(), e.lat(), e.source(), e.claim(), e.confidence(), e.label(),
        e.precision(), e.resolvedAtMs(), expiresAtMs);
  }

  @Override
  public void close() {
    try {
      c.close();
    } catch (SQLException e) {
      throw new IllegalStateException(e);
    }
  }
}
