package dev.georesolver.tenant;

import dev.georesolver.support.FakeClock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The token bucket: a burst at once, then the rate, and how long to wait. */
class TokenBucketTest {

  @Test
  @DisplayName("starts full, empties by the burst, says how long until the next token")
  void shouldAllowTheBurstThenSayHowLongToWait() {
    FakeClock clock = new FakeClock();
    TokenBucket b = new TokenBucket(10, 5, clock);

    for (int i = 0; i < 5; i++) {
      assertThat(b.tryTake()).isZero();
    }
    assertThat(b.tryTake()).isBetween(99_999_000L, 100_001_000L);
    clock.advanceMs(40);
    assertThat(b.tryTake()).isBetween(59_999_000L, 60_001_000L);
    clock.advanceMs(61);
    assertThat(b.tryTake()).isZero();
  }

  @Test
  @DisplayName("never holds more than the burst, however long it was idle")
  void shouldNotGrowPastTheBurst() {
    FakeClock clock = new FakeClock();
    TokenBucket b = new TokenBucket(1000, 2, clock);
    clock.advanceMs(3_600_000);

    assertThat(b.tryTake()).isZero();
    assertThat(b.tryTake()).isZero();
    assertThat(b.tryTake()).isPositive();
  }

  @Test
  void shouldRefuseANonPositiveRateOrBurst() {
    FakeClock clock = new FakeClock();
    assertThatThrownBy(() -> new TokenBucket(0, 1, clock)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new TokenBucket(1, 0, clock)).isInstanceOf(IllegalArgumentException.class);
  }
}
