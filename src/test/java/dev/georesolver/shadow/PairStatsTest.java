package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** What a pair's figures add up to, against stand-in providers at known offsets. */
class PairStatsTest {

  private static final PairKey KEY = new PairKey("primary_commercial", "osm_nominatim", "describe");

  @Test
  @DisplayName("a stand-in answering 120 m east of the served point reads 120 ± 1 m at p50, p90 and p99")
  void shouldReadTheOffsetOfAStandInWithinAMetre() {
    SplittableRandom r = new SplittableRandom(27);
    PairStats stats = new PairStats();
    for (int i = 0; i < 1_000; i++) {
      LonLat p = Samples.anywhere(r);
      stats.record(Samples.sample(i, KEY.served(), KEY.shadow(), "describe", p, Samples.east(p, 120), 300, 120));
    }

    PairSummary s = stats.summary(KEY);

    assertThat(s.distanceM().p50()).isCloseTo(120, within(1.0));
    assertThat(s.distanceM().p90()).isCloseTo(120, within(1.0));
    assertThat(s.distanceM().p99()).isCloseTo(120, within(1.0));
    assertThat(s.within()).isEqualTo(new PairSummary.Within(0, 1_000, 1_000, 1_000));
    assertThat(s.bothFound()).isEqualTo(1_000);
  }

  @Test
  @DisplayName("distance percentiles keep 0.4 % of their value across the range, centimetres to thousands of km")
  void shouldKeepItsResolutionAcrossTheRange() {
    for (double metres : new double[] {0.05, 3, 49.9, 120, 250, 999, 5_000, 80_000, 1_234_567}) {
      PairStats stats = new PairStats();
      LonLat p = new LonLat(0, 0);
      stats.record(Samples.sample(1, "a", "b", "describe", p, Samples.east(p, metres), 1, 1));
      double p50 = stats.summary(new PairKey("a", "b", "describe")).distanceM().p50();
      assertThat(p50).as("%s m", metres).isCloseTo(metres, within(Math.max(0.01, metres * 0.004)));
    }
  }

  @Test
  @DisplayName("within counts are exact at their thresholds: 250.0 m is within 250 m, 250.02 m is not")
  void shouldCountWithinExactlyAtTheThreshold() {
    PairStats stats = new PairStats();
    LonLat p = new LonLat(0, 0);
    stats.record(Samples.sample(1, "a", "b", "describe", p, p, 1, 1));
    stats.record(Samples.sample(2, "a", "b", "describe", p, Samples.north(p, 50), 1, 1));
    stats.record(Samples.sample(3, "a", "b", "describe", p, Samples.north(p, 249.99), 1, 1));
    stats.record(Samples.sample(4, "a", "b", "describe", p, Samples.north(p, 250.02), 1, 1));
    stats.record(Samples.sample(5, "a", "b", "describe", p, Samples.north(p, 4_999), 1, 1));
    stats.record(Samples.sample(6, "a", "b", "describe", p, Samples.north(p, 20_000), 1, 1));

    PairSummary s = stats.summary(new PairKey("a", "b", "describe"));

    assertThat(s.within()).isEqualTo(new PairSummary.Within(2, 3, 4, 5));
    assertThat(s.withinShare(250)).isEqualTo(0.5);
  }

  @Test
  @DisplayName("a rung that finds nothing for 30 % of addresses shows a served-only share within its 99.9 % bound")
  void shouldCountFoundDisagreementWithinItsStatisticalBound() {
    SplittableRandom r = new SplittableRandom(30);
    PairStats stats = new PairStats();
    int n = 4_000;
    for (int i = 0; i < n; i++) {
      LonLat p = Samples.anywhere(r);
      LonLat shadow = r.nextDouble() < 0.30 ? null : Samples.east(p, 40);
      stats.record(Samples.sample(i, KEY.served(), KEY.shadow(), "describe", p, shadow, 300, 120));
    }

    PairSummary s = stats.summary(KEY);

    assertThat(s.samples()).isEqualTo(n);
    assertThat(s.shadowOnly()).isZero();
    assertThat(s.bothFound() + s.servedOnly()).isEqualTo(n);
    assertThat(Wilson.of(s.servedOnly(), n, 3.29).contains(0.30)).as("served_only %s of %s", s.servedOnly(), n).isTrue();
    assertThat(s.foundDisagreement()).isCloseTo(0.30, within(3.29 * Math.sqrt(0.3 * 0.7 / n)));
    // Distances are over the samples both found only.
    assertThat(s.within().m50()).isEqualTo(s.bothFound());
  }

  @Test
  @DisplayName("the latency ratio is the median shadow latency over the median served latency, not a ratio of means")
  void shouldDefineTheLatencyRatioByMedians() {
    PairStats stats = new PairStats();
    LonLat p = new LonLat(0, 0);
    for (int i = 0; i < 99; i++) {
      stats.record(Samples.sample(i, "a", "b", "describe", p, p, 300, 120));
    }
    // One shadow timeout: it would triple a ratio of means, and leaves the medians alone.
    stats.record(Samples.sample(99, "a", "b", "describe", p, null, 300, 60_000));

    PairSummary s = stats.summary(new PairKey("a", "b", "describe"));

    assertThat(s.latencyMs().servedP50()).isCloseTo(300, within(300 * 0.004));
    assertThat(s.latencyMs().shadowP50()).isCloseTo(120, within(120 * 0.004));
    assertThat(s.latencyRatio()).isCloseTo(0.4, within(0.004));
  }

  @Test
  @DisplayName("label similarity is the mean over samples both found with two labels")
  void shouldAverageTheLabelSimilarity() {
    PairStats stats = new PairStats();
    LonLat p = new LonLat(0, 0);
    stats.record(new ShadowSample(Samples.id(1), "describe", Samples.T0, Samples.found("a", p, 1, "10 Main St"),
        Samples.found("b", p, 1, "10 Main Street")));
    stats.record(new ShadowSample(Samples.id(2), "describe", Samples.T0, Samples.found("a", p, 1, "10 Main St"),
        Samples.found("b", p, 1, "12 Elm Rd")));
    stats.record(new ShadowSample(Samples.id(3), "describe", Samples.T0, Samples.found("a", p, 1, null),
        Samples.found("b", p, 1, "12 Elm Rd")));

    PairSummary s = stats.summary(new PairKey("a", "b", "describe"));

    assertThat(s.labelSamples()).isEqualTo(2);
    assertThat(s.labelSimilarity()).isEqualTo(0.5);
  }

  @Test
  @DisplayName("the window runs from the earliest to the latest sample, whatever order they came in")
  void shouldKeepTheWindow() {
    PairStats stats = new PairStats();
    LonLat p = new LonLat(0, 0);
    for (long t : new long[] {5_000, 1_000, 9_000, 3_000}) {
      stats.record(new ShadowSample(Samples.id((int) t), "describe", t, Samples.found("a", p, 1, null), Samples.missing("b", 1)));
    }

    assertThat(stats.summary(new PairKey("a", "b", "describe")).window()).isEqualTo(new PairSummary.Window(1_000, 9_000));
    assertThat(new PairStats().summary(new PairKey("a", "b", "describe")).window()).isNull();
  }

  @Test
  @DisplayName("antipodal distances are measured; latencies over ten minutes are kept at the range's top, not lost")
  void shouldMeasureAntipodesAndClampLongLatencies() {
    PairStats stats = new PairStats();
    stats.record(Samples.sample(1, "a", "b", "describe", new LonLat(0, 0), new LonLat(180, 0), 3_600_000, 0));

    PairSummary s = stats.summary(new PairKey("a", "b", "describe"));

    assertThat(s.distanceM().p50()).isCloseTo(20_015_115, within(20_015_115 * 0.004));
    assertThat(s.latencyMs().servedP50()).isCloseTo(600_000, within(600_000 * 0.004));
    assertThat(s.latencyMs().shadowP50()).isZero();
    assertThat(s.latencyRatio()).isPositive();
  }
}
