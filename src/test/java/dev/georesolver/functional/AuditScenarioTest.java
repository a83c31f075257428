package dev.georesolver.functional;

import dev.georesolver.state.rules.AuditChain;
import dev.georesolver.cli.Cli;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.LogCapture;
import dev.georesolver.support.RedisServer;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpRequest;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.DriverManager;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The audit trail end to end: a failing primary's fallback activations land in each tenant's own
 * partition, {@code GET /v1/audit} pages them (JSON and NDJSON) to their tenant and to admins only,
 * {@code audit verify} passes on the store and fails at a record altered in it, {@code level: all}
 * records every answer, and a store outage loses nothing uncounted.
 */
@ExtendWith(VertxExtension.class)
class AuditScenarioTest {

  private static final String ACME = "tk-acme-audit-1";
  private static final String BETA = "tk-beta-audit-2";
  private static final String ROOT = "tk-root-audit-3";
  private static final Map<String, String> ENV = Map.of("ACME_KEY", ACME, "BETA_KEY", BETA, "ROOT_KEY", ROOT);
  private static final String TENANTS = """
      tenants:
        - { id: "acme", keys: [ { env: "ACME_KEY" } ] }
        - { id: "beta", keys: [ { env: "BETA_KEY" } ] }
        - { id: "root", keys: [ { env: "ROOT_KEY" } ], admin: true }
      """;

  private static String failingPrimary(Vertx vertx, String extra) {
    FakeProvider down = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
    FakeProvider up = FakeProvider.start(vertx, json(generic(-0.1276, 51.5033, "EPSG:4326", 0.8))).await();
    return manifest().budget(3000)
        .tier("primary", "generic", down.url(), "exact", 800, "typical_ms: 20")
        .tier("fallback", "generic", up.url(), "exact", 800, "typical_ms: 20")
        .extra(extra).yaml();
  }

  private static HttpResponse<Buffer> get(Stack s, String path, String key, String accept) {
    HttpRequest<Buffer> r = s.client.get(s.port, "localhost", path);
    if (key != null) {
      r.putHeader("Authorization", "Bearer " + key);
    }
    if (accept != null) {
      r.putHeader("Accept", accept);
    }
    return r.send().await();
  }

  private static JsonArray records(Stack s, String path, String key) {
    HttpResponse<Buffer> r = get(s, path, key, null);
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonArray("records");
  }

  /** Waits until the partition holds {@code n} records: they are written in batches after the answers. */
  private static JsonArray awaitRecords(Stack s, String key, int n) throws InterruptedException {
    JsonArray rs = new JsonArray();
    for (int i = 0; i < 200 && rs.size() < n; i++) {
      Thread.sleep(50);
      rs = records(s, "/v1/audit?limit=1000", key);
    }
    assertThat(rs).hasSize(n);
    return rs;
  }

  private static void assertProblem(HttpResponse<Buffer> r, int status, String field) {
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(status);
    assertThat(r.getHeader("content-type")).isEqualTo("application/problem+json");
    if (field != null) {
      assertThat(r.bodyAsString()).contains("\"" + field + "\"");
    }
  }

  private static String[] cli(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      status = Cli.run(args, Map.of(), o, e);
    }
    return new String[] {Integer.toString(status), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8)};
  }

  @Test
  @DisplayName("fallback activations land in each tenant's partition, read by it and admins only, paged, as JSON or NDJSON; verify passes, then fails at an altered record")
  void partitionsPagingIsolationAndVerify(Vertx vertx) throws Exception {
    Path state = TestState.freshFile();
    String yaml = failingPrimary(vertx, TENANTS + "state: { path: \"" + state + "\" }\naudit: { flush_interval_ms: 20 }");
    Stack s = Stack.deploy(vertx, yaml, ENV, Clock.systemUTC(), Map.of()).await();
    for (int i = 0; i < 5; i++) {
      assertThat(get(s, "/v1/geocode?q=" + i + "+Acme+Road", ACME, null).bodyAsJsonObject().getBoolean("degraded")).isTrue();
    }
    for (int i = 0; i < 3; i++) {
      get(s, "/v1/geocode?q=" + i + "+Beta+Street", BETA, null);
    }

    JsonArray acme = awaitRecords(s, ACME, 5);
    awaitRecords(s, BETA, 3);
    String prev = AuditChain.GENESIS;
    for (int i = 0; i < 5; i++) {
      JsonObject r = acme.getJsonObject(i);
      assertThat(r.getString("tenant")).isEqualTo("acme");
      assertThat(r.getString("kind")).isEqualTo("degraded");
      assertThat(r.getString("resolution_source")).isEqualTo("fallback");
      assertThat(r.getLong("seq")).isEqualTo(i + 1);
      assertThat(r.getString("prev_hash")).isEqualTo(prev);
      assertThat(r.getJsonArray("attempts").getJsonObject(0).getString("tier")).isEqualTo("primary");
      prev = r.getString("hash");
    }
    assertThat(acme.encode()).doesNotContain("Beta").doesNotContain(ACME);

    // Tenant isolation and admin access.
    assertProblem(get(s, "/v1/audit?tenant=beta", ACME, null), 403, null);
    assertProblem(get(s, "/v1/audit", null, null), 401, null);
    assertThat(records(s, "/v1/audit?tenant=beta", ROOT)).hasSize(3).allSatisfy(o -> assertThat(((JsonObject) o).getString("tenant")).isEqualTo("beta"));
    assertThat(records(s, "/v1/audit", ROOT)).as("the admin's own partition").isEmpty();

    // Paging: next is the cursor to pass as after; an empty page keeps it.
    JsonObject p1 = get(s, "/v1/audit?limit=2", ACME, null).bodyAsJsonObject();
    assertThat(p1.getJsonArray("records")).hasSize(2);
    assertThat(p1.getString("next")).isEqualTo("2");
    JsonObject p2 = get(s, "/v1/audit?limit=2&after=" + p1.getString("next"), ACME, null).bodyAsJsonObject();
    assertThat(p2.getJsonArray("records").getJsonObject(0).getLong("seq")).isEqualTo(3);
    JsonObject end = get(s, "/v1/audit?after=5", ACME, null).bodyAsJsonObject();
    assertThat(end.getJsonArray("records")).isEmpty();
    assertThat(end.getString("next")).isEqualTo("5");

    // Time bounds: ISO-8601 or epoch milliseconds, from inclusive, to exclusive.
    long ts3 = acme.getJsonObject(2).getLong("ts_ms");
    long ts4 = acme.getJsonObject(3).getLong("ts_ms");
    assertThat(records(s, "/v1/audit?from=" + Instant.ofEpochMilli(ts3), ACME)).extracting(o -> ((JsonObject) o).getLong("seq"))
        .allMatch(seq -> seq >= 3).contains(3L, 5L);
    assertThat(records(s, "/v1/audit?to=" + ts4, ACME)).extracting(o -> ((JsonObject) o).getLong("seq")).allMatch(seq -> seq <= 3);

    // NDJSON: one record a line, the cursor in a header.
    HttpResponse<Buffer> nd = get(s, "/v1/audit?limit=4", ACME, "application/x-ndjson");
    assertThat(nd.getHeader("content-type")).isEqualTo("application/x-ndjson");
    assertThat(nd.getHeader("X-Next-Cursor")).isEqualTo("4");
    List<String> lines = nd.bodyAsString().lines().toList();
    assertThat(lines).hasSize(4);
    assertThat(new JsonObject(lines.get(3)).getLong("seq")).isEqualTo(4);

    // Bad parameters: problem+json naming the field.
    assertProblem(get(s, "/v1/audit?limit=0", ACME, null), 400, "limit");
    assertProblem(get(s, "/v1/audit?from=yesterday", ACME, null), 400, "from");
    assertProblem(get(s, "/v1/audit?after=abc", ACME, null), 400, "after");
    assertProblem(get(s, "/v1/audit?from=2026-12-02T00:00:00Z&to=2026-12-01T00:00:00Z", ACME, null), 400, "to");
    assertProblem(get(s, "/v1/audit?tenant=NOT%20A%20TENANT", ROOT, null), 400, "tenant");

    assertThat(get(s, "/metrics", ROOT, null).bodyAsString()).contains("georesolver_audit_records_total{result=\"written\"} 8.0")
        .contains("georesolver_audit_records_total{result=\"dropped\"} 0.0");
    assertThat(get(s, "/manifest", ROOT, null).bodyAsJsonObject().getJsonObject("manifest").getJsonObject("audit").getString("level"))
        .isEqualTo("fallbacks");

    // audit verify on the running resolver's file; then one record altered behind the triggers' back.
    Path m = Files.writeString(TestState.freshDir().resolve("manifest.yaml"), yaml);
    String[] ok = cli("audit", "verify", "--manifest", m.toString());
    assertThat(ok[0]).as(String.join("\n", ok)).isEqualTo("0");
    assertThat(ok[1]).contains("  acme: 5 record(s), chain intact").contains("  beta: 3 record(s), chain intact")
        .contains("  root: 0 record(s), chain intact")
        .contains("audit verify: OK, 3 tenant(s), 8 record(s)");
    try (var c = DriverManager.getConnection("jdbc:sqlite:" + state); var st = c.createStatement()) {
      // The chain's entries are append-only; a database administrator drops the guard and rewrites one.
      st.execute("DROP TRIGGER t_logs_append_only");
      assertThat(st.executeUpdate("UPDATE t_logs SET body = replace(body, '\\\"fallback\\\"', '\\\"primary\\\"') "
          + "WHERE log = 'audit:acme/chain' AND seq = 2")).as("the record rewritten").isEqualTo(1);
    }
    String[] broken = cli("audit", "verify", "--manifest", m.toString());
    assertThat(broken[0]).as(String.join("\n", broken)).isEqualTo("1");
    assertThat(broken[1]).contains("  acme: BROKEN at seq 2 (id " + acme.getJsonObject(1).getString("id") + "): hash does not match");
    assertThat(broken[2]).contains("audit chain broken: tenant acme, seq 2, id " + acme.getJsonObject(1).getString("id"));
    assertThat(cli("audit", "verify", "--manifest", m.toString(), "--tenant", "beta")[0]).isEqualTo("0");
  }

  @Test
  @DisplayName("with level all every answer is recorded, replays too; without tenants in tenant public's partition")
  void levelAllRecordsEveryAnswer(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(4.9, 52.37, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest().tier("primary", "generic", p.url(), "exact", 800)
        .extra("audit: { level: all, flush_interval_ms: 20 }").yaml()).await();
    s.geocode("Damrak 1, Amsterdam").await();
    s.geocode("Damrak 2, Amsterdam").await();
    s.geocode("Damrak 1, Amsterdam").await();
    JsonArray rs = awaitRecords(s, null, 3);
    assertThat(rs).allSatisfy(o -> {
      JsonObject r = (JsonObject) o;
      assertThat(r.getString("kind")).isEqualTo("answer");
      assertThat(r.getString("tenant")).isEqualTo("public");
      assertThat(r.getString("resolution_source")).isEqualTo("primary");
    });
    assertThat(rs.getJsonObject(2).getValue("replay_age_s")).as("the replay is recorded as one").isNotNull();
  }

  @Test
  @DisplayName("records that cannot be written during a store outage are retried from the bounded buffer; what it cannot hold is counted and logged")
  void outageRetriesAndCountsDrops(Vertx vertx) throws Exception {
    try (RedisServer redis = RedisServer.start(); LogCapture logs = LogCapture.start()) {
      String yaml = failingPrimary(vertx, "state: { store: redis }\naudit: { flush_interval_ms: 20, batch_max: 2, buffer_max: 4 }");
      Stack s = Stack.deploy(vertx, yaml, Map.of(), Clock.systemUTC(), Map.of(), redis.url()).await();
      redis.kill();
      for (int i = 0; i < 8; i++) {
        assertThat(s.geocode(i + " Outage Lane").await().bodyAsJsonObject().getBoolean("degraded")).isTrue();
      }
      Thread.sleep(300);
      String during = get(s, "/metrics", ROOT, null).bodyAsString();
      assertThat(metric(during, "retried")).as(during).isPositive();
      redis.restart();

      long written = 0;
      long dropped = 0;
      // The eight answers' records, and the gap record that counts the dropped ones in the chain.
      for (int i = 0; i < 200 && written + dropped < 9; i++) {
        Thread.sleep(50);
        String m = get(s, "/metrics", ROOT, null).bodyAsString();
        written = (long) metric(m, "written");
        dropped = (long) metric(m, "dropped");
      }
      assertThat(written + dropped).as("every record written or counted as dropped, and one gap record").isEqualTo(9);
      assertThat(dropped).as("the buffer holds 4").isGreaterThanOrEqualTo(4);
      JsonArray trail = records(s, "/v1/audit?limit=100", null);
      assertThat(trail).hasSize((int) written);
      List<JsonObject> gaps = trail.stream().map(o -> (JsonObject) o).filter(r -> "gap".equals(r.getString("kind"))).toList();
      assertThat(gaps).as("the dropped records are said in the chain").hasSize(1);
      assertThat(gaps.get(0).getLong("count")).isEqualTo(dropped);
      assertThat(gaps.get(0).getString("cause")).isEqualTo("buffer_full");
      assertThat(logs.lines()).anyMatch(l -> l.contains("audit") && l.contains("buffer full"));
    }
  }

  private static double metric(String scrape, String result) {
    String prefix = "georesolver_audit_records_total{result=\"" + result + "\"} ";
    return scrape.lines().filter(l -> l.startsWith(prefix)).mapToDouble(l -> Double.parseDouble(l.substring(prefix.length())))
        .findFirst().orElse(-1);
  }
}
