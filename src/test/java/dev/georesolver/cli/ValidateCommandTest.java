package dev.georesolver.cli;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code validate}: a CI step for a GitOps repository, exit 0 or 2 with every problem listed. */
class ValidateCommandTest {

  @Test
  @DisplayName("the shipped manifest is valid: exit 0, its revision and ladder, the tiers left out for want of a credential")
  void goodManifest() {
    CliRun.Result r = CliRun.run("validate", "conf/manifest.yaml");
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.OK);
    assertThat(r.out()).startsWith("conf/manifest.yaml: valid (revision ")
        .contains("  ladder: osm_nominatim > cached_index > world_gazetteer\n")
        .contains("  left out here: primary_commercial (credential environment variable GEO_GOOGLE_API_KEY is unset)\n");
    CliRun.Result withKey = CliRun.run(Map.of("GEO_GOOGLE_API_KEY", "k"), "validate", "conf/manifest.yaml");
    assertThat(withKey.out()).contains("ladder: primary_commercial > osm_nominatim").doesNotContain("left out");
  }

  @Test
  @DisplayName("--explain prints every effective value with its type, unit, default, allowed values and reload rule")
  void explain() {
    CliRun.Result r = CliRun.run("validate", "--explain", "conf/manifest.yaml");
    assertThat(r.status()).as(r.toString()).isEqualTo(Exit.OK);
    assertThat(r.out()).contains("effective manifest (see docs/configuration.md):\n")
        .contains("  audit.level: fallbacks  # string; default fallbacks; fallbacks, all, off; applied by a reload\n")
        .contains("  audit.flush_interval_ms: 100  # integer; ms; default 100; 1 to 60000; needs a restart (")
        .contains("  batch.max_share: 0.5  # number; default 0.5; must be in (0, 1]; applied by a reload, which redeploys every tier\n")
        .containsPattern("  routing\\.tiers\\[0\\]\\.timeout_ms: \\d+  # integer; ms; default required; >= 1; applied by a reload\n");
    assertThat(CliRun.run("validate", "conf/manifest.yaml").out()).doesNotContain("effective manifest");
  }

  @Test
  @DisplayName("GEO_MANIFEST, else conf/manifest.yaml, when no file is named")
  void defaultFile() {
    assertThat(CliRun.run("validate").out()).startsWith("conf/manifest.yaml: valid");
    assertThat(CliRun.run(Map.of("GEO_MANIFEST", "nope.yaml"), "validate").err()).contains("cannot read manifest nope.yaml");
  }

  @Test
  @DisplayName("a bad manifest: exit 2 and every problem, each with its path, on standard error")
  void badManifest(@TempDir Path dir) throws Exception {
    Path bad = dir.resolve("bad.yaml");
    Files.writeString(bad, """
        routing:
          budget_ms: 0
          tiers:
            - name: "x"
              adapter: "googl"
              claim: "exact"
              timout_ms: 5
        """);
    CliRun.Result r = CliRun.run("validate", bad.toString());
    assertThat(r.status()).isEqualTo(Exit.USAGE);
    assertThat(r.out()).isEmpty();
    assertThat(r.err()).startsWith("georesolver: " + bad + " is invalid:\n")
        .contains("  - routing.budget_ms must be > 0\n")
        .contains("  - routing.tiers[0].timout_ms is not a known field\n")
        .contains("  - routing.tiers[0].adapter 'googl' is unknown")
        .contains("  - routing.tiers[0].timeout_ms is required\n");
  }

  @Test
  @DisplayName("a file that is not YAML, or not there, is exit 2 too")
  void notAManifest(@TempDir Path dir) throws Exception {
    Path junk = dir.resolve("junk.yaml");
    Files.writeString(junk, "{{{ not: yaml");
    assertThat(CliRun.run("validate", junk.toString()).status()).isEqualTo(Exit.USAGE);
    assertThat(CliRun.run("validate", dir.resolve("missing.yaml").toString()).status()).isEqualTo(Exit.USAGE);
  }
}
