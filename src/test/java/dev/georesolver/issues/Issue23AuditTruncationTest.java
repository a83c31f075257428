package dev.georesolver.issues;

import dev.georesolver.audit.CanonicalJson;
import dev.georesolver.bus.AuditEvent;
import dev.georesolver.cli.Cli;
import dev.georesolver.state.AuditKey;
import dev.georesolver.state.AuditReader;
import dev.georesolver.state.TablesStore;
import dev.georesolver.state.redis.RedisTables;
import dev.georesolver.state.sqlite.SqliteTables;
import dev.georesolver.state.tables.Tables;
import dev.georesolver.support.Backends;
import dev.georesolver.support.OnContext;
import dev.georesolver.support.TestState;
import io.vertx.core.Future;
import io.vertx.core.json.JsonObject;
import io.vertx.redis.client.Command;
import io.vertx.redis.client.Redis;
import io.vertx.redis.client.Request;
import io.vertx.redis.client.Response;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Issue 23, item 6: a trail truncated, forged or deleted directly in the database fails {@code audit verify}, on SQLite and on Redis. */
class Issue23AuditTruncationTest {

  private static final String SECRET = "a-deployment-secret-kept-apart-from-the-data";
  private static final Map<String, String> ENV = Map.of("GEO_AUDIT_KEY", SECRET, "ACME_KEY", "tk-acme-23", "BETA_KEY", "tk-beta-23");
  private static final String TENANTS = """
      tenants:
        - { id: "acme", keys: [ { env: "ACME_KEY" } ] }
        - { id: "beta", keys: [ { env: "BETA_KEY" } ] }
      """;

  /** A manifest with the two tenants, {@code state} and one tier nobody calls. */
  private static Path manifest(String state, String prefix) throws Exception {
    return Files.writeString(TestState.freshDir().resolve("manifest.yaml"), "routing:\n"
        + "  idempotency: { key_prefix: \"" + prefix + "\" }\n"
        + "  tiers:\n    - { name: \"primary\", adapter: \"generic\", endpoint: \"http://127.0.0.1:9\", claim: \"exact\", timeout_ms: 500 }\n"
        + TENANTS + "state: " + state + "\n");
  }

  private static AuditEvent event(String tenant, int n, long ts) {
    JsonObject b = new JsonObject().put("id", tenant + "-" + n).put("tenant", tenant).put("ts_ms", ts).put("kind", "degraded")
        .put("idempotency_key", "ab".repeat(32));
    return new AuditEvent(tenant, tenant + "-" + n, ts, CanonicalJson.canonical(b));
  }

  /** Opens the trails of acme and beta, as a resolver does at start, and writes five records for acme and two for beta. */
  private static void writeTrail(OnContext on, Tables tables) {
    TablesStore store = TablesStore.over(tables, Clock.systemUTC(), false, null, 0, AuditKey.of(SECRET, "test"));
    long now = System.currentTimeMillis();
    List<AuditEvent> es = new ArrayList<>();
    for (int i = 1; i <= 5; i++) {
      es.add(event("acme", i, now - 1000 + i));
    }
    es.add(event("beta", 1, now - 500));
    es.add(event("beta", 2, now - 400));
    on.await(() -> store.audit().open(List.of("acme", "beta")).compose(v -> store.audit().append(es)));
  }

  private static String[] cli(Map<String, String> env, String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Cli.run(args, env, o, e);
    }
    return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
  }

  private static String[] verify(Path manifest, Map<String, String> env, String... more) {
    List<String> args = new ArrayList<>(List.of("audit", "verify", "--manifest", manifest.toString()));
    args.addAll(List.of(more));
    return cli(env, args.toArray(String[]::new));
  }

  private static void sql(Path db, String... statements) throws Exception {
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + db); var st = c.createStatement()) {
      for (String s : statements) {
        st.execute(s);
      }
    }
  }

  @Test
  @DisplayName("SQLite: moving the anchor forward and deleting below it, deleting a tenant whole, or dropping the log table each fail verify")
  void sqliteTruncationIsFound() throws Exception {
    Path db = TestState.freshFile();
    OnContext on = Backends.worker();
    SqliteTables tables = SqliteTables.open(on.vertx(), db, 2, 1000);
    writeTrail(on, tables);
    on.await(tables::close);
    Path manifest = manifest("{ path: \"" + db + "\" }", "geo:");

    String[] ok = verify(manifest, ENV);
    assertThat(ok[0]).as(String.join("\n", ok)).isEqualTo("0");
    assertThat(ok[1]).contains("acme: 5 record(s), chain intact").contains("beta: 2 record(s), chain intact");

    // A database administrator moves acme's anchor to its last record and deletes everything at or below it.
    sql(db, """
        INSERT INTO t_rows (tbl, key, version, body)
          SELECT 'audit:acme/meta', 'anchor', 1, CAST(json_object('seq', seq, 'hash', json_extract(CAST(body AS TEXT), '$.h'),
                 'ts_ms', 0) AS BLOB)
          FROM t_logs WHERE log = 'audit:acme/chain' ORDER BY seq DESC LIMIT 1
        ON CONFLICT (tbl, key) DO UPDATE SET body = excluded.body, version = version + 1""",
        "DELETE FROM t_logs WHERE log = 'audit:acme/chain' AND seq <= 5");
    String[] truncated = verify(manifest, ENV);
    assertThat(truncated[0]).as(String.join("\n", truncated)).isEqualTo("1");
    assertThat(truncated[1]).contains("acme: BROKEN at seq 5 (id anchor): the retention anchor is not signed")
        .contains("beta: 2 record(s), chain intact");

    // Signed with a key that is not the deployment's.
    sql(db, "UPDATE t_rows SET body = CAST(json_set(CAST(body AS TEXT), '$.sig', '" + "00".repeat(32) + "') AS BLOB) "
        + "WHERE tbl = 'audit:acme/meta' AND key = 'anchor'");
    assertThat(verify(manifest, ENV)[1]).contains("acme: BROKEN at seq 5 (id anchor): the retention anchor has a signature that "
        + "does not match the audit key");
    assertThat(verify(manifest, Map.of("ACME_KEY", "a", "BETA_KEY", "b"))[1]).as("without the key nothing signed verifies")
        .contains("acme: BROKEN").contains("cannot be checked: no audit key");

    // beta's whole trail removed: every row, index entry, log entry and number of its group.
    sql(db, "DELETE FROM t_rows WHERE tbl LIKE 'audit:beta/%'", "DELETE FROM t_index WHERE tbl LIKE 'audit:beta/%'",
        "DELETE FROM t_logs WHERE log LIKE 'audit:beta/%'", "DELETE FROM t_log_seq WHERE log LIKE 'audit:beta/%'",
        "DELETE FROM t_index WHERE tbl = 'audit:tenants/all' AND key = 'beta'",
        "DELETE FROM t_rows WHERE tbl = 'audit:tenants/all' AND key = 'beta'");
    String[] gone = verify(manifest, ENV, "--tenant", "beta");
    assertThat(gone[0]).as(String.join("\n", gone)).isEqualTo("1");
    assertThat(gone[1]).contains("beta: BROKEN at seq 0 (id -): the tenant has no audit trail, though it is configured");

    // The log table dropped.
    sql(db, "DROP TABLE t_logs");
    String[] dropped = verify(manifest, ENV);
    assertThat(dropped[0]).as(String.join("\n", dropped)).isEqualTo("1");
    assertThat(dropped[1]).contains("(store): BROKEN at seq 0 (id -): the state file has no table t_logs");
  }

  @Test
  @DisplayName("an anchor younger than retention_days (records removed early, by a retention run with a wrong cut-off) fails verify")
  void earlyRemovalIsFound() {
    OnContext on = Backends.worker();
    SqliteTables tables = SqliteTables.open(on.vertx(), TestState.freshFile(), 2, 1000);
    writeTrail(on, tables);
    TablesStore store = TablesStore.over(tables, Clock.systemUTC(), false, null, 0, AuditKey.of(SECRET, "test"));
    assertThat(on.await(() -> store.audit().retain(System.currentTimeMillis() + 1))).isEqualTo(7);
    List<AuditReader.Report> chainsOnly = on.await(() -> AuditReader.verify(store, "acme"));
    assertThat(chainsOnly).allMatch(AuditReader.Report::ok);
    List<AuditReader.Report> r = on.await(() -> AuditReader.verify(store, null, new AuditReader.Expect(List.of("acme", "beta"),
        86_400_000L)));
    assertThat(r).extracting(x -> x.broken().why()).allMatch(w -> w.contains("younger than retention_days: records were removed early"));
    on.await(tables::close);
  }

  @Test
  @DisplayName("Redis: moving the anchor forward and trimming the stream below it, or deleting a tenant's keys, each fail verify")
  void redisTruncationIsFound() throws Exception {
    String url = Backends.redis().url();
    String prefix = "i23a" + UUID.randomUUID().toString().substring(0, 8) + ":";
    OnContext on = Backends.loop();
    RedisTables tables = Backends.redisTables(on, url, prefix);
    writeTrail(on, tables);
    Path manifest = manifest("{ store: redis, path: \"" + TestState.freshFile() + "\" }", prefix);
    String[] ok = verify(manifest, ENV, "--redis", url);
    assertThat(ok[0]).as(String.join("\n", ok)).isEqualTo("0");

    Redis redis = Redis.createClient(on.vertx(), url);
    String meta = tables.keys().state("audit:acme", "t", "meta");
    String stream = tables.keys().state("audit:acme", "l", "chain");
    Response last = on.await(() -> redis.send(Request.cmd(Command.XREVRANGE).arg(stream).arg("+").arg("-").arg("COUNT").arg("1")));
    String lastBody = last.get(0).get(1).get(1).toString();
    JsonObject anchor = new JsonObject().put("seq", 5).put("hash", new JsonObject(lastBody).getString("h")).put("ts_ms", 0);
    on.await(() -> redis.send(Request.cmd(Command.HSET).arg(meta).arg("anchor").arg("1:" + anchor.encode()))
        .compose(v -> redis.send(Request.cmd(Command.XTRIM).arg(stream).arg("MINID").arg("6-0"))));
    String[] truncated = verify(manifest, ENV, "--redis", url);
    assertThat(truncated[0]).as(String.join("\n", truncated)).isEqualTo("1");
    assertThat(truncated[1]).contains("acme: BROKEN at seq 5 (id anchor): the retention anchor is not signed");

    Response keys = on.await(() -> redis.send(Request.cmd(Command.KEYS).arg(prefix + "st:{audit:beta}*")));
    List<String> beta = new ArrayList<>();
    keys.forEach(k -> beta.add(k.toString()));
    assertThat(beta).isNotEmpty();
    on.await(() -> {
      Request del = Request.cmd(Command.DEL);
      beta.forEach(del::arg);
      return redis.send(del).compose(v -> redis.send(Request.cmd(Command.ZREM).arg(tables.keys().state("audit", "i", "tenants:all"))
          .arg("beta")));
    });
    String[] gone = verify(manifest, ENV, "--redis", url, "--tenant", "beta");
    assertThat(gone[0]).as(String.join("\n", gone)).isEqualTo("1");
    assertThat(gone[1]).contains("beta: BROKEN at seq 0 (id -): the tenant has no audit trail, though it is configured");
    on.await(() -> redis.close().map(v -> (Void) null).recover(t -> Future.succeededFuture()));
    on.await(tables::close);
  }
}
