package dev.georesolver.issues;

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
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** A reload that turns on audit.level: all records the next plain answer, and one that changes a start-only audit setting is refused and named, /manifest showing the running value. */
@ExtendWith(VertxExtension.class)
class Issue23ReloadAppliesOrNeedsRestartTest {

  private final Path state = TestState.freshFile();

  private ManifestBuilder m(String url, String audit) {
    return manifest().extra("state: { path: \"" + state + "\" }\naudit: " + audit).budget(8000)
        .tier("primary", "generic", url, "exact", 5000);
  }

  private static JsonArray records(Stack s) {
    HttpResponse<Buffer> r = s.get("/v1/audit?limit=100").await();
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    return r.bodyAsJsonObject().getJsonArray("records");
  }

  @Test
  @DisplayName("audit.level: all by reload records the next non-fallback answer; audit.flush_interval_ms by reload is refused as needing a restart")
  void levelIsLiveAndTheRestIsNamed(Vertx vertx) throws Exception {
    FakeProvider p = FakeProvider.start(vertx, json(generic(4.9, 52.37, "EPSG:4326", 0.9))).await();
    Path f = TestState.freshDir().resolve("manifest.yaml");
    Files.writeString(f, m(p.url(), "{ flush_interval_ms: 20 }").yaml());
    Stack s = Stack.deployFile(vertx, f, Map.of("GEO_RELOAD_POLL_MS", "0"), new FakeClock(), Map.of()).await();
    assertThat(s.geocode("Damrak 1, Amsterdam").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("primary");

    ManifestFiles.replace(f, m(p.url(), "{ level: all, flush_interval_ms: 20 }").yaml());
    HttpResponse<Buffer> applied = s.client.post(s.port, "localhost", "/admin/reload").putHeader("X-Requested-By", "test").send().await();
    assertThat(applied.statusCode()).as(applied.bodyAsString()).isEqualTo(200);
    JsonObject last = applied.bodyAsJsonObject().getJsonObject("last_attempt");
    assertThat(last.getString("outcome")).isEqualTo("applied");

    assertThat(s.geocode("Damrak 2, Amsterdam").await().bodyAsJsonObject().getString("resolution_source")).isEqualTo("primary");
    JsonArray rs = new JsonArray();
    for (int i = 0; i < 200 && rs.isEmpty(); i++) {
      Thread.sleep(50);
      rs = records(s);
    }
    assertThat(rs).as("the answer after the reload is recorded; the one before, at level fallbacks, is not").hasSize(1);
    assertThat(rs.getJsonObject(0).getString("kind")).isEqualTo("answer");
    assertThat(rs.getJsonObject(0).getString("resolution_source")).isEqualTo("primary");
    assertThat(last.getJsonArray("applied_settings").getList()).containsExactly("audit.level");
    assertThat(last.getJsonArray("needs_restart").getList()).isEmpty();

    ManifestFiles.replace(f, m(p.url(), "{ level: all, flush_interval_ms: 500 }").yaml());
    HttpResponse<Buffer> refused = s.client.post(s.port, "localhost", "/admin/reload").putHeader("X-Requested-By", "test").send().await();
    assertThat(refused.statusCode()).as(refused.bodyAsString()).isEqualTo(422);
    assertThat(refused.bodyAsJsonObject().getJsonObject("reload").getJsonObject("last_attempt").getJsonArray("needs_restart").getList())
        .singleElement().asString().startsWith("audit.flush_interval_ms: ");

    JsonObject manifest = s.get("/manifest").await().bodyAsJsonObject();
    JsonObject audit = manifest.getJsonObject("manifest").getJsonObject("audit");
    assertThat(audit.getString("level")).isEqualTo("all");
    assertThat(audit.getLong("flush_interval_ms")).as("the running value, not the file's").isEqualTo(20);
    assertThat(manifest.getJsonArray("pending_restart").getList()).singleElement().asString().startsWith("audit.flush_interval_ms: ");
  }
}
