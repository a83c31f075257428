package dev.georesolver.ladder;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.TierConfig;
import dev.georesolver.geo.Direction;
import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The one ladder rule: intent, direction and residency; a strict tenant's ladder never holds an out-of-region rung. */
class LaddersTest {

  private static Manifest manifest(String region) {
    return ManifestBuilder.manifest().region(region)
        .tier("eu_exact", "generic", "http://eu.example", "exact", 500, "region: eu")
        .tier("world_exact", "google", "http://world.example", "exact", 500)
        .tier("us_open", "nominatim", "http://us.example", "open_data", 500, "region: us")
        .tier("eu_open", "photon", "http://eu2.example", "open_data", 500, "region: eu")
        .tier("cache", "cached_index", null, "cached", 50)
        .tier("gaz", "gazetteer", null, "locality", 50)
        .extra("""
            intents:
              describe: { max_cache_age_s: 600 }
              contain: { max_cache_age_s: 0, claims: [exact] }
            tenants:
              - { id: "acme", keys: [ { env: "K1" } ], region: "eu", residency: "strict" }
              - { id: "usco", keys: [ { env: "K2" } ], region: "us", residency: "strict" }
              - { id: "open", keys: [ { env: "K3" } ], region: "eu" }
            """)
        .build();
  }

  private static List<String> names(List<TierConfig> ladder) {
    return ladder.stream().map(TierConfig::name).toList();
  }

  @Test
  @DisplayName("without residency the ladder is every rung the intent and direction allow")
  void shouldKeepEveryRungWithoutResidency() {
    Ladders l = Ladders.of(manifest("eu"));

    assertThat(names(l.ladder("describe", Direction.FORWARD, null)))
        .containsExactly("eu_exact", "world_exact", "us_open", "eu_open", "cache", "gaz");
    assertThat(names(l.ladder("contain", Direction.FORWARD, null))).containsExactly("eu_exact", "world_exact");
  }

  @Test
  @DisplayName("a strict eu ladder holds the eu tiers and the local rungs of an eu deployment, never a global or us tier")
  void shouldKeepOnlyInRegionRungsForAStrictTenant() {
    Ladders l = Ladders.of(manifest("eu"));

    assertThat(names(l.ladder("describe", Direction.FORWARD, "eu"))).containsExactly("eu_exact", "eu_open", "cache", "gaz");
    assertThat(names(l.ladder("contain", Direction.FORWARD, "eu"))).containsExactly("eu_exact");
    assertThat(names(l.ladder("describe", Direction.FORWARD, "us"))).containsExactly("us_open");
    assertThat(names(l.ladder("contain", Direction.FORWARD, "us"))).as("misconfigured: nothing in region").isEmpty();
  }

  @Test
  @DisplayName("local rungs run where the deployment runs: in a us deployment they are out of an eu tenant's region")
  void shouldPlaceLocalRungsInTheDeploymentsRegion() {
    Ladders l = Ladders.of(manifest("us"));

    assertThat(names(l.ladder("describe", Direction.FORWARD, "eu"))).containsExactly("eu_exact", "eu_open");
    assertThat(names(l.ladder("describe", Direction.FORWARD, "us"))).containsExactly("us_open", "cache", "gaz");
  }

  @Test
  @DisplayName("the static rule is the table's: the same ladder for the reconciler and batch paths")
  void shouldAgreeWithTheStaticRule() {
    Manifest m = manifest("eu");
    Ladders l = Ladders.of(m);

    for (Direction d : Direction.values()) {
      for (String region : new String[] {null, "eu", "us"}) {
        for (var i : m.intents().values()) {
          assertThat(l.ladder(i.name(), d, region)).isEqualTo(Ladders.of(m.enabledTiers(), i, d, region, m.routing()));
        }
      }
    }
    assertThatThrownBy(() -> l.ladder("describe", Direction.FORWARD, "apac")).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("the residency rule, read per tenant from a manifest: none, strict, unknown (fail closed); combined, the stricter")
  void residencyRule() {
    Manifest m = manifest("eu");
    assertThat(Residency.of(m, "open")).isEqualTo(Residency.ANYWHERE);
    assertThat(Residency.of(m, "acme")).isEqualTo(Residency.heldTo("eu"));
    assertThat(Residency.of(m, "gone")).as("an id the manifest no longer has").isEqualTo(Residency.NOWHERE);
    assertThat(Residency.of(ManifestBuilder.manifest().tier("t", "generic", "http://t.example", "exact", 500).build(), "public"))
        .as("open access").isEqualTo(Residency.ANYWHERE);

    Ladders l = Ladders.of(m);
    assertThat(names(l.ladderFor("describe", Direction.FORWARD, Residency.of(m, "acme")))).containsExactly("eu_exact", "eu_open", "cache", "gaz");
    assertThat(l.ladderFor("describe", Direction.FORWARD, Residency.NOWHERE)).isEmpty();
    assertThat(names(l.ladderFor("describe", Direction.FORWARD, Residency.heldTo("apac")))).as("a region no tenant of it is held to").isEmpty();
    TierConfig world = m.enabledTiers().get(1);
    assertThat(Residency.heldTo("eu").allows(world, m.routing())).as("a global tier is out of every region").isFalse();

    assertThat(Residency.heldTo("eu").and(Residency.ANYWHERE)).isEqualTo(Residency.heldTo("eu"));
    assertThat(Residency.ANYWHERE.and(Residency.heldTo("us"))).isEqualTo(Residency.heldTo("us"));
    assertThat(Residency.heldTo("eu").and(Residency.heldTo("us"))).isEqualTo(Residency.NOWHERE);
    assertThat(Residency.ANYWHERE.and(Residency.NOWHERE)).isEqualTo(Residency.NOWHERE);
  }
}
