package dev.georesolver.shadow;

import dev.georesolver.geo.Claim;
import dev.georesolver.geo.GreatCircle;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** What one sample measures, and what it refuses to hold or show. */
class ShadowSampleTest {

  private static final LonLat LONDON = new LonLat(-0.1276, 51.5034);

  @ParameterizedTest(name = "at latitude {0}")
  @ValueSource(doubles = {0, 51.5034, -33.8688, 64.1466, 78.2232})
  @DisplayName("a shadow answer 120 m east of the served point measures 120 m, at any latitude")
  void shouldMeasureTheGreatCircleDistanceInMetres(double lat) {
    LonLat p = new LonLat(10, lat);
    ShadowSample s = Samples.sample(1, "primary_commercial", "osm_nominatim", "describe", p, Samples.east(p, 120), 300, 120);

    assertThat(s.distanceM()).hasValueCloseTo(120.0, within(0.001));
    assertThat(s.agreement()).isEqualTo(ShadowSample.Agreement.BOTH_FOUND);
  }

  @Test
  @DisplayName("GreatCircle takes latitude first and answers in metres on the mean Earth radius")
  void shouldUseGreatCircleWithItsArgumentOrderAndUnits() {
    // One degree of a meridian on a sphere of 6,371,008.8 m: 111,195.08 m.
    assertThat(GreatCircle.metres(0, 0, 1, 0)).isCloseTo(111_195.08, within(0.01));
    // A degree of longitude at 60° is half a degree of latitude: swapping lat and lon would not give this.
    assertThat(GreatCircle.metres(60, 0, 60, 1)).isCloseTo(55_597.5, within(1.0));
    ShadowSample s = Samples.sample(1, "a", "b", "describe", new LonLat(0, 60), new LonLat(1, 60), 1, 1);
    assertThat(s.distanceM()).hasValueCloseTo(55_597.5, within(1.0));
  }

  @Test
  @DisplayName("no distance and no label similarity unless both rungs found something")
  void shouldMeasureNothingWhenOneSideFoundNothing() {
    ShadowSample s = Samples.sample(1, "a", "b", "describe", LONDON, null, 300, 120);

    assertThat(s.agreement()).isEqualTo(ShadowSample.Agreement.SERVED_ONLY);
    assertThat(s.distanceM()).isEmpty();
    assertThat(s.labelSimilarity()).isEmpty();
    ShadowSample none = new ShadowSample(Samples.id(2), "describe", 0, Samples.missing("a", 1), Samples.missing("b", 1));
    assertThat(none.agreement()).isEqualTo(ShadowSample.Agreement.NEITHER_FOUND);
    ShadowSample other = new ShadowSample(Samples.id(3), "describe", 0, Samples.missing("a", 1), Samples.found("b", LONDON, 1, "x"));
    assertThat(other.agreement()).isEqualTo(ShadowSample.Agreement.SHADOW_ONLY);
  }

  @Test
  @DisplayName("the id must be a keyed hash: an address or a raw idempotency key is refused")
  void shouldRefuseAnythingButAKeyedHashAsTheId() {
    ShadowSample.Side s = Samples.found("a", LONDON, 1, null);
    ShadowSample.Side h = Samples.found("b", LONDON, 1, null);
    assertThatThrownBy(() -> new ShadowSample("10 Downing Street, London", "describe", 0, s, h))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("KeyHasher id");
    String rawKey = "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08";
    assertThatThrownBy(() -> new ShadowSample(rawKey, "describe", 0, s, h)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("a side has a point exactly when it found something, and a latency that is finite and >= 0")
  void shouldKeepASideConsistent() {
    assertThatThrownBy(() -> new ShadowSample.Side("a", true, null, null, Claim.EXACT, 1, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new ShadowSample.Side("a", false, LONDON, null, Claim.EXACT, 1, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ShadowSample.Side.notFound("a", Claim.EXACT, -1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ShadowSample.Side.notFound("a", Claim.EXACT, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LonLat(181, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new LonLat(0, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  @DisplayName("rung and intent names are checked, so whatever is shown later can be printed as it is")
  void shouldRefuseANameThatIsNotOne() {
    ShadowSample.Side bad = Samples.found("a\u001b[31m", LONDON, 1, null);
    assertThatThrownBy(() -> new ShadowSample(Samples.id(1), "describe", 0, bad, Samples.missing("b", 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("served");
    assertThatThrownBy(() -> new ShadowSample(Samples.id(1), "", 0, Samples.missing("a", 1), Samples.missing("b", 1)))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("intent");
  }

  @Test
  @DisplayName("its text shows rungs, intent and what was found, never the points, labels or id")
  void shouldNotShowPointsLabelsOrIdInItsText() {
    ShadowSample s = Samples.sample(7, "primary_commercial", "osm_nominatim", "describe", LONDON, Samples.east(LONDON, 120), 300, 120);

    assertThat(s.toString()).contains("primary_commercial", "osm_nominatim", "describe")
        .doesNotContain("Downing", "51.5", "-0.12", s.id());
  }
}
