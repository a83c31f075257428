package dev.georesolver.shadow;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

/** The report's tables and sentences. */
class ShadowReportTest {

  private static final String SERVED = "primary_commercial";
  private static final String SHADOW = "osm_nominatim";

  /**
   * {@code n} samples; the shadow rung answers within 120 m for {@code near} of them, 2 km away for
   * the rest it finds, and finds nothing for {@code missing}; served 310 ms, shadow 124 ms.
   */
  private static PairSummary pair(int n, int near, int missing) {
    PairStats stats = new PairStats();
    SplittableRandom r = new SplittableRandom(n);
    for (int i = 0; i < n; i++) {
      LonLat p = Samples.anywhere(r);
      LonLat q = i < missing ? null : i < missing + near ? Samples.east(p, 120) : Samples.east(p, 2_000);
      stats.record(Samples.sample(i, SERVED, SHADOW, "describe", p, q, 310, 124));
    }
    return stats.summary(new PairKey(SERVED, SHADOW, "describe"));
  }

  @Test
  @DisplayName("the plain sentence: within 250 m for a share of the sampled addresses, at a ratio of its latency")
  void shouldSayTheSentenceOfTheIssue() {
    PairSummary p = pair(4_210, 4_042, 0);

    assertThat(ShadowReport.sentence(p))
        .isEqualTo("osm_nominatim lands within 250 m of primary_commercial for 96 % of 4,210 sampled addresses, at 0.4× its latency.");
  }

  @Test
  @DisplayName("the table shows the 120 m stand-in as 120 m at p50, p90 and p99, with counts and the window")
  void shouldShowTheStandInsDistanceInTheTable() {
    String table = ShadowReport.table(pair(500, 500, 0));

    assertThat(table).contains("primary_commercial → osm_nominatim")
        .contains("distance p50/p90/p99  120 m / 120 m / 120 m")
        .contains("within                50 m 0 % · 250 m 100 % · 1 km 100 % · 5 km 100 %")
        .contains("both 500 · served only 0 · shadow only 0 · neither 0")
        .contains("served 310 ms · shadow 124 ms · ratio 0.4×")
        .contains("2026-01-01T00:00:00Z to 2026-01-01T00:08:19Z");
  }

  @Test
  @DisplayName("when the shadow rung misses some, the share is of those both found and the misses are counted")
  void shouldSayWhatTheShareIsOfWhenSomeWereNotFound() {
    PairSummary p = pair(4_210, 3_950, 80);

    assertThat(ShadowReport.sentence(p)).isEqualTo("osm_nominatim lands within 250 m of primary_commercial for 96 % of the"
        + " 4,130 sampled addresses both found, at 0.4× its latency; it found nothing for 80 (1.9 %) that primary_commercial found.");
  }

  @Test
  @DisplayName("with few samples it gives the count and its 95 % interval, and says they are few")
  void shouldGiveTheIntervalWhenSamplesAreFew() {
    PairSummary p = pair(10, 9, 0);

    assertThat(ShadowReport.sentence(p)).isEqualTo("osm_nominatim lands within 250 m of primary_commercial for 9 of 10 sampled"
        + " addresses (60 %–98 % at 95 % confidence; few samples), at 0.4× its latency.");
  }

  @Test
  @DisplayName("a rung that rarely finds anything is said so first: the distances describe only those few")
  void shouldLeadWithARungThatRarelyFinds() {
    PairSummary p = pair(1_000, 60, 920);

    assertThat(ShadowReport.sentence(p)).isEqualTo("osm_nominatim found something for only 8.0 % of 1,000 sampled addresses;"
        + " where both found, it lands within 250 m of primary_commercial for 60 of the 80 sampled addresses both"
        + " found (65 %–83 % at 95 % confidence; few samples), at 0.4× its latency.");
  }

  @Test
  @DisplayName("when most answers lie beyond 250 m, the sentence gives the median distance")
  void shouldGiveTheMedianWhenMostLieFar() {
    PairSummary p = pair(400, 100, 0);

    assertThat(ShadowReport.sentence(p)).isEqualTo("osm_nominatim lands within 250 m of primary_commercial for 25 % of 400"
        + " sampled addresses, a median 2.0 km away, at 0.4× its latency.");
  }

  @Test
  @DisplayName("no samples, or none both found: it says so and gives no distance")
  void shouldSaySoWithoutSamplesOrWithoutAnyBothFound() {
    assertThat(ShadowReport.sentence(new PairStats().summary(new PairKey(SERVED, SHADOW, "describe"))))
        .isEqualTo("No samples yet of osm_nominatim in the shadow of primary_commercial.");
    PairSummary none = pair(30, 0, 30);
    assertThat(ShadowReport.sentence(none)).isEqualTo("osm_nominatim and primary_commercial never both found an address in"
        + " 30 sampled addresses (primary_commercial found 30, osm_nominatim 0), so there is no distance to give.");
    assertThat(ShadowReport.table(none)).doesNotContain("distance").doesNotContain("within");
    assertThat(ShadowReport.text(List.of())).startsWith("No shadow samples yet");
  }

  @Test
  @DisplayName("near-certain shares are not rounded to all or none")
  void shouldNotRoundNearlyAllToAll() {
    assertThat(Figures.percent(0.996)).isEqualTo("99.6 %");
    assertThat(Figures.percent(0.99996)).isEqualTo(">99.9 %");
    assertThat(Figures.percent(0.003)).isEqualTo("0.3 %");
    assertThat(Figures.percent(0.0001)).isEqualTo("<0.1 %");
    assertThat(Figures.percent(1)).isEqualTo("100 %");
    assertThat(Figures.percent(0.96)).isEqualTo("96 %");
    assertThat(Figures.percent(0.019)).isEqualTo("1.9 %");
    assertThat(Figures.percent(0.0996)).isEqualTo("10 %");
  }

  @Test
  @DisplayName("the whole report has a heading and each pair's table and sentence, in pair order (served, shadow, intent)")
  void shouldWriteEveryPairInOrder() {
    PairStats other = new PairStats();
    LonLat p = new LonLat(0, 0);
    other.record(Samples.sample(1, "osm_nominatim", "cached_index", "describe", p, p, 124, 0.05));
    String text = ShadowReport.text(List.of(pair(200, 200, 0), other.summary(new PairKey("osm_nominatim", "cached_index", "describe"))));

    assertThat(text).startsWith("Shadow samples: 201 over 2 pairs.\n");
    assertThat(text.indexOf("primary_commercial → osm_nominatim")).isGreaterThan(text.indexOf("osm_nominatim → cached_index"));
    assertThat(text).contains("cached_index lands within 250 m of osm_nominatim for 1 of 1 sampled address (21 %–100 % at 95 %"
        + " confidence; few samples), at <0.01× its latency.");
  }
}
