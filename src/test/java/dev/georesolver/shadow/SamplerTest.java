package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The sampling decision. */
class SamplerTest {

  @Test
  @DisplayName("rate 0 never samples and rate 1 always does, whatever the input")
  void shouldNeverOrAlwaysSampleAtTheEnds() {
    Sampler off = new Sampler(0);
    Sampler all = new Sampler(1);
    for (long bits : new long[] {0, 1, -1, Long.MIN_VALUE, Long.MAX_VALUE}) {
      assertThat(off.decide(bits)).isFalse();
      assertThat(all.decide(bits)).isTrue();
    }
    assertThat(off.off()).isTrue();
    assertThat(off.decide(new SplittableRandom(1))).isFalse();
  }

  @Test
  @DisplayName("a rate samples its share of uniform draws, within the draws' 99.9 % bound")
  void shouldSampleItsShare() {
    SplittableRandom r = new SplittableRandom(99);
    Sampler s = new Sampler(0.05);
    int n = 200_000;
    int taken = 0;
    for (int i = 0; i < n; i++) {
      if (s.decide(r)) {
        taken++;
      }
    }
    assertThat(Wilson.of(taken, n, 3.29).contains(0.05)).as("%s of %s", taken, n).isTrue();
  }

  @Test
  @DisplayName("by key id it is deterministic, and raising the rate only adds keys")
  void shouldBeDeterministicAndNestedByKey() {
    Sampler low = new Sampler(0.01);
    Sampler high = new Sampler(0.05);
    int inLow = 0;
    for (int i = 0; i < 20_000; i++) {
      long bits = KeyHasher.bitsOf(Samples.id(i));
      assertThat(low.decide(bits)).isEqualTo(new Sampler(0.01).decide(bits));
      if (low.decide(bits)) {
        inLow++;
        assertThat(high.decide(bits)).isTrue();
      }
    }
    assertThat(Wilson.of(inLow, 20_000, 3.29).contains(0.01)).isTrue();
  }

  @Test
  @DisplayName("the threshold is exact at the edge: the top 53 bits below rate·2^53 are sampled")
  void shouldCutExactlyAtTheThreshold() {
    Sampler half = new Sampler(0.5);
    assertThat(half.decide(0x7FFF_FFFF_FFFF_F7FFL)).isTrue();
    assertThat(half.decide(0x8000_0000_0000_0000L)).isFalse();
  }

  @Test
  @DisplayName("a rate outside [0, 1] is refused")
  void shouldRefuseARateOutOfRange() {
    assertThatThrownBy(() -> new Sampler(-0.1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Sampler(1.5)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Sampler(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
  }
}
