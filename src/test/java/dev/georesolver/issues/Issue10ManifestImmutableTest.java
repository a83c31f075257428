package dev.georesolver.issues;

import dev.georesolver.config.IntentConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.config.TierConfig;
import dev.georesolver.geo.Claim;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static dev.georesolver.support.ManifestBuilder.manifest;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The manifest is deeply immutable: nothing it hands out, not even what {@code describe()} returns, can change it. */
class Issue10ManifestImmutableTest {

  private static Manifest load() throws Exception {
    return ManifestLoader.parse(manifest()
        .tier("primary", "generic", "http://geo.example", "exact", 800, "headers: { User-Agent: test }",
            "credential: { header: X-Key, env: PRIMARY_KEY }")
        .tier("osm", "generic", "http://osm.example", "open_data", 800)
        .extra("intents:\n  describe: {}\n  strict: { claims: [exact] }")
        .extra("crs_definitions:\n  \"EPSG:3857\": \"+proj=merc +a=6378137 +b=6378137 +lat_ts=0 +lon_0=0 +x_0=0 +y_0=0 +k=1 +units=m +no_defs\"")
        .yaml(), Map.of());
  }

  @Test
  @DisplayName("changing what describe() returned, however deep, leaves the manifest and the next describe() as they were")
  void shouldNotShareItsStateThroughDescribe() throws Exception {
    Manifest m = load();
    String before = m.describe().encode();

    JsonObject served = m.describe();
    JsonObject routing = served.getJsonObject("manifest").getJsonObject("routing");
    JsonObject tier = routing.getJsonArray("tiers").getJsonObject(0);
    // A copy may be changed, a view must refuse: either way the manifest must not move.
    attempt(() -> routing.put("budget_ms", 1));
    attempt(() -> tier.put("timeout_ms", 1));
    attempt(() -> tier.getJsonObject("headers").put("X-Injected", "yes"));
    attempt(() -> served.getJsonObject("manifest").getJsonObject("intents").clear());
    attempt(() -> served.getJsonArray("enabled_tiers").clear());

    assertThat(m.describe().encode()).isEqualTo(before);
    assertThat(m.routing().budgetMs()).isEqualTo(2000);
    assertThat(m.routing().tiers().get(0).timeoutMs()).isEqualTo(800);
    assertThat(m.routing().tiers().get(0).headers()).containsOnlyKeys("User-Agent");
  }

  private static void attempt(Runnable change) {
    try {
      change.run();
    } catch (UnsupportedOperationException refused) {
      // an unmodifiable view is as good as a copy
    }
  }

  @Test
  @DisplayName("every collection the manifest and its sections hand out refuses changes")
  void shouldHandOutOnlyUnmodifiableCollections() throws Exception {
    Manifest m = load();
    TierConfig primary = m.routing().tiers().get(0);
    IntentConfig strict = m.intent("strict").orElseThrow();

    assertThatThrownBy(() -> m.routing().tiers().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.enabledTiers().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.intents().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.intentNames().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.crsDefinitions().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> m.disabledTiers().clear()).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> primary.headers().put("X-Injected", "yes")).isInstanceOf(UnsupportedOperationException.class);
    assertThatThrownBy(() -> strict.claims().add(Claim.LOCALITY)).isInstanceOf(UnsupportedOperationException.class);

    assertThat(m.disabledTiers()).containsOnlyKeys("primary");
    assertThat(strict.accepts(Claim.LOCALITY)).isFalse();
  }
}
