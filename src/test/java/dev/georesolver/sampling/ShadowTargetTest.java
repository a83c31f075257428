package dev.georesolver.sampling;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.config.TierConfig;
import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The rule choosing a sample's shadow rung, without Vert.x. */
class ShadowTargetTest {

  private static Manifest manifest(String shadow) throws Exception {
    return ManifestLoader.parse(ManifestBuilder.manifest()
        .tier("a", "generic", "http://localhost:1", "exact", 500)
        .tier("b", "generic", "http://localhost:2", "exact", 500)
        .tier("c", "generic", "http://localhost:3", "exact", 500)
        .extra(shadow).yaml(), Map.of());
  }

  @Test
  @DisplayName("without pairs the next rung of the request's ladder; the last rung has none")
  void shouldTakeTheNextRungByDefault() throws Exception {
    Manifest m = manifest("");
    List<TierConfig> ladder = m.enabledTiers();
    assertThat(ShadowTarget.of(m.shadow(), ladder, "a", false).tier().name()).isEqualTo("b");
    assertThat(ShadowTarget.of(m.shadow(), ladder, "b", false).tier().name()).isEqualTo("c");
    assertThat(ShadowTarget.of(m.shadow(), ladder, "c", false).skip()).isEqualTo("no_shadow_rung");
    assertThat(ShadowTarget.of(m.shadow(), ladder.subList(0, 1), "a", false).skip())
        .as("a ladder trimmed for residency ends at its last in-region rung").isEqualTo("no_shadow_rung");
  }

  @Test
  @DisplayName("with pairs only the configured rung, and only when the request's ladder holds it")
  void shouldTakeTheConfiguredPairWithinTheLadder() throws Exception {
    Manifest m = manifest("shadow: { pairs: [ { served: b, shadow: a } ] }\n");
    List<TierConfig> ladder = m.enabledTiers();
    assertThat(ShadowTarget.of(m.shadow(), ladder, "b", false).tier().name()).isEqualTo("a");
    assertThat(ShadowTarget.of(m.shadow(), ladder, "a", false).skip()).as("a has no pair").isEqualTo("no_shadow_rung");
    assertThat(ShadowTarget.of(m.shadow(), List.of(ladder.get(1), ladder.get(2)), "b", false).skip())
        .as("a is outside this request's ladder").isEqualTo("not_in_ladder");
    assertThat(ShadowTarget.of(m.shadow(), ladder, "c", true).tier().name()).as("a replay asks its own rung").isEqualTo("c");
  }
}
