package dev.georesolver.issues;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.ManifestFiles;
import dev.georesolver.support.Stack;
import dev.georesolver.support.TestState;
import dev.georesolver.config.KeyDigest;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** Issue 27, item 5: the sample rate changes by hot reload, applied live (the reload does not report {@code shadow} as needing a restart). */
@ExtendWith(VertxExtension.class)
class Issue27ShadowReloadTest {

  private static final String ROOT = "tk-root-27-reload";
  private final Path state = TestState.freshFile();

  private String yaml(FakeProvider primary, FakeProvider second, double rate) {
    return manifest().budget(6000).maxBudget(10_000)
        .tier("primary", "generic", primary.url(), "exact", 600, "typical_ms: 20")
        .tier("second", "generic", second.url(), "exact", 5000, "typical_ms: 20")
        .extra("state: { path: \"" + state + "\" }\n"
            + "tenants:\n"
            + "  - { id: \"root\", keys: [ { sha256: \"" + HexFormat.of().formatHex(KeyDigest.sha256(ROOT)) + "\" } ], admin: true }\n"
            + "shadow: { sample_rate: " + rate + ", max_per_s: 1000 }\n").yaml();
  }

  private static HttpResponse<Buffer> get(Stack s, String path) {
    return s.client.get(s.port, "localhost", path).putHeader("Authorization", "Bearer " + ROOT).send().await();
  }

  @Test
  @DisplayName("sampling off, then reloaded to 1.0: applied, nothing needs a restart, and every later answer is sampled")
  void theRateChangesByReload(Vertx vertx) throws Exception {
    FakeProvider primary = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.95))).await();
    FakeProvider second = FakeProvider.start(vertx, json(generic(2.351, 48.85, "EPSG:4326", 0.9))).await();
    Path f = Files.createTempFile("georesolver-27-reload", ".yaml");
    ManifestFiles.replace(f, yaml(primary, second, 0.0));
    Stack s = Stack.deployFile(vertx, f, Map.of("GEO_RELOAD_POLL_MS", "0"), Clock.systemUTC(), Map.of()).await();
    for (int i = 0; i < 5; i++) {
      assertThat(get(s, "/v1/geocode?q=" + (i + 1) + "%20Rue%20Oberkampf").statusCode()).isEqualTo(200);
    }
    Thread.sleep(300);
    assertThat(second.count()).as("sampling off").isZero();

    ManifestFiles.replace(f, yaml(primary, second, 1.0));
    HttpResponse<Buffer> r = s.client.post(s.port, "localhost", "/admin/reload").putHeader("Authorization", "Bearer " + ROOT)
        .putHeader("X-Requested-By", "test").send().await();
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    JsonObject last = r.bodyAsJsonObject().getJsonObject("last_attempt");
    assertThat(last.getString("outcome")).as(last.encode()).isEqualTo("applied");
    assertThat(last.getJsonArray("needs_restart").encode()).as(last.encode()).doesNotContain("shadow");

    for (int i = 0; i < 5; i++) {
      assertThat(get(s, "/v1/geocode?q=" + (i + 11) + "%20Rue%20Oberkampf").statusCode()).isEqualTo(200);
    }
    for (int i = 0; i < 200 && second.count() < 5; i++) {
      Thread.sleep(25);
    }
    assertThat(second.count()).as("every answer after the reload is sampled").isEqualTo(5);
  }
}
