package dev.georesolver.config;

import dev.georesolver.support.ManifestBuilder;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** The {@code tenants:} block and {@code routing.region}: read, defaulted, checked with paths, keys read once and shown as references. */
class TenantsManifestTest {

  private static final String KEY = "tk-acme-31f9c0a7d2";
  private static final String TIERS = "  tiers:\n" + ManifestBuilder.tierEntry();

  private static String manifest(String tenants) {
    return "routing:\n" + TIERS + tenants;
  }

  private static String sha256(String s) throws Exception {
    return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8)));
  }

  private static List<String> problems(String yaml, Map<String, String> env) {
    ManifestException e = catchThrowableOfType(ManifestException.class, () -> ManifestLoader.parse(yaml, env));
    assertThat(e).as("the manifest should be refused:%n%s", yaml).isNotNull();
    return e.problems();
  }

  @Test
  @DisplayName("no tenants block: open access, no keys, routing.region global")
  void shouldBeOpenWithoutATenantsBlock() throws Exception {
    Manifest m = ManifestLoader.parse(manifest(""), Map.of());

    assertThat(m.tenantsConfigured()).isFalse();
    assertThat(m.tenants()).isEmpty();
    assertThat(m.routing().region()).isEqualTo("global");
    assertThat(m.describe().getJsonObject("manifest").getValue("tenants")).isNull();
  }

  @Test
  @DisplayName("a tenant with every field defaulted: residency none, every intent, burst from the rate, not admin")
  void shouldDefaultEveryOptionalField() throws Exception {
    Manifest m = ManifestLoader.parse(manifest("""
        tenants:
          - id: "acme"
            keys: [ { sha256: "%s" } ]
            rate_limit_per_s: 2.5
        """.formatted(sha256(KEY))), Map.of());

    TenantConfig t = m.tenants().get(0);
    assertThat(t.id()).isEqualTo("acme");
    assertThat(t.residency()).isEqualTo(TenantConfig.Residency.NONE);
    assertThat(t.strictRegion()).isNull();
    assertThat(t.intents()).isNull();
    assertThat(t.burst()).isEqualTo(3);
    assertThat(t.admin()).isFalse();
    assertThat(m.tenantKeys("acme")).hasSize(1);
    assertThat(m.tenantKeys("acme").get(0).matches(MessageDigest.getInstance("SHA-256").digest(KEY.getBytes(StandardCharsets.UTF_8))))
        .isTrue();
  }

  @Test
  @DisplayName("keys by reference are read once and kept as digests; /manifest shows references and hash prefixes only")
  void shouldReadReferencedKeysOnceAndShowOnlyReferences(@TempDir Path dir) throws Exception {
    Path file = Files.writeString(dir.resolve("beta.key"), "tk-beta-file-77aa\n");
    String hash = sha256("tk-written-0001");
    Manifest m = ManifestLoader.parse(manifest("""
        tenants:
          - id: "acme"
            keys: [ { sha256: "%s" }, { env: "ACME_KEY" } ]
            region: "eu"
            residency: "strict"
            intents: [describe]
            rate_limit_per_s: 100
            burst: 200
            admin: true
          - id: "beta"
            keys: [ { file: "%s" } ]
        """.formatted(hash.toUpperCase(), file)), Map.of("ACME_KEY", KEY));

    assertThat(m.tenantKeys("acme")).hasSize(2);
    assertThat(m.tenantKeys("acme").get(1).matches(KeyDigest.sha256(KEY))).isTrue();
    assertThat(m.tenantKeys("beta").get(0).matches(KeyDigest.sha256("tk-beta-file-77aa"))).isTrue();
    assertThat(m.tenants().get(0).strictRegion()).isEqualTo("eu");
    assertThat(m.tenants().get(0).intents()).isEqualTo(Set.of("describe"));
    String shown = m.describe().encode();
    JsonObject acme = m.describe().getJsonObject("manifest").getJsonArray("tenants").getJsonObject(0);
    assertThat(acme.getJsonArray("keys").getJsonObject(0).getString("sha256")).isEqualTo(hash.substring(0, 8) + "…");
    assertThat(acme.getJsonArray("keys").getJsonObject(1).getString("env")).isEqualTo("ACME_KEY");
    assertThat(shown).doesNotContain(KEY).doesNotContain("tk-beta-file-77aa").doesNotContain(hash).doesNotContain(hash.substring(0, 9));
    assertThat(m.toString() + m.tenants()).doesNotContain(KEY);
  }

  @Test
  @DisplayName("a key that cannot be read is left out with why, and the manifest still loads")
  void shouldLeaveOutAKeyThatCannotBeRead() throws Exception {
    Manifest m = ManifestLoader.parse(manifest("""
        tenants:
          - id: "acme"
            keys: [ { env: "ACME_KEY" }, { file: "/nonexistent/acme.key" } ]
        """), Map.of());

    assertThat(m.tenantKeys("acme")).isEmpty();
    assertThat(m.missingTenantKeys().get("acme")).containsExactly(
        "tenants[0].keys[0]: key environment variable ACME_KEY is unset",
        "tenants[0].keys[1]: key file /nonexistent/acme.key is not readable");
    assertThat(m.describe().getJsonObject("missing_tenant_keys").getJsonArray("acme")).hasSize(2);
  }

  @Test
  @DisplayName("every problem of a tenants block is listed with its path")
  void shouldListEveryProblemWithItsPath() {
    List<String> p = problems(manifest("""
        tenants:
          - id: "Acme Corp"
            keys: [ { sha256: "abc" }, { env: "A", file: "/x" }, {} ]
            residency: "strict"
            intents: [describe, guess, describe]
            rate_limit_per_s: -1
            admin: "yes"
          - id: "beta"
            keys: []
            region: "EU"
            residency: "sometimes"
            burst: 0
          - id: "beta"
            keys: [ { env: "B" } ]
            colour: "red"
        """), Map.of());

    assertThat(p).contains(
        "tenants[0].id must match [a-z0-9][a-z0-9_.-]{0,62}",
        "tenants[0].keys[0].sha256 must be 64 hex digits (the sha256 of the key)",
        "tenants[0].keys[1] needs exactly one of sha256, env or file",
        "tenants[0].keys[2] needs exactly one of sha256, env or file",
        "tenants[0].intents[2] 'describe' is a duplicate",
        "tenants[0].rate_limit_per_s must be >= 0 (0 means unlimited)",
        "tenants[0].admin must be true or false",
        "tenants[0].region is required when residency is strict",
        "tenants[1].keys must be a non-empty list",
        "tenants[1].region must match [a-z0-9][a-z0-9_.-]{0,62}",
        "tenants[1].residency must be none or strict",
        "tenants[1].burst must be > 0",
        "tenants[2].id 'beta' is a duplicate",
        "tenants[2].colour is not a known field");
    assertThat(p).noneMatch(s -> s.startsWith("tenants[0].keys[0] needs"));
  }

  @Test
  @DisplayName("a tenant may only name intents the manifest defines")
  void shouldRefuseAnUnknownIntent() {
    assertThat(problems(manifest("""
        tenants:
          - id: "acme"
            keys: [ { env: "A" } ]
            intents: [describe, guess]
        """), Map.of())).containsExactly("tenants[0].intents has unknown intent 'guess' (defined: describe, measure, contain)");
  }

  @Test
  @DisplayName("one key serving two tenants is refused: a request could not say which it is")
  void shouldRefuseAKeyOfTwoTenants() throws Exception {
    assertThat(problems(manifest("""
        tenants:
          - id: "acme"
            keys: [ { sha256: "%s" } ]
          - id: "beta"
            keys: [ { env: "BETA_KEY" } ]
        """.formatted(sha256(KEY))), Map.of("BETA_KEY", KEY)))
        .containsExactly("tenants[1].keys[0] is the same key as one of tenant 'acme': a key must name one tenant");
  }

  @Test
  @DisplayName("local rungs take routing.region and may not name another; HTTP rungs default to global")
  void shouldPlaceLocalRungsInTheDeploymentsRegion() throws Exception {
    String tiers = "  tiers:\n"
        + ManifestBuilder.tierEntry("name: eu_http", "region: eu")
        + ManifestBuilder.tierEntry("name: world", "-region")
        + "    - { name: cache, adapter: cached_index, claim: cached, timeout_ms: 50 }\n"
        + "    - { name: gaz, adapter: gazetteer, claim: locality, timeout_ms: 50, region: eu }\n";
    Manifest m = ManifestLoader.parse("routing:\n  region: eu\n" + tiers, Map.of());

    RoutingConfig r = m.routing();
    assertThat(r.tiers()).extracting(r::regionOf).containsExactly("eu", "global", "eu", "eu");
    assertThat(problems("routing:\n  region: us\n" + tiers, Map.of()))
        .containsExactly("routing.tiers[3].region is 'eu', but a local rung runs where the deployment runs: routing.region is 'us'");
  }

  @Test
  @DisplayName("tls: certificate and key together, an https endpoint, HTTP rungs only; an unreadable file disables the tier")
  void shouldCheckTierTls(@TempDir Path dir) throws Exception {
    List<String> p = problems("routing:\n  tiers:\n"
        + ManifestBuilder.tierEntry("name: a", "endpoint: \"https://a.example\"", "tls: { cert_file: /c.pem }")
        + ManifestBuilder.tierEntry("name: b", "tls: { ca_file: /ca.pem }")
        + "    - { name: c, adapter: cached_index, claim: cached, timeout_ms: 50, tls: { ca_file: /ca.pem } }\n", Map.of());
    assertThat(p).containsExactly(
        "routing.tiers[0].tls.key_file is required with cert_file",
        "routing.tiers[1].tls needs an https endpoint",
        "routing.tiers[2].tls is for HTTP rungs: a local rung makes no connection");

    Path ca = Files.writeString(dir.resolve("ca.pem"), "-----BEGIN CERTIFICATE-----\n");
    Manifest m = ManifestLoader.parse("routing:\n  tiers:\n"
        + ManifestBuilder.tierEntry("name: a", "endpoint: \"https://a.example\"", "tls: { ca_file: \"" + ca + "\", server_name: geo.internal }")
        + ManifestBuilder.tierEntry("name: b", "endpoint: \"https://b.example\"", "tls: { ca_file: /nonexistent/ca.pem }"), Map.of());
    assertThat(m.enabledTiers()).extracting(TierConfig::name).containsExactly("a");
    assertThat(m.disabledTiers()).containsEntry("b", "tls ca_file /nonexistent/ca.pem is not readable");
    assertThat(m.routing().tiers().get(0).tls().serverName()).isEqualTo("geo.internal");
  }
}
