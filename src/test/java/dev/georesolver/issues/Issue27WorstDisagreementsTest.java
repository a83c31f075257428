package dev.georesolver.issues;

import dev.georesolver.config.KeyDigest;
import dev.georesolver.support.FakeProvider;
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
import java.time.Clock;
import java.util.HexFormat;
import java.util.Map;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27, item 6: a tenant that allows it has its worst disagreements kept (address and both
 * answers), bounded in number, shown to it and to admins only; another tenant's are never kept, and
 * a reload that withdraws the permission forgets what was kept.
 */
@ExtendWith(VertxExtension.class)
class Issue27WorstDisagreementsTest {

  private static final String ROOT = "tk-root-27-worst";
  private static final String ACME = "tk-acme-27-worst";
  private static final String BETA = "tk-beta-27-worst";
  private final Path state = TestState.freshFile();

  private static String key(String k) {
    return HexFormat.of().formatHex(KeyDigest.sha256(k));
  }

  private String yaml(FakeProvider primary, FakeProvider second, boolean acmeKeeps) {
    return manifest().budget(6000).maxBudget(10_000)
        .tier("primary", "generic", primary.url(), "exact", 600, "typical_ms: 20")
        .tier("second", "generic", second.url(), "exact", 5000, "typical_ms: 20")
        .extra("state: { path: \"" + state + "\" }\n"
            + "tenants:\n"
            + "  - { id: \"root\", keys: [ { sha256: \"" + key(ROOT) + "\" } ], admin: true }\n"
            + "  - { id: \"acme\", keys: [ { sha256: \"" + key(ACME) + "\" } ]"
            + (acmeKeeps ? ", shadow_keep_worst: { count: 2, max_age_s: 3600, min_m: 250 }" : "") + " }\n"
            + "  - { id: \"beta\", keys: [ { sha256: \"" + key(BETA) + "\" } ] }\n"
            + "shadow: { sample_rate: 1.0, max_per_s: 1000 }\n").yaml();
  }

  private static HttpResponse<Buffer> get(Stack s, String key, String path) {
    return s.client.get(s.port, "localhost", path).putHeader("Authorization", "Bearer " + key).send().await();
  }

  @Test
  @DisplayName("acme sees its 2 worst (of 3) with the address; beta sees none and may not read acme's; an admin sees acme's; a reload withdrawing it forgets them")
  void keptBoundedAndShownOnlyToItsTenant(Vertx vertx) throws Exception {
    // 0.01 degrees of longitude at 48.85 N: about 730 m apart, over acme's 250 m.
    FakeProvider primary = FakeProvider.start(vertx, json(generic(2.35, 48.85, "EPSG:4326", 0.95))).await();
    FakeProvider second = FakeProvider.start(vertx, json(generic(2.36, 48.85, "EPSG:4326", 0.9))).await();
    Path f = Files.createTempFile("georesolver-27-worst", ".yaml");
    ManifestFiles.replace(f, yaml(primary, second, true));
    Stack s = Stack.deployFile(vertx, f, Map.of("GEO_RELOAD_POLL_MS", "0"), Clock.systemUTC(), Map.of()).await();
    for (int i = 1; i <= 3; i++) {
      assertThat(get(s, ACME, "/v1/geocode?q=" + i + "%20Rue%20Oberkampf").statusCode()).isEqualTo(200);
      assertThat(get(s, BETA, "/v1/geocode?q=" + i + "%20Rue%20de%20Rivoli").statusCode()).isEqualTo(200);
    }
    for (int i = 0; i < 200 && second.count() < 6; i++) {
      Thread.sleep(25);
    }
    assertThat(second.count()).as("every answer was sampled").isEqualTo(6);
    JsonArray acme = null;
    for (int i = 0; i < 100; i++) {
      acme = get(s, ACME, "/v1/shadow/worst").bodyAsJsonObject().getJsonObject("tenants").getJsonArray("acme");
      if (acme != null && acme.size() == 2) {
        break;
      }
      Thread.sleep(25);
    }
    assertThat(acme).as("acme's cases, bounded by its count of 2").hasSize(2);
    JsonObject c = acme.getJsonObject(0);
    assertThat(c.getString("query")).contains("Rue Oberkampf");
    assertThat(c.getDouble("distance_m")).isBetween(700.0, 760.0);
    assertThat(c.getJsonObject("served").getString("tier")).isEqualTo("primary");
    assertThat(c.getJsonObject("shadow").getDouble("lon")).isEqualTo(2.36);
    assertThat(c.getString("id")).matches("[0-9a-f]{32}");

    JsonObject beta = get(s, BETA, "/v1/shadow/worst").bodyAsJsonObject();
    assertThat(beta.getJsonObject("tenants").isEmpty()).as("beta allows nothing kept: %s", beta.encode()).isTrue();
    HttpResponse<Buffer> peek = get(s, BETA, "/v1/shadow/worst?tenant=acme");
    assertThat(peek.statusCode()).isEqualTo(403);
    assertThat(peek.bodyAsString()).doesNotContain("Oberkampf");
    JsonObject admin = get(s, ROOT, "/v1/shadow/worst").bodyAsJsonObject();
    assertThat(admin.getJsonObject("tenants").fieldNames()).containsExactly("acme");
    assertThat(admin.encode()).doesNotContain("Rivoli");
    assertThat(get(s, ROOT, "/v1/shadow").bodyAsString()).as("the aggregate view holds no address").doesNotContain("Oberkampf");

    ManifestFiles.replace(f, yaml(primary, second, false));
    HttpResponse<Buffer> r = s.client.post(s.port, "localhost", "/admin/reload").putHeader("Authorization", "Bearer " + ROOT)
        .putHeader("X-Requested-By", "test").send().await();
    assertThat(r.statusCode()).as(r.bodyAsString()).isEqualTo(200);
    assertThat(r.bodyAsJsonObject().getJsonObject("last_attempt").getString("outcome")).isEqualTo("applied");
    JsonObject after = get(s, ROOT, "/v1/shadow/worst").bodyAsJsonObject();
    assertThat(after.getJsonObject("tenants").isEmpty()).as("withdrawn: forgotten: %s", after.encode()).isTrue();
  }
}
