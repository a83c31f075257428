package dev.georesolver.config;

import dev.georesolver.support.ManifestBuilder;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The {@code shadow:} block: off by default, every value read, and each problem named by its path. */
class ShadowConfigTest {

  private static Manifest parse(String extra) throws ManifestException {
    String yaml = ManifestBuilder.manifest()
        .tier("primary", "generic", "http://localhost:1", "exact", 500)
        .tier("second", "generic", "http://localhost:2", "exact", 500)
        .extra(extra).yaml();
    return ManifestLoader.parse(yaml, Map.of());
  }

  @Test
  @DisplayName("absent, shadow sampling is off and every figure has its documented default")
  void shouldBeOffByDefault() throws Exception {
    ShadowConfig s = parse("").shadow();
    assertThat(s.on()).isFalse();
    assertThat(s.sampleRate()).isZero();
    assertThat(s.pairs()).as("the next rung that could answer").isNull();
    assertThat(s.shadowOf("primary")).isNull();
    assertThat(s.maxPerS()).isEqualTo(2.0);
    assertThat(s.queue()).isEqualTo(1000);
    assertThat(s.optOutTenants()).isEmpty();
    assertThat(s.drift().minAgeS()).isEqualTo(2_592_000L);
    assertThat(s.drift().movedM()).isEqualTo(250.0);
    assertThat(parse("").describe().getJsonObject("manifest").getJsonObject("shadow").getDouble("sample_rate")).isZero();
  }

  @Test
  @DisplayName("every value is read as written")
  void shouldReadEveryValue() throws Exception {
    ShadowConfig s = parse("""
        shadow:
          sample_rate: 0.05
          pairs: [ { served: second, shadow: primary } ]
          max_per_s: 7.5
          queue: 20
          opt_out_tenants: [ public ]
          drift: { min_age_s: 60, moved_m: 40 }
        """).shadow();
    assertThat(s.on()).isTrue();
    assertThat(s.sampleRate()).isEqualTo(0.05);
    assertThat(s.shadowOf("second")).isEqualTo("primary");
    assertThat(s.shadowOf("primary")).as("pairs configured: only those").isNull();
    assertThat(s.maxPerS()).isEqualTo(7.5);
    assertThat(s.queue()).isEqualTo(20);
    assertThat(s.optOutTenants()).isEqualTo(Set.of("public"));
    assertThat(s.drift().minAgeS()).isEqualTo(60);
    assertThat(s.drift().movedM()).isEqualTo(40.0);
  }

  @Test
  @DisplayName("a rate outside [0, 1], an unknown rung or tenant, a pair of one rung: each refused with its path")
  void shouldRefuseWithThePath() {
    assertThatThrownBy(() -> parse("shadow: { sample_rate: 1.5 }\n")).hasMessageContaining("shadow.sample_rate");
    assertThatThrownBy(() -> parse("shadow: { max_per_s: 0 }\n")).hasMessageContaining("shadow.max_per_s");
    assertThatThrownBy(() -> parse("shadow: { pairs: [ { served: primary, shadow: nowhere } ] }\n"))
        .hasMessageContaining("shadow.pairs[0]").hasMessageContaining("nowhere");
    assertThatThrownBy(() -> parse("shadow: { pairs: [ { served: primary, shadow: primary } ] }\n"))
        .hasMessageContaining("shadow.pairs[0].shadow");
    assertThatThrownBy(() -> parse("shadow: { opt_out_tenants: [ acme ] }\n"))
        .hasMessageContaining("shadow.opt_out_tenants").hasMessageContaining("acme");
    assertThatThrownBy(() -> parse("shadow: { smaple_rate: 0.1 }\n")).hasMessageContaining("shadow.smaple_rate is not a known field");
  }
}
