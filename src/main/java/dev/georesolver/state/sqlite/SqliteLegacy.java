package dev.georesolver.state.sqlite;

import dev.georesolver.bus.BatchJob;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.state.Legacy;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.AuditRules;
import dev.georesolver.state.rules.BatchRules;
import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The earlier layout of the SQLite file, read: the tables the modules used before they were written
 * over the primitives ({@code reconcile_queue}, {@code corrections}, {@code delivery_cursors},
 * {@code audit}, {@code audit_anchor}, {@code audit_head}, {@code batch_jobs}, {@code batch_items},
 * {@code batch_slices}, {@code idem_log}, {@code index_log}), which the file keeps until
 * {@link #remove} drops them. Every read is one statement with a limit, by the table's own key, run
 * in {@link SqliteTables}' group commit, so on the state worker, never on an event loop. Use from the
 * state verticle's context.
 */
public final class SqliteLegacy implements Legacy {

  private static final Logger log = LoggerFactory.getLogger(SqliteLegacy.class);

  private final SqliteTables tables;

  public SqliteLegacy(SqliteTables tables) {
    this.tables = tables;
  }

  @Override
  public String describe() {
    return "the earlier tables of " + tables.path();
  }

  @Override
  public Future<Boolean> present() {
    return tables.statement(SqliteDb::hasLegacy);
  }

  /** {@inheritDoc} The file is locked by this process: no earlier resolver can write it meanwhile. */
  @Override
  public Future<String> fingerprint() {
    return Future.succeededFuture("");
  }

  @Override
  public Future<Map<String, Long>> counts() {
    return tables.statement(db -> {
      Map<String, Long> out = new LinkedHashMap<>();
      out.put("queue", count(db, "reconcile_queue"));
      out.put("outbox", count(db, "corrections"));
      out.put("cursors", count(db, "delivery_cursors"));
      out.put("audit", count(db, "audit"));
      out.put("jobs", count(db, "batch_jobs"));
      out.put("batch_rows", count(db, "batch_items"));
      out.put("cache.idem", count(db, "idem_log"));
      out.put("cache.index", count(db, "index_log"));
      return out;
    });
  }

  private static long count(SqliteDb db, String table) throws SQLException {
    try (PreparedStatement ps = db.connection().prepareStatement("SELECT COUNT(*) FROM " + table); ResultSet rs = ps.executeQuery()) {
      return rs.next() ? rs.getLong(1) : 0;
    }
  }

  private static long after(String cursor) {
    return cursor == null ? Long.MIN_VALUE : Long.parseLong(cursor);
  }

  /** The statement with {@code args} bound in order (String, Long, Integer). */
  private static PreparedStatement bound(Connection c, String sql, Object... args) throws SQLException {
    PreparedStatement ps = c.prepareStatement(sql);
    for (int i = 0; i < args.length; i++) {
      Object a = args[i];
      if (a instanceof String s) {
        ps.setString(i + 1, s);
      } else if (a instanceof Integer n) {
        ps.setInt(i + 1, n);
      } else {
        ps.setLong(i + 1, (Long) a);
      }
    }
    return ps;
  }

  private static Long nullableLong(ResultSet rs, int i) throws SQLException {
    long v = rs.getLong(i);
    return rs.wasNull() ? null : v;
  }

  @Override
  public Future<Page<QueueItem>> queue(String after, int limit, long nowMs) {
    return tables.statement(db -> {
      List<QueueItem> out = new ArrayList<>();
      int unreadable = 0;
      long last = after(after);
      int n = 0;
      try (PreparedStatement ps = bound(db.connection(), """
          SELECT id, debt_key, debt, answer_resolved_at_ms, accepted_at_ms, state, outcome, attempts, not_before_ms, lease_owner,
                 lease_until_ms, last_error, updated_at_ms
          FROM reconcile_queue WHERE id > ? ORDER BY id LIMIT ?""", last, limit); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          n++;
          last = rs.getLong(1);
          try {
            // The columns are what the queue decided on; the debt's own copies of its times follow them.
            Debt d = Debt.fromJson(new JsonObject(rs.getString(3)).put("answer_resolved_at_ms", rs.getLong(4))
                .put("accepted_at_ms", rs.getLong(5)));
            String state = rs.getString(6);
            Long leaseUntil = nullableLong(rs, 11);
            if (QueueRules.IN_PROGRESS.equals(state) && leaseUntil == null) {
              leaseUntil = 0L; // a lease without its end: over, so another reconciler takes it
            }
            out.add(new QueueItem(d.debtKey(), d, state, rs.getInt(8), rs.getLong(9), rs.getString(10), leaseUntil, rs.getLong(5),
                rs.getString(7), rs.getString(12), rs.getLong(13)));
          } catch (RuntimeException e) {
            unreadable++;
            log.warn("state store: queue item {} of the earlier layout is unreadable and is left out: {}",
                Legacy.printable(rs.getString(2)), Legacy.printable(e.getMessage()));
          }
        }
      }
      return new Page<>(out, n < limit ? null : Long.toString(last), unreadable);
    });
  }

  @Override
  public Future<Page<OutboxEntry>> outbox(String after, int limit) {
    return tables.statement(db -> {
      List<OutboxEntry> out = new ArrayList<>();
      int unreadable = 0;
      long last = after(after);
      int n = 0;
      try (PreparedStatement ps = bound(db.connection(), "SELECT seq, body FROM corrections WHERE seq > ? ORDER BY seq LIMIT ?", last,
          limit); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          n++;
          last = rs.getLong(1);
          try {
            JsonObject c = new JsonObject(rs.getString(2));
            c.remove("cursor");
            out.add(new OutboxEntry(last, c));
          } catch (RuntimeException e) {
            unreadable++;
            log.warn("state store: outbox entry {} of the earlier layout is unreadable and is left out", last);
          }
        }
      }
      return new Page<>(out, n < limit ? null : Long.toString(last), unreadable);
    });
  }

  @Override
  public Future<List<DeliveryCursor>> cursors() {
    return tables.statement(db -> {
      List<DeliveryCursor> out = new ArrayList<>();
      try (PreparedStatement ps = bound(db.connection(), "SELECT name, cursor FROM delivery_cursors ORDER BY name");
           ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(new DeliveryCursor(rs.getString(1), rs.getString(2)));
        }
      }
      return out;
    });
  }

  @Override
  public Future<List<String>> auditTenants() {
    return tables.statement(db -> {
      List<String> out = new ArrayList<>();
      try (PreparedStatement ps = bound(db.connection(), "SELECT DISTINCT tenant FROM audit UNION SELECT tenant FROM audit_anchor "
          + "UNION SELECT tenant FROM audit_head ORDER BY 1"); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(rs.getString(1));
        }
      }
      return out;
    });
  }

  @Override
  public Future<AuditChain.Anchor> auditAnchor(String tenant) {
    return tables.statement(db -> {
      try (PreparedStatement ps = bound(db.connection(), "SELECT seq, hash FROM audit_anchor WHERE tenant = ?", tenant);
           ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new AuditChain.Anchor(rs.getLong(1), rs.getString(2)) : AuditChain.Anchor.NONE;
      }
    });
  }

  @Override
  public Future<Page<AuditRules.Link>> audit(String tenant, String after, int limit) {
    return tables.statement(db -> {
      List<AuditRules.Link> out = new ArrayList<>();
      long last = after(after);
      try (PreparedStatement ps = bound(db.connection(), """
          SELECT seq, record_id, ts_ms, prev_hash, hash, body FROM audit WHERE tenant = ? AND seq > ? ORDER BY seq LIMIT ?""",
          tenant, last, limit); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          last = rs.getLong(1);
          out.add(new AuditRules.Link(last, rs.getString(2), rs.getLong(3), rs.getString(4), rs.getString(5), rs.getString(6)));
        }
      }
      return new Page<>(out, out.size() < limit ? null : Long.toString(last));
    });
  }

  @Override
  public Future<Page<BatchJob>> jobs(String after, int limit) {
    return tables.statement(db -> {
      List<BatchJob> out = new ArrayList<>();
      int unreadable = 0;
      String last = after == null ? "" : after;
      int n = 0;
      try (PreparedStatement ps = bound(db.connection(), """
          SELECT id, tenant, idem_key, state, spec, total, done, resolved, refused, invalid, failed, created_at_ms, started_at_ms,
                 finished_at_ms
          FROM batch_jobs WHERE id > ? ORDER BY id LIMIT ?""", last, limit); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          n++;
          last = rs.getString(1);
          try {
            out.add(new BatchJob(last, rs.getString(2), rs.getString(3), rs.getString(4), new JsonObject(rs.getString(5)), rs.getLong(6),
                rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12), nullableLong(rs, 13),
                nullableLong(rs, 14)));
          } catch (RuntimeException e) {
            unreadable++;
            log.warn("state store: batch job {} of the earlier layout is unreadable and is left out", Legacy.printable(last));
          }
        }
      }
      return new Page<>(out, n < limit ? null : last, unreadable);
    });
  }

  @Override
  public Future<Page<BatchRow>> batchRows(BatchJob job, String after, int limit) {
    return tables.statement(db -> {
      List<BatchRow> out = new ArrayList<>();
      int unreadable = 0;
      long last = after(after);
      int n = 0;
      try (PreparedStatement ps = bound(db.connection(),
          "SELECT idx, row, result FROM batch_items WHERE job_id = ? AND idx > ? ORDER BY idx LIMIT ?", job.id(), last, limit);
           ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          n++;
          last = rs.getLong(1);
          try {
            String result = rs.getString(3);
            out.add(new BatchRow(last, new JsonObject(rs.getString(2)), result == null ? null : new JsonObject(result)));
          } catch (RuntimeException e) {
            unreadable++;
            log.warn("state store: row {} of batch job {} of the earlier layout is unreadable and is left out", last,
                Legacy.printable(job.id()));
          }
        }
      }
      return new Page<>(out, n < limit ? null : Long.toString(last), unreadable);
    });
  }

  @Override
  public Future<List<Slice>> slices(BatchJob job, long from, int limit) {
    return tables.statement(db -> {
      List<Slice> out = new ArrayList<>();
      try (PreparedStatement ps = bound(db.connection(), """
          SELECT slice, done, lease_owner, lease_until_ms FROM batch_slices WHERE job_id = ? AND slice >= ? AND slice < ?
          ORDER BY slice""", job.id(), from, from + limit); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          boolean done = rs.getInt(2) != 0;
          out.add(new Slice(rs.getLong(1), new BatchRules.Slice(done ? null : rs.getString(3), done ? 0 : rs.getLong(4), done)));
        }
      }
      return out;
    });
  }

  @Override
  public Future<Page<CacheEntry>> cache(String kind, String after, int limit) {
    boolean idem = "idem".equals(kind);
    String sql = idem
        ? "SELECT seq, key, stored_at_ms, expires_at_ms, resolved_at_ms, basis_ms, entry FROM idem_log WHERE seq > ? ORDER BY seq LIMIT ?"
        : """
          SELECT seq, addr_key, lon, lat, source, claim, confidence, label, precision, resolved_at_ms, expires_at_ms, basis_ms
          FROM index_log WHERE seq > ? ORDER BY seq LIMIT ?""";
    return tables.statement(db -> {
      List<CacheEntry> out = new ArrayList<>();
      long last = after(after);
      try (PreparedStatement ps = bound(db.connection(), sql, last, limit); ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          last = rs.getLong(1);
          if (idem) {
            out.add(new CacheEntry(last, rs.getString(2), rs.getLong(3), rs.getLong(4), rs.getLong(5), nullableLong(rs, 6), rs.getBytes(7)));
          } else {
            IndexEntry e = new IndexEntry(rs.getString(2), rs.getDouble(3), rs.getDouble(4), rs.getString(5), rs.getString(6),
                rs.getDouble(7), rs.getString(8), rs.getString(9), rs.getLong(10), null);
            out.add(new CacheEntry(last, e.addrKey(), e.resolvedAtMs(), rs.getLong(11), e.resolvedAtMs(), nullableLong(rs, 12),
                e.toJson().encode().getBytes(StandardCharsets.UTF_8)));
          }
        }
      }
      return new Page<>(out, out.size() < limit ? null : Long.toString(last));
    });
  }

  @Override
  public Future<Void> remove() {
    return tables.statement(db -> {
      db.dropLegacy();
      return null;
    });
  }
}
