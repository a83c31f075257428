package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** When a cached answer is re-asked, and when it has moved. */
class DriftCheckTest {

  private static final LonLat P = new LonLat(-0.1276, 51.5034);

  @Test
  @DisplayName("a replay is due from its minimum age on")
  void shouldBeDueFromTheMinimumAge() {
    DriftCheck d = new DriftCheck(86_400_000L, 50);
    assertThat(d.due(0, 86_399_999L)).isFalse();
    assertThat(d.due(0, 86_400_000L)).isTrue();
  }

  @Test
  @DisplayName("moved past the threshold gives the distance; within it, or found nothing, gives none")
  void shouldGiveTheDistanceMovedPastTheThreshold() {
    DriftCheck d = new DriftCheck(0, 50);
    assertThat(d.moved(P, Samples.east(P, 120))).hasValueCloseTo(120.0, within(0.01));
    assertThat(d.moved(P, Samples.east(P, 49))).isEmpty();
    assertThat(d.moved(P, null)).isEmpty();
  }

  @Test
  void shouldRefuseNegativeThresholds() {
    assertThatThrownBy(() -> new DriftCheck(-1, 50)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DriftCheck(0, Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
