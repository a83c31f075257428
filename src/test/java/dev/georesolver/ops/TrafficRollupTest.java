package dev.georesolver.ops;

import dev.georesolver.metrics.Metrics;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The per-second figures of the operator's view, from cumulative readings: no Vert.x, no clock. */
class TrafficRollupTest {

  private static final double[] BOUNDS = {1, 2, 4, 8, 16};

  /** A reading: resolved answers by source, refusals, replays, and latency counts per bucket (not cumulative) plus those above 16 ms. */
  private static Metrics.Reading reading(Map<String, Long> bySource, long refused, long replayed, long[] perBucket, long over) {
    long[] cumulative = new long[perBucket.length];
    long sum = 0;
    for (int i = 0; i < perBucket.length; i++) {
      sum += perBucket[i];
      cumulative[i] = sum;
    }
    return new Metrics.Reading(bySource, refused, replayed, 0, new Metrics.Histogram(BOUNDS, cumulative, sum + over));
  }

  private static Metrics.Reading empty() {
    return reading(Map.of(), 0, 0, new long[5], 0);
  }

  @Test
  @DisplayName("the first reading is the baseline: what was delivered before it is not counted")
  void firstReadingIsTheBaseline() {
    TrafficRollup r = new TrafficRollup();
    JsonObject s = r.tick(reading(Map.of("primary", 500L), 20, 0, new long[] {100, 0, 0, 0, 0}, 0), 1_000);
    assertThat(s.getJsonObject("second").getLong("requests")).isZero();
    assertThat(s.getJsonObject("window").getValue("refusal_rate")).as("no result yet: no rate").isNull();
    assertThat(s.getJsonObject("window").getJsonObject("latency_ms").getValue("p50")).isNull();
  }

  @Test
  @DisplayName("a second's figures are the differences of two readings, by source, with refusals and replays")
  void secondIsTheDifference() {
    TrafficRollup r = new TrafficRollup();
    r.tick(reading(Map.of("primary", 10L), 1, 2, new long[] {11, 0, 0, 0, 0}, 0), 1_000);
    JsonObject s = r.tick(reading(Map.of("primary", 16L, "secondary", 3L), 2, 5, new long[] {21, 0, 0, 0, 0}, 0), 2_000);
    JsonObject second = s.getJsonObject("second");
    assertThat(second.getLong("requests")).isEqualTo(10);
    assertThat(second.getJsonObject("routing").getMap()).containsOnly(Map.entry("primary", 6L), Map.entry("secondary", 3L));
    assertThat(second.getLong("refused")).isEqualTo(1);
    assertThat(second.getLong("replayed")).isEqualTo(3);
    JsonObject w = s.getJsonObject("window");
    assertThat(w.getDouble("requests_per_s")).isEqualTo(10.0);
    assertThat(w.getDouble("refusal_rate")).isEqualTo(0.1);
    assertThat(w.getJsonObject("routing_share").getDouble("primary")).isEqualTo(0.6);
    assertThat(w.getJsonObject("routing_share").getDouble("secondary")).isEqualTo(0.3);
  }

  @Test
  @DisplayName("the request rate is per second of wall clock, however late the ticks come")
  void rateFollowsTheClock() {
    TrafficRollup r = new TrafficRollup();
    r.tick(empty(), 0);
    JsonObject s = r.tick(reading(Map.of("a", 30L), 0, 0, new long[] {30, 0, 0, 0, 0}, 0), 2_000);
    assertThat(s.getJsonObject("window").getDouble("requests_per_s")).isEqualTo(15.0);
    assertThat(s.getJsonObject("window").getLong("seconds")).isEqualTo(2);
  }

  @Test
  @DisplayName("the window holds the last ten ticks; what fell out of it no longer counts")
  void windowSlides() {
    TrafficRollup r = new TrafficRollup(10, 300);
    r.tick(empty(), 0);
    r.tick(reading(Map.of("a", 100L), 0, 0, new long[] {100, 0, 0, 0, 0}, 0), 1_000);
    JsonObject s = null;
    for (int t = 2; t <= 11; t++) {
      s = r.tick(reading(Map.of("a", 100L, "b", (t - 1) * 1L), 0, 0, new long[] {100 + t - 1, 0, 0, 0, 0}, 0), t * 1_000L);
    }
    JsonObject w = s.getJsonObject("window");
    assertThat(w.getJsonObject("routing_share").getMap()).containsOnlyKeys("b");
    assertThat(w.getDouble("requests_per_s")).isEqualTo(1.0);
  }

  @Test
  @DisplayName("percentiles interpolate inside their bucket; results above the last bound read as the last bound")
  void percentilesFromBuckets() {
    // 100 results: 50 in (0, 1], 40 in (1, 2], 9 in (2, 4], 1 in (8, 16].
    assertThat(TrafficRollup.percentile(BOUNDS, new long[] {50, 40, 9, 0, 1}, 0, 0.50)).isEqualTo(1.0);
    assertThat(TrafficRollup.percentile(BOUNDS, new long[] {50, 40, 9, 0, 1}, 0, 0.90)).isEqualTo(2.0);
    assertThat(TrafficRollup.percentile(BOUNDS, new long[] {50, 40, 9, 0, 1}, 0, 0.70)).isCloseTo(1.5, within(1e-9));
    assertThat(TrafficRollup.percentile(BOUNDS, new long[] {50, 40, 9, 0, 1}, 0, 0.995)).isCloseTo(12.0, within(1e-9));
    assertThat(TrafficRollup.percentile(BOUNDS, new long[] {0, 0, 0, 0, 0}, 3, 0.5)).isEqualTo(16.0);
    assertThat(TrafficRollup.percentile(BOUNDS, new long[5], 0, 0.5)).isNull();
  }

  @Test
  @DisplayName("window percentiles come from the latency buckets the window's seconds added")
  void windowPercentiles() {
    TrafficRollup r = new TrafficRollup();
    r.tick(reading(Map.of("a", 1000L), 0, 0, new long[] {1000, 0, 0, 0, 0}, 0), 0);
    JsonObject s = r.tick(reading(Map.of("a", 1100L), 0, 0, new long[] {1000, 0, 0, 100, 0}, 0), 1_000);
    JsonObject l = s.getJsonObject("window").getJsonObject("latency_ms");
    assertThat(l.getDouble("p50")).as("only the new results, all in (4, 8] ms").isEqualTo(6.0);
    assertThat(l.getDouble("p99")).as("7.96, to a tenth of a millisecond").isEqualTo(8.0);
  }

  @Test
  @DisplayName("the history keeps the last snapshots, oldest first, and hands out copies")
  void historyIsBounded() {
    TrafficRollup r = new TrafficRollup(10, 3);
    for (int t = 0; t < 5; t++) {
      r.tick(empty(), t * 1_000L);
    }
    assertThat(r.history()).hasSize(3);
    assertThat(r.history().getJsonObject(0).getLong("at_ms")).isEqualTo(2_000);
    r.history().getJsonObject(0).put("at_ms", -1);
    assertThat(r.history().getJsonObject(0).getLong("at_ms")).isEqualTo(2_000);
  }
}
