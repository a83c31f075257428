package dev.georesolver.tier;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The median of a tier's last 32 successful latencies, seeded with three copies of typical_ms. */
class LatencyWindowTest {

  @Test
  void shouldStartAtTheSeed() {
    assertThat(new LatencyWindow(300).median()).isEqualTo(300);
  }

  @Test
  @DisplayName("three seed copies hold the median against two fast calls; the third fast call moves it")
  void shouldResistOneOrTwoOutliers() {
    LatencyWindow w = new LatencyWindow(300);

    assertThat(w.record(100)).isFalse();
    assertThat(w.median()).isEqualTo(300);
    assertThat(w.record(100)).isFalse();
    assertThat(w.median()).isEqualTo(300);

    assertThat(w.record(100)).as("three fast and three seeds: the lower median").isTrue();
    assertThat(w.median()).isEqualTo(100);
  }

  @Test
  void shouldReturnWhetherTheMedianChanged() {
    LatencyWindow w = new LatencyWindow(300);

    assertThat(w.record(300)).isFalse();
    assertThat(w.record(900)).isFalse();
    assertThat(w.record(900)).isFalse();
    assertThat(w.record(900)).isFalse();
    assertThat(w.record(900)).as("four of each: the lower median stays").isFalse();
    assertThat(w.record(900)).isTrue();
    assertThat(w.median()).isEqualTo(900);
  }

  @Test
  void shouldTakeTheLowerMedianOfAnEvenCount() {
    LatencyWindow w = new LatencyWindow(10);
    w.record(20);
    w.record(30);
    w.record(40);

    assertThat(w.median()).as("of 10, 10, 10, 20, 30, 40").isEqualTo(10);
    w.record(50);
    assertThat(w.median()).as("of 10, 10, 10, 20, 30, 40, 50").isEqualTo(20);
    w.record(60);
    assertThat(w.median()).as("of 10, 10, 10, 20, 30, 40, 50, 60").isEqualTo(20);
  }

  @Test
  @DisplayName("only the last 32 calls count: older ones and the seeds drop out")
  void shouldForgetCallsOlderThanTheLast32() {
    LatencyWindow w = new LatencyWindow(500);
    for (int i = 0; i < LatencyWindow.SIZE; i++) {
      w.record(10);
    }
    assertThat(w.median()).isEqualTo(10);

    for (int i = 0; i < 16; i++) {
      w.record(1000);
    }
    assertThat(w.median()).as("16 x 10 and 16 x 1000").isEqualTo(10);

    assertThat(w.record(1000)).isTrue();
    assertThat(w.median()).as("15 x 10 and 17 x 1000").isEqualTo(1000);
  }

  @Test
  void shouldRecordANegativeLatencyAsZero() {
    LatencyWindow w = new LatencyWindow(0);
    for (int i = 0; i < 4; i++) {
      w.record(-50);
    }

    assertThat(w.median()).isZero();
  }
}
