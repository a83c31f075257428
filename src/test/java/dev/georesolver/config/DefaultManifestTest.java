package dev.georesolver.config;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The shipped conf/manifest.yaml is valid and is a ladder a new user can run as is. */
class DefaultManifestTest {

  private static final Path DEFAULT = Path.of("conf/manifest.yaml");

  @Test
  @DisplayName("without a key, the commercial rung is left out and the ladder is Nominatim, cached index, gazetteer")
  void runsWithoutKeys() throws Exception {
    Manifest m = ManifestLoader.load(DEFAULT, Map.of());
    assertThat(m.disabledTiers()).containsOnlyKeys("primary_commercial");
    assertThat(m.disabledTiers().get("primary_commercial")).contains("GEO_GOOGLE_API_KEY");
    assertThat(m.enabledTiers()).extracting(TierConfig::name)
        .containsExactly("osm_nominatim", "cached_index", "world_gazetteer");
    assertThat(m.routing().idempotency().store()).isEqualTo("memory");
  }

  @Test
  @DisplayName("public Nominatim is used under its policy: a User-Agent naming the project and at most one request a second")
  void nominatimPolicy() throws Exception {
    TierConfig osm = ManifestLoader.load(DEFAULT, Map.of()).enabledTiers().get(0);
    assertThat(osm.rateLimitPerS()).isEqualTo(1.0);
    assertThat(osm.headers().get("User-Agent")).contains("georesolver");
  }

  @Test
  @DisplayName("with the key set, the commercial rung leads the ladder")
  void keyEnablesCommercialRung() throws Exception {
    Manifest m = ManifestLoader.load(DEFAULT, Map.of("GEO_GOOGLE_API_KEY", "k"));
    assertThat(m.disabledTiers()).isEmpty();
    assertThat(m.enabledTiers().get(0).name()).isEqualTo("primary_commercial");
  }
}
