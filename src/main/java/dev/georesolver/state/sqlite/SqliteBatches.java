package dev.georesolver.state.sqlite;

import dev.georesolver.bus.BatchJob;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Types;
import java.util.ArrayList;
import java.util.List;

/**
 * The {@code batches} module's statements on the SQLite file ({@code batch_jobs}, {@code batch_items},
 * {@code batch_slices}). Blocking; run inside {@link SqliteDb#transaction} only, on the state worker.
 */
final class SqliteBatches {

  private static final String JOB_COLUMNS = "id, tenant, idem_key, state, spec, total, done, resolved, refused, invalid, "
      + "failed, created_at_ms, started_at_ms, finished_at_ms";

  private SqliteBatches() {}

  static BatchJob find(Connection c, String tenant, String idemKey) throws SQLException {
    return one(c, "SELECT " + JOB_COLUMNS + " FROM batch_jobs WHERE tenant = ? AND idem_key = ?", tenant, idemKey);
  }

  static BatchJob get(Connection c, String id) throws SQLException {
    return one(c, "SELECT " + JOB_COLUMNS + " FROM batch_jobs WHERE id = ?", id);
  }

  static JsonObject create(Connection c, BatchJob j) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO batch_jobs (id, tenant, idem_key, state, spec, created_at_ms, total) "
        + "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT(tenant, idem_key) DO NOTHING")) {
      ps.setString(1, j.id());
      ps.setString(2, j.tenant());
      ps.setString(3, j.idemKey());
      ps.setString(4, BatchJob.LOADING);
      ps.setString(5, j.spec().encode());
      ps.setLong(6, j.createdAtMs());
      ps.setLong(7, j.total());
      boolean created = ps.executeUpdate() == 1;
      BatchJob now = created ? get(c, j.id()) : find(c, j.tenant(), j.idemKey());
      return new JsonObject().put("created", created).put("job", now.toJson());
    }
  }

  static void append(Connection c, String jobId, List<JsonObject> rows) throws SQLException {
    long done = 0;
    long invalid = 0;
    try (PreparedStatement ps = c.prepareStatement(
        "INSERT INTO batch_items (job_id, idx, row, result) VALUES (?, ?, ?, ?) ON CONFLICT(job_id, idx) DO NOTHING")) {
      for (JsonObject r : rows) {
        JsonObject result = r.getJsonObject("result");
        ps.setString(1, jobId);
        ps.setLong(2, r.getLong("i"));
        ps.setString(3, r.getJsonObject("row").encode());
        ps.setString(4, result == null ? null : result.encode());
        if (ps.executeUpdate() == 1 && result != null) {
          done++;
          invalid += "invalid".equals(result.getString("status")) ? 1 : 0;
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE batch_jobs SET done = done + ?, invalid = invalid + ?, "
        + "failed = failed + ? WHERE id = ?")) {
      ps.setLong(1, done);
      ps.setLong(2, invalid);
      ps.setLong(3, done - invalid);
      ps.setString(4, jobId);
      ps.executeUpdate();
    }
  }

  static BatchJob seal(Connection c, String jobId, long total, JsonArray columns, long nowMs) throws SQLException {
    BatchJob j = get(c, jobId);
    if (j == null || !BatchJob.LOADING.equals(j.state())) {
      return j;
    }
    JsonObject spec = j.spec().copy().put("columns", columns);
    boolean nothingLeft = j.done() >= total;
    try (PreparedStatement ps = c.prepareStatement("UPDATE batch_jobs SET state = ?, spec = ?, total = ?, "
        + "finished_at_ms = ? WHERE id = ?")) {
      ps.setString(1, nothingLeft ? BatchJob.DONE : BatchJob.QUEUED);
      ps.setString(2, spec.encode());
      ps.setLong(3, total);
      if (nothingLeft) {
        ps.setLong(4, nowMs);
      } else {
        ps.setNull(4, Types.INTEGER);
      }
      ps.setString(5, jobId);
      ps.executeUpdate();
    }
    long slices = (total + j.sliceRows() - 1) / j.sliceRows();
    try (PreparedStatement ps = c.prepareStatement("INSERT INTO batch_slices (job_id, slice) VALUES (?, ?) ON CONFLICT DO NOTHING")) {
      for (long s = 0; s < slices && !nothingLeft; s++) {
        ps.setString(1, jobId);
        ps.setLong(2, s);
        ps.addBatch();
      }
      ps.executeBatch();
    }
    return get(c, jobId);
  }

  static List<BatchJob> list(Connection c, String tenant, int limit) throws SQLException {
    String sql = "SELECT " + JOB_COLUMNS + " FROM batch_jobs" + (tenant == null ? "" : " WHERE tenant = ?")
        + " ORDER BY created_at_ms DESC, id DESC LIMIT ?";
    List<BatchJob> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      int i = 1;
      if (tenant != null) {
        ps.setString(i++, tenant);
      }
      ps.setInt(i, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          out.add(job(rs));
        }
      }
    }
    return out;
  }

  static BatchJob cancel(Connection c, String id, long nowMs) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE batch_jobs SET state = 'cancelled', finished_at_ms = ? "
        + "WHERE id = ? AND state IN ('loading', 'queued', 'running')")) {
      ps.setLong(1, nowMs);
      ps.setString(2, id);
      ps.executeUpdate();
    }
    return get(c, id);
  }

  /** The first slice with rows left of the oldest open job not skipped; slices found empty are marked done on the way. */
  static JsonObject lease(Connection c, String owner, long leaseMs, List<String> skip, long nowMs) throws SQLException {
    StringBuilder sql = new StringBuilder("SELECT s.job_id, s.slice FROM batch_slices s JOIN batch_jobs j ON j.id = s.job_id "
        + "WHERE j.state IN ('queued', 'running') AND s.done = 0 AND s.lease_until_ms < ?");
    skip.forEach(x -> sql.append(" AND s.job_id <> ?"));
    sql.append(" ORDER BY j.created_at_ms, j.id, s.slice LIMIT 1");
    while (true) {
      String jobId;
      int slice;
      try (PreparedStatement ps = c.prepareStatement(sql.toString())) {
        ps.setLong(1, nowMs);
        for (int i = 0; i < skip.size(); i++) {
          ps.setString(i + 2, skip.get(i));
        }
        try (ResultSet rs = ps.executeQuery()) {
          if (!rs.next()) {
            return null;
          }
          jobId = rs.getString(1);
          slice = rs.getInt(2);
        }
      }
      BatchJob job = get(c, jobId);
      long from = (long) slice * job.sliceRows();
      List<JsonObject> rows = new ArrayList<>();
      try (PreparedStatement ps = c.prepareStatement(
          "SELECT idx, row FROM batch_items WHERE job_id = ? AND idx >= ? AND idx < ? AND result IS NULL ORDER BY idx")) {
        ps.setString(1, jobId);
        ps.setLong(2, from);
        ps.setLong(3, from + job.sliceRows());
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            rows.add(new JsonObject().put("i", rs.getLong(1)).put("row", new JsonObject(rs.getString(2))));
          }
        }
      }
      if (rows.isEmpty()) {
        finishSlice(c, null, jobId, slice);
        continue;
      }
      try (PreparedStatement ps = c.prepareStatement(
          "UPDATE batch_slices SET lease_owner = ?, lease_until_ms = ? WHERE job_id = ? AND slice = ?")) {
        ps.setString(1, owner);
        ps.setLong(2, nowMs + leaseMs);
        ps.setString(3, jobId);
        ps.setInt(4, slice);
        ps.executeUpdate();
      }
      if (BatchJob.QUEUED.equals(job.state())) {
        try (PreparedStatement ps = c.prepareStatement(
            "UPDATE batch_jobs SET state = 'running', started_at_ms = COALESCE(started_at_ms, ?) WHERE id = ? AND state = 'queued'")) {
          ps.setLong(1, nowMs);
          ps.setString(2, jobId);
          ps.executeUpdate();
        }
        job = get(c, jobId);
      }
      return new JsonObject().put("job", job.toJson()).put("slice", slice).put("rows", new JsonArray(new ArrayList<>(rows)));
    }
  }

  static boolean renew(Connection c, String owner, String jobId, int slice, long leaseMs, long nowMs) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("UPDATE batch_slices SET lease_until_ms = ? WHERE job_id = ? AND slice = ? "
        + "AND lease_owner = ? AND done = 0 AND EXISTS (SELECT 1 FROM batch_jobs WHERE id = ? AND state IN ('queued', 'running'))")) {
      ps.setLong(1, nowMs + leaseMs);
      ps.setString(2, jobId);
      ps.setInt(3, slice);
      ps.setString(4, owner);
      ps.setString(5, jobId);
      return ps.executeUpdate() == 1;
    }
  }

  static BatchJob record(Connection c, String jobId, List<JsonObject> results, long nowMs) throws SQLException {
    long done = 0;
    long resolved = 0;
    long refused = 0;
    long invalid = 0;
    long failed = 0;
    try (PreparedStatement ps = c.prepareStatement(
        "UPDATE batch_items SET result = ? WHERE job_id = ? AND idx = ? AND result IS NULL")) {
      for (JsonObject r : results) {
        JsonObject result = r.getJsonObject("result");
        ps.setString(1, result.encode());
        ps.setString(2, jobId);
        ps.setLong(3, r.getLong("i"));
        if (ps.executeUpdate() == 1) {
          done++;
          switch (result.getString("status", "")) {
            case "resolved" -> resolved++;
            case "refused" -> refused++;
            case "invalid" -> invalid++;
            default -> failed++;
          }
        }
      }
    }
    try (PreparedStatement ps = c.prepareStatement("UPDATE batch_jobs SET done = done + ?, resolved = resolved + ?, "
        + "refused = refused + ?, invalid = invalid + ?, failed = failed + ?, "
        + "state = CASE WHEN state IN ('queued', 'running') AND done + ? >= total THEN 'done' ELSE state END, "
        + "finished_at_ms = CASE WHEN state IN ('queued', 'running') AND done + ? >= total THEN ? ELSE finished_at_ms END "
        + "WHERE id = ?")) {
      ps.setLong(1, done);
      ps.setLong(2, resolved);
      ps.setLong(3, refused);
      ps.setLong(4, invalid);
      ps.setLong(5, failed);
      ps.setLong(6, done);
      ps.setLong(7, done);
      ps.setLong(8, nowMs);
      ps.setString(9, jobId);
      ps.executeUpdate();
    }
    return get(c, jobId);
  }

  static void finishSlice(Connection c, String owner, String jobId, int slice) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "UPDATE batch_slices SET done = 1, lease_owner = NULL WHERE job_id = ? AND slice = ?")) {
      ps.setString(1, jobId);
      ps.setInt(2, slice);
      ps.executeUpdate();
    }
  }

  static List<JsonObject> page(Connection c, String jobId, long from, int limit) throws SQLException {
    List<JsonObject> out = new ArrayList<>();
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT idx, row, result FROM batch_items WHERE job_id = ? AND idx >= ? ORDER BY idx LIMIT ?")) {
      ps.setString(1, jobId);
      ps.setLong(2, from);
      ps.setInt(3, limit);
      try (ResultSet rs = ps.executeQuery()) {
        while (rs.next()) {
          JsonObject o = new JsonObject().put("i", rs.getLong(1)).put("row", new JsonObject(rs.getString(2)));
          String result = rs.getString(3);
          if (result != null) {
            o.put("result", new JsonObject(result));
          }
          out.add(o);
        }
      }
    }
    return out;
  }

  static int releaseLeases(Connection c) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(
        "UPDATE batch_slices SET lease_owner = NULL, lease_until_ms = 0 WHERE done = 0 AND lease_owner IS NOT NULL")) {
      return ps.executeUpdate();
    }
  }

  private static BatchJob one(Connection c, String sql, String... args) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement(sql)) {
      for (int i = 0; i < args.length; i++) {
        ps.setString(i + 1, args[i]);
      }
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? job(rs) : null;
      }
    }
  }

  private static BatchJob job(ResultSet rs) throws SQLException {
    long started = rs.getLong(13);
    boolean noStart = rs.wasNull();
    long finished = rs.getLong(14);
    boolean noFinish = rs.wasNull();
    return new BatchJob(rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4), new JsonObject(rs.getString(5)),
        rs.getLong(6), rs.getLong(7), rs.getLong(8), rs.getLong(9), rs.getLong(10), rs.getLong(11), rs.getLong(12),
        noStart ? null : started, noFinish ? null : finished);
  }
}
