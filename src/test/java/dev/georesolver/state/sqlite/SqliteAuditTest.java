package dev.georesolver.state.sqlite;

import dev.georesolver.state.AuditReader;
import dev.georesolver.state.StateStore;
import dev.georesolver.audit.CanonicalJson;
import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.support.TestState;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The audit module in a real SQLite file: chains per tenant, the triggers that keep the table
 * append-only, retention through the anchor, and verification (the reader {@code audit verify}
 * uses) failing at a record altered behind the triggers' back.
 */
public class SqliteAuditTest {

  private Path file;
  private SqliteDb db;
  private int ids;

  @BeforeEach
  void open() {
    file = TestState.freshFile();
    db = SqliteDb.open(file);
  }

  @AfterEach
  void close() {
    db.close();
  }

  public static AuditEvent event(String tenant, String id, long tsMs) {
    JsonObject b = new JsonObject().put("id", id).put("tenant", tenant).put("kind", "degraded").put("ts_ms", tsMs)
        .put("resolution_source", "fallback");
    return new AuditEvent(tenant, id, tsMs, CanonicalJson.canonical(b));
  }

  private List<AuditEvent> events(String tenant, int n, long tsMs) {
    List<AuditEvent> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(event(tenant, tenant + "-" + (ids++), tsMs + i));
    }
    return out;
  }

  private void append(List<AuditEvent> es) {
    List<SqliteDb.Outcome> o = db.transaction(List.of(d -> d.appendAudit(es)));
    assertThat(o.get(0).failure()).isNull();
  }

  private Connection raw() throws SQLException {
    return DriverManager.getConnection("jdbc:sqlite:" + file);
  }

  private AuditReader.Report verify(String tenant) {
    return AuditReader.sqlite(file, tenant).get(0);
  }

  @Test
  @DisplayName("each tenant's records get their own sequence numbers and chain, batch after batch, and a retried id is not written twice")
  void chainsPerTenant() throws Exception {
    List<AuditEvent> first = events("acme", 3, 1000);
    first.add(1, event("beta", "beta-x", 1000));
    append(first);
    append(events("acme", 2, 2000));
    List<SqliteDb.Outcome> again = db.transaction(List.of(d -> d.appendAudit(first)));
    assertThat((int[]) again.get(0).value()).containsExactly(0, 4);

    JsonObject page = db.pageAudit("acme", 0, Long.MIN_VALUE, Long.MAX_VALUE, 10);
    JsonArray rs = page.getJsonArray("records");
    assertThat(rs).hasSize(5);
    assertThat(rs.getJsonObject(0).getLong("seq")).isEqualTo(1);
    assertThat(rs.getJsonObject(0).getString("prev_hash")).isEqualTo(AuditChain.GENESIS);
    assertThat(rs.getJsonObject(1).getString("prev_hash")).isEqualTo(rs.getJsonObject(0).getString("hash"));
    assertThat(page.getString("next")).isEqualTo("5");
    assertThat(db.pageAudit("beta", 0, Long.MIN_VALUE, Long.MAX_VALUE, 10).getJsonArray("records")).hasSize(1);
    assertThat(db.pageAudit("acme", 2, 2000, 2001, 10).getJsonArray("records")).extracting(o -> ((JsonObject) o).getLong("seq"))
        .containsExactly(4L);

    List<AuditReader.Report> all = AuditReader.sqlite(file, null);
    assertThat(all).extracting(AuditReader.Report::tenant).containsExactly("acme", "beta");
    assertThat(all).allMatch(AuditReader.Report::ok);
    assertThat(all.get(0).records()).isEqualTo(5);
  }

  @Test
  @DisplayName("the triggers refuse UPDATE and DELETE of a record, an insert that does not extend the chain, and moving the anchor back")
  void triggersRefuseChanges() throws Exception {
    append(events("acme", 3, 1000));
    try (Connection c = raw(); Statement s = c.createStatement()) {
      assertThatThrownBy(() -> s.executeUpdate("UPDATE audit SET body = '{}' WHERE seq = 2"))
          .hasMessageContaining("audit records cannot be changed");
      assertThatThrownBy(() -> s.executeUpdate("DELETE FROM audit WHERE seq = 1"))
          .hasMessageContaining("audit records cannot be deleted");
      assertThatThrownBy(() -> s.executeUpdate("DELETE FROM audit"))
          .hasMessageContaining("audit records cannot be deleted");
      assertThatThrownBy(() -> s.executeUpdate("INSERT INTO audit (tenant, seq, record_id, ts_ms, prev_hash, hash, body) "
          + "VALUES ('acme', 9, 'x', 1, 'p', 'h', '{}')")).hasMessageContaining("only extend their tenant's chain");
      assertThatThrownBy(() -> s.executeUpdate("INSERT INTO audit_anchor (tenant, seq, hash, anchored_at_ms) VALUES ('acme', 2, 'bogus', 1)"))
          .hasMessageContaining("must name a stored record");
      assertThatThrownBy(() -> s.executeUpdate("UPDATE audit_head SET seq = 1")).hasMessageContaining("only moves forward");
      assertThatThrownBy(() -> s.executeUpdate("DELETE FROM audit_head")).hasMessageContaining("cannot be deleted");
    }
    assertThat(verify("acme").ok()).isTrue();
    assertThat(verify("acme").records()).isEqualTo(3);
  }

  @Test
  @DisplayName("a record altered with the trigger dropped makes verification fail at that record, by tenant, seq and id")
  void tamperingIsFound() throws Exception {
    append(events("acme", 5, 1000));
    String id;
    try (Connection c = raw(); Statement s = c.createStatement()) {
      s.execute("DROP TRIGGER audit_no_update");
      s.executeUpdate("UPDATE audit SET body = replace(body, 'fallback', 'primary') WHERE tenant = 'acme' AND seq = 3");
      var rs = s.executeQuery("SELECT record_id FROM audit WHERE tenant = 'acme' AND seq = 3");
      rs.next();
      id = rs.getString(1);
    }
    AuditReader.Report r = verify("acme");
    assertThat(r.ok()).isFalse();
    assertThat(r.broken().seq()).isEqualTo(3);
    assertThat(r.broken().id()).isEqualTo(id);
    assertThat(r.broken().why()).isEqualTo("hash does not match the record's content");
  }

  @Test
  @DisplayName("records removed from the end behind the triggers' back are found by the stored head")
  void truncationIsFound() throws Exception {
    append(events("acme", 4, 1000));
    try (Connection c = raw(); Statement s = c.createStatement()) {
      s.execute("DROP TRIGGER audit_no_delete");
      s.executeUpdate("DELETE FROM audit WHERE tenant = 'acme' AND seq >= 3");
    }
    AuditReader.Report r = verify("acme");
    assertThat(r.broken().seq()).isEqualTo(3);
    assertThat(r.broken().why()).isEqualTo("records 3-4 are missing at the end (the head is at 4)");
  }

  @Test
  @DisplayName("retention removes only the whole expired prefix, moves the anchor, and the chain still verifies and grows")
  void retentionKeepsVerificationPassing() throws Exception {
    append(events("acme", 3, 1000));
    append(List.of(event("acme", "late", 9000), event("acme", "early-but-after-a-late-one", 1500)));
    append(events("beta", 2, 1000));
    List<SqliteDb.Outcome> o = db.transaction(List.of(d -> d.retainAudit(5000, 10_000)));
    assertThat(o.get(0).value()).as("acme 1-3 and beta 1-2; acme 5 is old but follows a young record").isEqualTo(5);
    AuditReader.Report acme = verify("acme");
    assertThat(acme.ok()).isTrue();
    assertThat(acme.anchor().seq()).isEqualTo(3);
    assertThat(acme.records()).isEqualTo(2);
    AuditReader.Report beta = verify("beta");
    assertThat(beta.ok()).isTrue();
    assertThat(beta.records()).isZero();

    append(events("beta", 1, 11_000));
    append(events("acme", 1, 11_000));
    assertThat(AuditReader.sqlite(file, null)).allMatch(AuditReader.Report::ok);
    assertThat(db.pageAudit("beta", 0, Long.MIN_VALUE, Long.MAX_VALUE, 10).getJsonArray("records").getJsonObject(0).getLong("seq"))
        .as("numbering goes on from the anchor").isEqualTo(3);
    assertThat((Integer) db.transaction(List.of(d -> d.retainAudit(5000, 12_000))).get(0).value()).isZero();
  }
}
