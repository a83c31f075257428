package dev.georesolver.config;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code GET /manifest}: the effective configuration, defaults filled in and never a credential, beside the revision. */
class ManifestDescribeTest {

  @Test
  @DisplayName("beside the revision, the effective configuration lists every field with its default filled in")
  void shouldFillInEveryDefault() throws Exception {
    Manifest m = manifest().tier("primary", "generic", "http://geo.example", "exact", 1200).build();

    JsonObject d = m.describe();
    assertThat(d.fieldNames()).containsExactly("revision", "sha256", "enabled_tiers", "disabled_tiers", "manifest");
    assertThat(d.getString("revision")).isEqualTo(m.revision());
    assertThat(d.getString("sha256")).isEqualTo(m.sha256());
    JsonObject effective = d.getJsonObject("manifest");
    assertThat(effective.fieldNames()).containsExactly("routing", "intents", "default_intent", "crs_definitions", "tenants", "server",
        "state", "reconcile", "corrections", "audit", "batch", "shadow");
    assertThat(effective.getValue("tenants")).as("no tenants: open access").isNull();
    assertThat(effective.getJsonObject("audit").encode()).isEqualTo("{\"level\":\"fallbacks\",\"retention_days\":2555,"
        + "\"retention_interval_ms\":3600000,\"flush_interval_ms\":100,\"batch_max\":500,\"buffer_max\":50000,"
        + "\"key_env\":\"GEO_AUDIT_KEY\",\"key_file\":null}");
    JsonObject idem = effective.getJsonObject("routing").getJsonObject("idempotency");
    assertThat(idem.getString("key_strategy")).isEqualTo("sha256(normalized_address + bounding_box)");
    assertThat(idem.getLong("command_timeout_ms")).isEqualTo(100L);
    assertThat(idem.getLong("index_ttl_seconds")).isEqualTo(2_592_000L);
    JsonObject tier = effective.getJsonObject("routing").getJsonArray("tiers").getJsonObject(0);
    assertThat(tier.getLong("typical_ms")).as("timeout_ms / 2").isEqualTo(600L);
    assertThat(tier.getInteger("retry_budget")).isZero();
    assertThat(tier.getLong("retry_backoff_ms")).isEqualTo(50L);
    assertThat(tier.getString("region")).isEqualTo("global");
    assertThat(tier.getString("schema_validation")).isEqualTo("strict");
    assertThat(tier.getInteger("pool_size")).isEqualTo(64);
    assertThat(tier.getJsonObject("circuit_breaker").encode())
        .isEqualTo("{\"failure_threshold\":5,\"half_open_timeout_ms\":30000,\"success_threshold\":3}");
    assertThat(tier.containsKey("credential")).isTrue();
    assertThat(tier.getValue("credential")).isNull();
    assertThat(effective.getJsonObject("intents").fieldNames()).containsExactly("describe", "measure", "contain");
    assertThat(effective.getJsonObject("intents").getJsonObject("contain").getJsonArray("claims")).containsExactly("exact");
    assertThat(effective.getJsonObject("intents").getJsonObject("describe").getJsonArray("claims"))
        .as("no claims means every claim").containsExactly("exact", "open_data", "cached", "locality");
    assertThat(effective.getString("default_intent")).isEqualTo("describe");
  }

  @Test
  @DisplayName("a credential is named by its variable or file, never shown; credential-like headers and URL parts are redacted")
  void shouldNeverShowACredential(@TempDir Path dir) throws Exception {
    Path keyFile = Files.writeString(dir.resolve("key"), "file-secret-5a1e\n");
    Manifest m = manifest()
        .tier("alpha", "generic", "https://user:pa55word@geo.example/v1?region=eu&api_key=url-secret-77", "exact", 800,
            "credential: { header: X-Api-Key, env: ALPHA_KEY }",
            "headers: { User-Agent: georesolver-test, Authorization: 'Bearer header-secret-9c', X-Auth-Token: tok-secret-1 }")
        .tier("bravo", "generic", "http://osm.example", "open_data", 800, "credential: { query_param: key, file: '" + keyFile + "' }")
        .build(Map.of("ALPHA_KEY", "env-secret-3f9d"));

    String served = m.describe().encode();
    assertThat(served).doesNotContain("env-secret-3f9d", "file-secret-5a1e", "pa55word", "url-secret-77", "header-secret-9c",
        "tok-secret-1");
    JsonObject alpha = m.describe().getJsonObject("manifest").getJsonObject("routing").getJsonArray("tiers").getJsonObject(0);
    assertThat(alpha.getJsonObject("credential").getString("env")).isEqualTo("ALPHA_KEY");
    assertThat(alpha.getJsonObject("credential").getString("header")).isEqualTo("X-Api-Key");
    assertThat(alpha.getString("endpoint")).isEqualTo("https://[redacted]@geo.example/v1?region=eu&api_key=[redacted]");
    assertThat(alpha.getJsonObject("headers").encode())
        .isEqualTo("{\"User-Agent\":\"georesolver-test\",\"Authorization\":\"[redacted]\",\"X-Auth-Token\":\"[redacted]\"}");
    assertThat(served).contains(keyFile.toString());
    assertThat(m.toString()).doesNotContain("env-secret-3f9d");
    assertThat(m.routing().tiers().get(0).toString()).doesNotContain("header-secret-9c", "url-secret-77");
    assertThat(m.routing().tiers().get(0).headers().get("Authorization")).as("redacted only when shown").isEqualTo("Bearer header-secret-9c");
  }

  @Test
  @DisplayName("the effective configuration is itself a manifest that means the same")
  void shouldReadBackToTheSameConfiguration() throws Exception {
    Manifest m = ManifestLoader.load(Path.of("conf/manifest.yaml"), Map.of("GEO_GOOGLE_API_KEY", "k"));

    Manifest again = ManifestLoader.parse(m.describe().getJsonObject("manifest").encode(), Map.of("GEO_GOOGLE_API_KEY", "k"));

    assertThat(again.routing()).isEqualTo(m.routing());
    assertThat(again.defaultIntent()).isEqualTo(m.defaultIntent());
    assertThat(again.describe().getJsonObject("manifest")).isEqualTo(m.describe().getJsonObject("manifest"));
  }

  @Test
  @DisplayName("tiers enabled and disabled, with why, beside the configuration")
  void shouldListEnabledAndDisabledTiers() throws Exception {
    Manifest m = manifest()
        .tier("paid", "generic", "http://geo.example", "exact", 800, "credential: { header: X-Key, env: PAID_KEY }")
        .tier("osm", "generic", "http://osm.example", "open_data", 800)
        .build();

    assertThat(m.describe().getJsonArray("enabled_tiers")).containsExactly("osm");
    assertThat(m.describe().getJsonObject("disabled_tiers").getMap())
        .containsExactly(Map.entry("paid", "credential environment variable PAID_KEY is unset"));
  }
}
