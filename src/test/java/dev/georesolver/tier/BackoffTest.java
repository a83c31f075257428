package dev.georesolver.tier;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.LongSummaryStatistics;
import java.util.Random;
import java.util.stream.IntStream;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Full-jitter exponential backoff: uniform in [0, min(1000, base × 2^(retry−1))]. */
class BackoffTest {

  private static LongSummaryStatistics sample(long baseMs, int retry, int n) {
    Backoff b = new Backoff(baseMs, new Random(42));
    return LongStream.range(0, n).map(i -> b.delayMs(retry)).summaryStatistics();
  }

  @ParameterizedTest(name = "base {0} ms, retry {1} -> [0, {2}]")
  @CsvSource({
      "50, 1, 50",
      "50, 2, 100",
      "50, 3, 200",
      "50, 5, 800",
      "50, 6, 1000",
      "50, 30, 1000",
      "1000, 1, 1000",
      "5000, 1, 1000",
      "1, 11, 1000",
      "1, 10, 512",
  })
  void shouldWaitAnywhereFromZeroToTheCappedExponentialCeiling(long base, int retry, long ceiling) {
    LongSummaryStatistics s = sample(base, retry, 5000);

    assertThat(s.getMin()).as("full jitter starts at zero").isGreaterThanOrEqualTo(0).isLessThanOrEqualTo(ceiling / 20);
    assertThat(s.getMax()).as("and reaches the ceiling").isLessThanOrEqualTo(ceiling).isGreaterThanOrEqualTo(ceiling * 19 / 20);
  }

  @Test
  void shouldIncludeTheCeilingItself() {
    Backoff b = new Backoff(1, new Random(1));

    assertThat(IntStream.range(0, 200).mapToLong(i -> b.delayMs(1)).distinct().sorted().toArray()).containsExactly(0, 1);
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 2, 10, 50})
  void shouldNeverWaitWithABaseOfZero(int retry) {
    assertThat(new Backoff(0, new Random(42)).delayMs(retry)).isZero();
  }

  @Test
  void shouldNeverWaitWithANegativeBase() {
    assertThat(new Backoff(-10, new Random(42)).delayMs(3)).isZero();
  }

  @Test
  void shouldBeDeterministicForASeededRandom() {
    Backoff a = new Backoff(50, new Random(7));
    Backoff b = new Backoff(50, new Random(7));

    long[] first = IntStream.rangeClosed(1, 8).mapToLong(a::delayMs).toArray();
    long[] second = IntStream.rangeClosed(1, 8).mapToLong(b::delayMs).toArray();

    assertThat(first).containsExactly(second);
  }

  @Test
  @DisplayName("a huge base never overflows past the cap")
  void shouldStayWithinTheCapForAHugeBase() {
    Backoff b = new Backoff(Long.MAX_VALUE / 2, new Random(42));

    for (int retry = 1; retry <= 40; retry++) {
      assertThat(b.delayMs(retry)).as("retry %d", retry).isBetween(0L, Backoff.CAP_MS);
    }
  }

  @Test
  void shouldTreatARetryBelowOneAsTheFirstRetry() {
    assertThat(sample(51, 0, 2000).getMax()).isBetween(45L, 51L);
  }
}
