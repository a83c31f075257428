package dev.georesolver.functional;

import dev.georesolver.support.FakeProvider;
import dev.georesolver.support.Stack;
import io.vertx.core.Vertx;
import io.vertx.core.json.JsonObject;
import io.vertx.junit5.VertxExtension;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static dev.georesolver.support.FakeProvider.generic;
import static dev.georesolver.support.FakeProvider.json;
import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** The manifest's {@code server:} and {@code routing.margins} blocks reach the parts that apply them. */
@ExtendWith(VertxExtension.class)
class ManifestLimitsScenarioTest {

  @Test
  @DisplayName("server.max_body_bytes from the manifest bounds a POST body: over it is a 413 problem")
  void bodyLimitFromManifest(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(4.35, 50.85, "EPSG:4326", 0.9))).await();
    Stack s = Stack.deploy(vertx, manifest()
        .tier("primary", "generic", p.url(), "exact", 800)
        .extra("server: { max_body_bytes: 1024 }")
        .yaml()).await();

    var small = s.post("/v1/geocode", new JsonObject().put("q", "Grand Place, Brussels")).await();
    var large = s.post("/v1/geocode", new JsonObject().put("q", "Grand Place").put("pad", "x".repeat(2000))).await();

    assertThat(small.statusCode()).isEqualTo(200);
    assertThat(large.statusCode()).isEqualTo(413);
    assertThat(large.getHeader("content-type")).startsWith("application/problem+json");
  }

  @Test
  @DisplayName("routing.margins and server, given or defaulted, are in the effective configuration /manifest serves")
  void marginsInEffectiveManifest(Vertx vertx) {
    FakeProvider p = FakeProvider.start(vertx, json(generic(4.35, 50.85, "EPSG:4326", 0.9))).await();
    String yaml = manifest().tier("primary", "generic", p.url(), "exact", 800).yaml()
        .replace("  tiers:\n", "  margins: { ingress_grace_ms: 400 }\n  tiers:\n");
    Stack s = Stack.deploy(vertx, yaml).await();

    JsonObject effective = s.get("/manifest").await().bodyAsJsonObject().getJsonObject("manifest");
    JsonObject margins = effective.getJsonObject("routing").getJsonObject("margins");
    assertThat(margins.getLong("ingress_grace_ms")).isEqualTo(400);
    assertThat(margins.getLong("chain_reply_ms")).isEqualTo(5);
    assertThat(effective.getJsonObject("server").getLong("max_body_bytes")).isEqualTo(65_536);
  }
}
