package dev.georesolver.functional;

import dev.georesolver.support.FakeClock;
import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.support.ManifestFiles;
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

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Hot reload end to end over HTTP: a reload adds, removes and changes tiers while kept tiers keep
 * their breaker and forced states carry over; an invalid file, or one that needs a restart, keeps
 * the old revision serving and says why in the answer, {@code /manifest} and {@code /health/ready};
 * the file watch applies an edit made by rename; {@code POST /admin/reload} needs the admin key once
 * tenants exist.
 */
@ExtendWith(VertxExtension.class)
class ReloadScenarioTest {

  private final FakeClock clock = new FakeClock();
  private final Path state = TestState.freshFile();

  /** A manifest with this test's one state file (every revision must keep it). */
  private ManifestBuilder m() {
    return manifest().extra("state: { path: \"" + state + "\" }");
  }

  private static Path file(String yaml) throws IOException {
    Path f = TestState.freshDir().resolve("manifest.yaml");
    Files.writeString(f, yaml);
    return f;
  }

  private static HttpResponse<Buffer> post(Stack s, String path, String bearer) {
    HttpRequest<Buffer> r = s.client.post(s.port, "localhost", path).putHeader("X-Requested-By", "test");
    if (bearer != null) {
      r.putHeader("Authorization", "Bearer " + bearer);
    }
    return r.send().await();
  }

  private static JsonObject tier(JsonObject health, String name) {
    return health.getJsonArray("tiers").stream().map(JsonObject.class::cast).filter(t -> name.equals(t.getString("tier")))
        .findFirst().orElse(null);
  }

  private static List<String> outcomes(JsonObject answer) {
    return answer.getJsonArray("attempts").stream().map(JsonObject.class::cast)
        .map(a -> a.getString("tier") + ":" + a.getString("outcome")).toList();
  }

  @Test
  @DisplayName("a reload adds a tier, removes one, changes one's timeout (its forced state carried over) and keeps one with its open breaker")
  void addRemoveChangeKeep(Vertx vertx) throws Exception {
    FakeProvider a = FakeProvider.start(vertx, FakeProvider.status(503, "down")).await();
    FakeProvider b = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.9))).await();
    FakeProvider c = FakeProvider.start(vertx, json(generic(3, 3, "EPSG:4326", 0.8))).await();
    FakeProvider d = FakeProvider.start(vertx, json(generic(4, 4, "EPSG:4326", 0.7))).await();
    String breaker = "circuit_breaker: { failure_threshold: 1, half_open_timeout_ms: 60000, success_threshold: 1 }";
    Path f = file(m()
        .tier("a", "generic", a.url(), "exact", 500, breaker)
        .tier("b", "generic", b.url(), "exact", 500)
        .tier("c", "generic", c.url(), "open_data", 500)
        .yaml());
    Stack s = Stack.deployFile(vertx, f, Map.of("MANIFEST_GIT_SHA", "abc1234", "GEO_RELOAD_POLL_MS", "0"), clock, Map.of()).await();
    String before = s.manifest.revision();
    assertThat(before).endsWith("-gabc1234");

    JsonObject first = s.geocode("1 Open Street").await().bodyAsJsonObject();
    assertThat(first.getString("resolution_source")).isEqualTo("b");
    assertThat(post(s, "/admin/tiers/b/force-open", null).statusCode()).isEqualTo(200);
    assertThat(s.geocode("2 Forced Street").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("c");
    assertThat(a.count()).as("a's breaker opened on its first failure").isEqualTo(1);

    ManifestFiles.replace(f, m()
        .tier("a", "generic", a.url(), "exact", 500, breaker)
        .tier("b", "generic", b.url(), "exact", 700)
        .tier("d", "generic", d.url(), "open_data", 500)
        .yaml());
    HttpResponse<Buffer> reloaded = post(s, "/admin/reload?git_sha=def5678", null);
    assertThat(reloaded.statusCode()).as(reloaded.bodyAsString()).isEqualTo(200);
    JsonObject status = reloaded.bodyAsJsonObject();
    String after = status.getString("serving_revision");
    assertThat(after).isNotEqualTo(before).endsWith("-gdef5678");
    assertThat(status.getBoolean("ok")).isTrue();
    assertThat(status.getInteger("applied")).isEqualTo(1);
    JsonObject last = status.getJsonObject("last_attempt");
    assertThat(last.getString("outcome")).isEqualTo("applied");
    assertThat(last.getString("trigger")).isEqualTo("http");
    assertThat(last.getJsonObject("tiers").encode())
        .isEqualTo("{\"kept\":[\"a\"],\"changed\":[\"b\"],\"added\":[\"d\"],\"removed\":[\"c\"]}");

    JsonObject third = s.geocode("3 Reloaded Street").await().bodyAsJsonObject();
    assertThat(third.getString("manifest_revision")).isEqualTo(after);
    assertThat(third.getString("resolution_source")).isEqualTo("d");
    assertThat(outcomes(third)).containsExactly("a:skipped_breaker_open", "b:skipped_breaker_open", "d:hit");
    assertThat(a.count()).as("the kept tier's breaker is still open: not called").isEqualTo(1);
    assertThat(c.count()).isEqualTo(1);

    JsonObject health = s.get("/health/ready").await().bodyAsJsonObject();
    assertThat(health.getString("manifest_revision")).isEqualTo(after);
    assertThat(tier(health, "a").getString("state")).isEqualTo("open");
    assertThat(tier(health, "b").getString("state")).as("the drill survives the redeploy").isEqualTo("forced_open");
    assertThat(tier(health, "d").getString("state")).isEqualTo("closed");
    assertThat(tier(health, "c")).isNull();
    assertThat(post(s, "/admin/tiers/c/force-open", null).statusCode()).as("the removed tier is undeployed").isEqualTo(404);

    JsonObject manifest = s.get("/manifest").await().bodyAsJsonObject();
    assertThat(manifest.getString("revision")).isEqualTo(after);
    assertThat(manifest.getJsonArray("enabled_tiers").getList()).containsExactly("a", "b", "d");
    JsonArray tiers = manifest.getJsonObject("manifest").getJsonObject("routing").getJsonArray("tiers");
    assertThat(tiers.getJsonObject(1).getLong("timeout_ms")).isEqualTo(700);
    assertThat(manifest.getJsonObject("reload").getJsonObject("last_attempt").getString("outcome")).isEqualTo("applied");

    assertThat(post(s, "/admin/tiers/b/release", null).bodyAsJsonObject().getString("state")).isEqualTo("closed");
    assertThat(s.geocode("4 Released Street").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("b");
    HttpResponse<Buffer> again = post(s, "/admin/reload", null);
    assertThat(again.bodyAsJsonObject().getJsonObject("last_attempt").getString("outcome"))
        .as("the file is the revision serving (the git SHA given stays)").isEqualTo("unchanged");
  }

  @Test
  @DisplayName("an invalid file keeps the old revision serving and says why in the answer, /manifest and /health/ready (still ready)")
  void invalidFileKeepsOldRevision(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Path f = file(m().tier("p", "generic", p.url(), "exact", 500).yaml());
    Stack s = Stack.deployFile(vertx, f, Map.of("GEO_RELOAD_POLL_MS", "0"), clock, Map.of()).await();
    String serving = s.manifest.revision();

    ManifestFiles.replace(f, m().tier("p", "generic", p.url(), "exact", -5).yaml());
    HttpResponse<Buffer> refused = post(s, "/admin/reload", null);
    assertThat(refused.statusCode()).isEqualTo(422);
    assertThat(refused.getHeader("content-type")).isEqualTo("application/problem+json");
    JsonObject problem = refused.bodyAsJsonObject();
    assertThat(problem.getString("type")).endsWith("/reload_refused");
    assertThat(problem.getString("detail")).startsWith("revision " + serving + " keeps serving: ").contains("routing.tiers[0].timeout_ms");

    JsonObject reload = s.get("/manifest").await().bodyAsJsonObject().getJsonObject("reload");
    assertThat(reload.getBoolean("ok")).isFalse();
    assertThat(reload.getString("serving_revision")).isEqualTo(serving);
    assertThat(reload.getInteger("refused")).isEqualTo(1);
    assertThat(reload.getJsonObject("last_attempt").getString("outcome")).isEqualTo("refused");
    assertThat(reload.getJsonObject("last_attempt").getJsonArray("problems").getList()).singleElement().asString()
        .startsWith("routing.tiers[0].timeout_ms");
    assertThat(reload.getJsonObject("last_attempt").getString("candidate_revision")).isNotEqualTo(serving);

    HttpResponse<Buffer> ready = s.get("/health/ready").await();
    assertThat(ready.statusCode()).as("the old revision serves: still ready").isEqualTo(200);
    assertThat(ready.bodyAsJsonObject().getString("manifest_revision")).isEqualTo(serving);
    assertThat(ready.bodyAsJsonObject().getJsonObject("reload").getBoolean("ok")).isFalse();
    assertThat(s.geocode("1 Still Street").await().bodyAsJsonObject().getString("manifest_revision")).isEqualTo(serving);

    ManifestFiles.replace(f, "routing: [ not a mapping");
    HttpResponse<Buffer> yaml = post(s, "/admin/reload", null);
    assertThat(yaml.statusCode()).isEqualTo(422);
    assertThat(yaml.bodyAsJsonObject().getString("detail")).contains("routing");

    Files.delete(f);
    assertThat(post(s, "/admin/reload", null).bodyAsJsonObject().getString("detail")).contains("no such file");
  }

  @Test
  @DisplayName("a file that changes what only a restart applies is refused, naming each setting")
  void needsRestart(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    Path f = file(m().tier("p", "generic", p.url(), "exact", 500).yaml());
    Stack s = Stack.deployFile(vertx, f, Map.of("GEO_RELOAD_POLL_MS", "0"), clock, Map.of()).await();

    ManifestFiles.replace(f, m().maxBudget(30_000).extra("server: { max_connections: 64 }").tier("p", "generic", p.url(), "exact", 900).yaml());
    HttpResponse<Buffer> refused = post(s, "/admin/reload", null);
    assertThat(refused.statusCode()).isEqualTo(422);
    JsonArray restart = refused.bodyAsJsonObject().getJsonObject("reload").getJsonObject("last_attempt").getJsonArray("needs_restart");
    assertThat(restart.getList()).hasSize(2).anySatisfy(n -> assertThat((String) n).startsWith("server.max_connections: "))
        .anySatisfy(n -> assertThat((String) n).startsWith("routing.max_budget_ms: "));
    assertThat(s.get("/manifest").await().bodyAsJsonObject().getString("revision")).isEqualTo(s.manifest.revision());
  }

  @Test
  @DisplayName("the file watch applies an edit made by rename, and reports an invalid one once until it is fixed")
  void fileWatch(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    FakeProvider q = FakeProvider.start(vertx, json(generic(2, 2, "EPSG:4326", 0.8))).await();
    Path f = file(m().tier("p", "generic", p.url(), "exact", 500).yaml());
    Stack s = Stack.deployFile(vertx, f, Map.of("GEO_RELOAD_POLL_MS", "100"), clock, Map.of()).await();

    ManifestFiles.replace(f, m().tier("p", "generic", p.url(), "exact", 500).yaml().replace("timeout_ms: 500", "timeout_ms: nope"));
    JsonObject refused = manifestUntil(s, r -> "refused".equals(outcome(r)));
    assertThat(refused.getJsonObject("reload").getJsonObject("last_attempt").getString("trigger")).isEqualTo("file");
    assertThat(refused.getString("revision")).isEqualTo(s.manifest.revision());

    ManifestFiles.replace(f, m().tier("q", "generic", q.url(), "exact", 500).tier("p", "generic", p.url(), "exact", 500).yaml());
    JsonObject applied = manifestUntil(s, r -> "applied".equals(outcome(r)));
    assertThat(applied.getJsonArray("enabled_tiers").getList()).as(applied.encode()).containsExactly("q", "p");
    assertThat(applied.getJsonObject("reload").getInteger("refused")).as("the invalid file was reported once").isEqualTo(1);
    JsonObject answer = s.geocode("1 Watched Street").await().bodyAsJsonObject();
    assertThat(answer.getString("resolution_source")).isEqualTo("q");
    assertThat(answer.getString("manifest_revision")).isEqualTo(applied.getString("revision"));
  }

  @Test
  @DisplayName("POST /admin/reload needs an admin key once tenants exist")
  void adminOnly(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(1, 1, "EPSG:4326", 0.9))).await();
    String tenants = """
        tenants:
          - { id: "acme", keys: [ { env: "ACME_KEY" } ] }
          - { id: "root", keys: [ { env: "ROOT_KEY" } ], admin: true }
        """;
    Path f = file(m().tier("p", "generic", p.url(), "exact", 500).extra(tenants).yaml());
    Stack s = Stack.deployFile(vertx, f, Map.of("ACME_KEY", "tk-acme-1", "ROOT_KEY", "tk-root-1", "GEO_RELOAD_POLL_MS", "0"),
        clock, Map.of()).await();
    assertThat(post(s, "/admin/reload", null).statusCode()).isEqualTo(401);
    assertThat(post(s, "/admin/reload", "tk-acme-1").statusCode()).isEqualTo(403);
    HttpResponse<Buffer> ok = post(s, "/admin/reload", "tk-root-1");
    assertThat(ok.statusCode()).isEqualTo(200);
    assertThat(ok.bodyAsJsonObject().getJsonObject("last_attempt").getString("outcome")).isEqualTo("unchanged");
  }

  private static String outcome(JsonObject manifest) {
    JsonObject last = manifest.getJsonObject("reload").getJsonObject("last_attempt");
    return last == null ? null : last.getString("outcome");
  }

  /** {@code /manifest} once it satisfies {@code done}; fails after 10 s (the watch looks every 100 ms). */
  private static JsonObject manifestUntil(Stack s, Predicate<JsonObject> done) throws InterruptedException {
    long until = System.nanoTime() + 10_000_000_000L;
    JsonObject m = null;
    while (System.nanoTime() < until) {
      m = s.get("/manifest").await().bodyAsJsonObject();
      if (done.test(m)) {
        return m;
      }
      Thread.sleep(50);
    }
    throw new AssertionError("not seen in 10 s; last /manifest reload: " + (m == null ? null : m.getJsonObject("reload")));
  }
}
