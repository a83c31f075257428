package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The Wilson score interval. */
class WilsonTest {

  @Test
  @DisplayName("9 of 10 is 59.6 %–98.2 % at 95 % (the published value), inside [0, 1] at the ends")
  void shouldMatchTheKnownIntervals() {
    Wilson w = Wilson.of(9, 10);
    assertThat(w.low()).isCloseTo(0.5958, within(0.0005));
    assertThat(w.high()).isCloseTo(0.9821, within(0.0005));
    assertThat(Wilson.of(10, 10).high()).isEqualTo(1.0);
    assertThat(Wilson.of(10, 10).low()).isCloseTo(0.7225, within(0.0005));
    assertThat(Wilson.of(0, 10).low()).isEqualTo(0.0);
    assertThat(Wilson.of(0, 0)).isEqualTo(new Wilson(0, 1));
  }

  @Test
  @DisplayName("it narrows as the samples grow")
  void shouldNarrowWithMoreSamples() {
    Wilson small = Wilson.of(96, 100);
    Wilson large = Wilson.of(9_600, 10_000);
    assertThat(large.high() - large.low()).isLessThan((small.high() - small.low()) / 5);
    assertThat(large.contains(0.96)).isTrue();
  }

  @Test
  void shouldRefuseImpossibleCounts() {
    assertThatThrownBy(() -> Wilson.of(11, 10)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Wilson.of(-1, 10)).isInstanceOf(IllegalArgumentException.class);
  }
}
