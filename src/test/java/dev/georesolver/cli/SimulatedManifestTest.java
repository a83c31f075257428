package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.config.TierConfig;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The manifest {@code validate --simulate} runs: the user's, its remote rungs pointed at stand-ins and its secrets stood in. */
class SimulatedManifestTest {

  @Test
  @DisplayName("endpoints point at the stand-ins with their paths kept, every rung enabled by the dummy credential, the rest unchanged")
  void rewrite() throws Exception {
    String yaml = Files.readString(Path.of("conf/manifest.yaml"));
    String sim = SimulatedManifest.rewrite(yaml, ManifestLoader.parse(yaml, Map.of()), Map.of("primary_commercial", "http://127.0.0.1:1001", "osm_nominatim", "http://127.0.0.1:1002"));
    Manifest m = ManifestLoader.parse(sim, SimulatedManifest.env());
    assertThat(m.disabledTiers()).isEmpty();
    assertThat(m.enabledTiers()).extracting(TierConfig::name)
        .containsExactly("primary_commercial", "osm_nominatim", "cached_index", "world_gazetteer");
    assertThat(m.enabledTiers().get(0).endpoint()).isEqualTo("http://127.0.0.1:1001/maps/api/geocode/json");
    assertThat(m.enabledTiers().get(1).endpoint()).isEqualTo("http://127.0.0.1:1002");
    assertThat(m.enabledTiers().get(0).credential().env()).isEqualTo(SimulatedManifest.DUMMY_ENV);
    assertThat(m.enabledTiers().get(0).credential().placement()).isEqualTo(m.enabledTiers().get(0).credential().placement());
    assertThat(sim).doesNotContain("GEO_GOOGLE_API_KEY").contains("query_param: key");
    Manifest user = ManifestLoader.parse(yaml, Map.of());
    assertThat(m.routing().budgetMs()).isEqualTo(user.routing().budgetMs());
    assertThat(m.enabledTiers().get(1).rateLimitPerS()).isEqualTo(1.0);
  }

  @Test
  @DisplayName("tenant keys become distinct digests nobody holds, and a remote rung without a stand-in is refused")
  void tenants() throws Exception {
    String yaml = Files.readString(Path.of("src/test/resources/simulate/strict-eu-deployment.yaml"));
    Manifest user = ManifestLoader.parse(yaml, Map.of());
    String sim = SimulatedManifest.rewrite(yaml, user, Map.of("eu_geocoder", "http://127.0.0.1:1", "primary_commercial", "http://127.0.0.1:2"));
    Manifest m = ManifestLoader.parse(sim, SimulatedManifest.env());
    assertThat(m.tenants()).hasSize(2);
    assertThat(sim).doesNotContain("ACME_API_KEY").doesNotContain("/run/secrets");
    assertThat(m.tenants().get(0).strictRegion()).isEqualTo("eu");
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> SimulatedManifest.rewrite(yaml, user, Map.of()))
        .hasMessageContaining("no stand-in for rung eu_geocoder");
  }
}
