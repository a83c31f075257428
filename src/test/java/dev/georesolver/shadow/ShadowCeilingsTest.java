package dev.georesolver.shadow;

import dev.georesolver.support.FakeClock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The per-tier ceiling of shadow calls per second. */
class ShadowCeilingsTest {

  @Test
  @DisplayName("each tier gets a second's worth at once, then the rate; tiers do not share a budget")
  void shouldHoldEachTierToItsCeiling() {
    FakeClock clock = new FakeClock();
    ShadowCeilings c = new ShadowCeilings(List.of("osm_nominatim", "cached_index"), 5, clock);

    for (int i = 0; i < 5; i++) {
      assertThat(c.tryAcquire("osm_nominatim")).isTrue();
    }
    assertThat(c.tryAcquire("osm_nominatim")).isFalse();
    assertThat(c.tryAcquire("cached_index")).isTrue();
    clock.advanceMs(199);
    assertThat(c.tryAcquire("osm_nominatim")).isFalse();
    clock.advanceMs(1);
    assertThat(c.tryAcquire("osm_nominatim")).isTrue();
    assertThat(c.tryAcquire("osm_nominatim")).isFalse();
  }

  @Test
  @DisplayName("over a long run the calls admitted follow the ceiling, however many are asked")
  void shouldAdmitTheCeilingOverTime() {
    FakeClock clock = new FakeClock();
    ShadowCeilings c = new ShadowCeilings(List.of("t"), 2.5, clock);
    int admitted = 0;
    for (int ms = 0; ms < 60_000; ms += 10) {
      for (int k = 0; k < 3; k++) {
        if (c.tryAcquire("t")) {
          admitted++;
        }
      }
      clock.advanceMs(10);
    }
    // 3 at once (a second's worth, rounded up), then 2.5 a second for 60 s.
    assertThat(admitted).isBetween(150, 153);
  }

  @Test
  @DisplayName("a tier it does not know is refused, and a ceiling of zero is not a ceiling")
  void shouldRefuseUnknownTiersAndAZeroRate() {
    ShadowCeilings c = new ShadowCeilings(List.of("t"), 1, new FakeClock());
    assertThat(c.tryAcquire("other")).isFalse();
    assertThatThrownBy(() -> new ShadowCeilings(List.of("t"), 0, new FakeClock())).isInstanceOf(IllegalArgumentException.class);
  }
}
