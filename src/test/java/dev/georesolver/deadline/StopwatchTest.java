package dev.georesolver.deadline;

import dev.georesolver.support.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** Elapsed time on a fake monotonic clock. */
class StopwatchTest {

  private final FakeClock clock = new FakeClock();

  @Test
  void shouldStartAtZero() {
    assertThat(Stopwatch.start(clock).elapsedMs()).isZero();
  }

  @Test
  void shouldCountWholeMillisecondsSinceTheStart() {
    Stopwatch sw = Stopwatch.start(clock);

    clock.advance(Duration.ofNanos(1_999_999));
    assertThat(sw.elapsedMs()).isEqualTo(1);

    clock.advanceMs(348);
    assertThat(sw.elapsedMs()).isEqualTo(349);
  }

  @Test
  void shouldRecordTheStartOnTheTicker() {
    long before = clock.nanoTime();

    Stopwatch sw = Stopwatch.start(clock);
    clock.advanceMs(5);

    assertThat(sw.startNanos()).isEqualTo(before);
    assertThat(sw.ticker()).isSameAs(clock);
  }

  @Test
  void shouldWorkAcrossANegativeTickerOrigin() {
    long[] now = {-3_000_000L};
    Ticker ticker = () -> now[0];
    Stopwatch sw = Stopwatch.start(ticker);

    now[0] += 7_000_000L;

    assertThat(sw.elapsedMs()).isEqualTo(7);
  }
}
