package dev.georesolver.state;

import dev.georesolver.redis.RedisKeys;
import dev.georesolver.state.redis.RedisStateStore;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.state.rules.AuditChain.Anchor;
import dev.georesolver.state.rules.AuditChain.Break;
import io.vertx.core.Future;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.sqlite.SQLiteConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * Reads the audit partitions straight from a store, outside a running resolver, and walks each
 * tenant's chain ({@link AuditChain.Verifier}): what {@code georesolver audit verify} prints. The
 * SQLite file is opened read-only (a resolver may have it open meanwhile); Redis is read with
 * {@code XRANGE} pages. Besides the chain itself, a tenant's stored head (its last record's seq and
 * hash) must be where the walk ended, so records removed from the end are found too.
 */
public final class AuditReader {

  /** Records read per query or page. */
  static final int PAGE = 1000;

  private AuditReader() {}

  /**
   * One tenant's chain, verified.
   *
   * @param tenant whose
   * @param records records read
   * @param anchor where the chain started (retention's anchor, or none)
   * @param broken the first broken record, or null when the chain holds
   */
  public record Report(String tenant, long records, Anchor anchor, Break broken) {
    /** Whether the chain holds. */
    public boolean ok() {
      return broken == null;
    }
  }

  /**
   * Verifies every tenant's chain in the SQLite file (or only {@code tenant}'s).
   *
   * @throws StateStoreException when the file is missing or is not a state file
   */
  public static List<Report> sqlite(Path file, String tenant) {
    if (!Files.isRegularFile(file)) {
      throw new StateStoreException("no state file at " + file.toAbsolutePath() + " (state.path)");
    }
    SQLiteConfig cfg = new SQLiteConfig();
    cfg.setReadOnly(true);
    try (Connection c = cfg.createConnection("jdbc:sqlite:" + file.toAbsolutePath())) {
      if (!hasTable(c, "audit")) {
        return tenant == null ? List.of() : List.of(new Report(tenant, 0, Anchor.NONE, null));
      }
      TreeSet<String> tenants = new TreeSet<>();
      if (tenant != null) {
        tenants.add(tenant);
      } else {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(
            "SELECT tenant FROM audit UNION SELECT tenant FROM audit_anchor UNION SELECT tenant FROM audit_head")) {
          while (rs.next()) {
            tenants.add(rs.getString(1));
          }
        }
      }
      List<Report> out = new ArrayList<>();
      for (String t : tenants) {
        out.add(sqliteTenant(c, t));
      }
      return out;
    } catch (SQLException e) {
      throw new StateStoreException("cannot read the audit trail in " + file.toAbsolutePath() + ": " + e.getMessage(), e);
    }
  }

  private static boolean hasTable(Connection c, String name) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?")) {
      ps.setString(1, name);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next();
      }
    }
  }

  private static Report sqliteTenant(Connection c, String tenant) throws SQLException {
    Anchor anchor = anchorIn(c, "audit_anchor", tenant);
    AuditChain.Verifier v = new AuditChain.Verifier(tenant, anchor == null ? Anchor.NONE : anchor);
    long after = Long.MIN_VALUE;
    try (PreparedStatement ps = c.prepareStatement(
        "SELECT seq, record_id, prev_hash, hash, body FROM audit WHERE tenant = ? AND seq > ? ORDER BY seq LIMIT " + PAGE)) {
      while (true) {
        ps.setString(1, tenant);
        ps.setLong(2, after);
        int n = 0;
        try (ResultSet rs = ps.executeQuery()) {
          while (rs.next()) {
            n++;
            after = rs.getLong(1);
            v.accept(new AuditChain.Stored(after, rs.getString(2), rs.getString(3), rs.getString(4), rs.getString(5)));
          }
        }
        if (n < PAGE) {
          break;
        }
      }
    }
    return report(tenant, v, anchor == null ? Anchor.NONE : anchor, anchorIn(c, "audit_head", tenant));
  }

  private static Anchor anchorIn(Connection c, String table, String tenant) throws SQLException {
    try (PreparedStatement ps = c.prepareStatement("SELECT seq, hash FROM " + table + " WHERE tenant = ?")) {
      ps.setString(1, tenant);
      try (ResultSet rs = ps.executeQuery()) {
        return rs.next() ? new Anchor(rs.getLong(1), rs.getString(2)) : null;
      }
    }
  }

  /** The walk's verdict, with the stored head checked against where it ended. */
  static Report report(String tenant, AuditChain.Verifier v, Anchor anchor, Anchor storedHead) {
    Break b = v.broken();
    if (b == null && storedHead != null) {
      Anchor end = v.head();
      if (storedHead.seq() > end.seq()) {
        b = new Break(tenant, end.seq() + 1, "?", "records " + (end.seq() + 1)
            + (storedHead.seq() > end.seq() + 1 ? "-" + storedHead.seq() : "") + " are missing at the end (the head is at "
            + storedHead.seq() + ")");
      } else if (storedHead.seq() == end.seq() && !storedHead.hash().equals(end.hash())) {
        b = new Break(tenant, end.seq(), "?", "the last record's hash does not match the stored head");
      }
    }
    return new Report(tenant, v.count(), anchor, b);
  }

  /** Verifies every tenant's chain in the Redis at {@code redis} under {@code prefix} (or only {@code tenant}'s). */
  public static Future<List<Report>> redis(Redis redis, String prefix, String tenant) {
    // The audit keys are the same on one server and in a cluster (each tenant's are under its own tag).
    RedisKeys keys = new RedisKeys(prefix, false);
    Future<List<String>> tenants = tenant != null ? Future.succeededFuture(List.of(tenant))
        : redis.send(Request.cmd(Command.SMEMBERS).arg(keys.auditTenants())).map(r -> {
          TreeSet<String> ts = new TreeSet<>();
          if (r != null) {
            r.forEach(x -> ts.add(x.toString()));
          }
          return new ArrayList<>(ts);
        });
    return tenants.compose(ts -> {
      Future<List<Report>> all = Future.succeededFuture(new ArrayList<>());
      for (String t : ts) {
        all = all.compose(list -> redisTenant(redis, keys, t).map(rep -> {
          list.add(rep);
          return list;
        }));
      }
      return all;
    });
  }

  private static Future<Report> redisTenant(Redis redis, RedisKeys keys, String tenant) {
    return Future.all(redis.send(Request.cmd(Command.GET).arg(keys.auditAnchor(tenant))),
            redis.send(Request.cmd(Command.GET).arg(keys.auditHead(tenant))))
        .compose(cf -> {
          Response a = cf.resultAt(0);
          Response h = cf.resultAt(1);
          Anchor anchor = a == null ? Anchor.NONE : RedisStateStore.parseAnchor(a.toString());
          Anchor head = h == null ? null : RedisStateStore.parseAnchor(h.toString());
          AuditChain.Verifier v = new AuditChain.Verifier(tenant, anchor);
          return page(redis, keys.audit(tenant), "-", v).map(x -> report(tenant, v, anchor, head));
        });
  }

  private static Future<Void> page(Redis redis, String stream, String from, AuditChain.Verifier v) {
    return redis.send(Request.cmd(Command.XRANGE).arg(stream).arg(from).arg("+").arg("COUNT").arg(PAGE)).compose(r -> {
      int n = r == null ? 0 : r.size();
      String last = null;
      for (int i = 0; i < n; i++) {
        Response e = r.get(i);
        last = e.get(0).toString();
        Map<String, String> f = RedisStateStore.toMap(e.get(1));
        long seq;
        try {
          seq = Long.parseLong(f.getOrDefault("s", "-1"));
        } catch (NumberFormatException bad) {
          seq = -1;
        }
        v.accept(new AuditChain.Stored(seq, null, String.valueOf(f.get("p")), String.valueOf(f.get("h")), String.valueOf(f.get("b"))));
      }
      if (n < PAGE) {
        return Future.succeededFuture();
      }
      return page(redis, stream, "(" + last, v);
    });
  }
}
