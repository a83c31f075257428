package dev.georesolver.shadow;

import dev.georesolver.geo.Claim;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The advice on the ladder's order: a swap with its evidence, or the reasons for none. */
class AdvisorTest {

  private static final Advisor.Rung COMMERCIAL = new Advisor.Rung("primary_commercial", Claim.EXACT);
  private static final Advisor.Rung COMMERCIAL_B = new Advisor.Rung("second_commercial", Claim.EXACT);
  private static final Advisor.Rung NOMINATIM = new Advisor.Rung("osm_nominatim", Claim.OPEN_DATA);
  private static final Advisor.Rung CACHE = new Advisor.Rung("cached_index", Claim.CACHED);
  private static final Advisor.Rung GAZETTEER = new Advisor.Rung("world_gazetteer", Claim.LOCALITY);

  /**
   * {@code n} samples of {@code lower} in {@code upper}'s shadow: {@code near} of them within 120 m,
   * the others 2 km off, {@code missing} not found by the lower rung; medians {@code upperMs} and
   * {@code lowerMs}.
   */
  private static PairSummary evidence(Advisor.Rung upper, Advisor.Rung lower, String intent, int n, int near, int missing,
      double upperMs, double lowerMs) {
    PairStats stats = new PairStats();
    SplittableRandom r = new SplittableRandom(n + near);
    for (int i = 0; i < n; i++) {
      LonLat p = Samples.anywhere(r);
      LonLat q = i < missing ? null : i < missing + near ? Samples.east(p, 120) : Samples.east(p, 2_000);
      stats.record(Samples.sample(i, upper.name(), lower.name(), intent, p, q, upperMs, lowerMs));
    }
    return stats.summary(new PairKey(upper.name(), lower.name(), intent));
  }

  @Test
  @DisplayName("a lower rung of the same claim that agrees, finds as often and is faster is proposed above, as a diff")
  void shouldProposeASwapWithItsEvidence() {
    List<Advisor.Rung> ladder = List.of(COMMERCIAL, COMMERCIAL_B, NOMINATIM, GAZETTEER);
    List<PairSummary> pairs = List.of(evidence(COMMERCIAL, COMMERCIAL_B, "describe", 3_000, 2_990, 0, 400, 150));

    Advisor.Advice advice = Advisor.advise(ladder, pairs);

    assertThat(advice.changes()).isTrue();
    assertThat(advice.proposed()).containsExactly("second_commercial", "primary_commercial", "osm_nominatim", "world_gazetteer");
    assertThat(advice.diff()).isEqualTo("""
        --- routing.tiers (now)
        +++ routing.tiers (proposed)
        @@ -1,4 +1,4 @@
        +  - name: "second_commercial"
           - name: "primary_commercial"
        -  - name: "second_commercial"
           - name: "osm_nominatim"
           - name: "world_gazetteer"
        """);
    Advisor.Finding f = advice.findings().get(0);
    assertThat(f.verdict()).isEqualTo(Advisor.Verdict.PROPOSE);
    assertThat(f.evidence()).contains("3,000 samples", "99.7 % of 3,000 both found within 250 m", "95 % interval",
        "0.4× the latency of primary_commercial");
    assertThat(advice.text()).contains("not applied").contains("move second_commercial above primary_commercial");
    // The swap took both rungs; the next pair judged is osm_nominatim / world_gazetteer.
    assertThat(advice.findings()).extracting(Advisor.Finding::upper).containsExactly("primary_commercial", "osm_nominatim");
  }

  @Test
  @DisplayName("thin evidence is refused, however good it looks: 100 % of 50 samples is not enough")
  void shouldRefuseThinEvidence() {
    List<PairSummary> pairs = List.of(evidence(COMMERCIAL, COMMERCIAL_B, "describe", 50, 50, 0, 400, 150));

    Advisor.Advice advice = Advisor.advise(List.of(COMMERCIAL, COMMERCIAL_B), pairs);

    assertThat(advice.changes()).isFalse();
    assertThat(advice.diff()).isEmpty();
    Advisor.Finding f = advice.findings().get(0);
    assertThat(f.verdict()).isEqualTo(Advisor.Verdict.KEEP);
    assertThat(f.evidence()).contains("only 50 samples (at least 200 needed)")
        .contains("agreement within 250 m is at least 93 % at 95 % confidence (at least 95 % needed)");
    assertThat(advice.text()).startsWith("No change to the order of routing.tiers is warranted.");
  }

  @Test
  @DisplayName("enough samples but too little agreement, too many misses or too little speed each keep the order, named")
  void shouldNameEachFailedCriterion() {
    Advisor.Advice far = Advisor.advise(List.of(COMMERCIAL, COMMERCIAL_B),
        List.of(evidence(COMMERCIAL, COMMERCIAL_B, "describe", 2_000, 1_800, 0, 400, 150)));
    assertThat(far.findings().get(0).evidence()).contains("agreement within 250 m is at least 89 %");

    Advisor.Advice misses = Advisor.advise(List.of(COMMERCIAL, COMMERCIAL_B),
        List.of(evidence(COMMERCIAL, COMMERCIAL_B, "describe", 2_000, 1_900, 100, 400, 150)));
    assertThat(misses.findings().get(0).evidence()).contains("second_commercial finds less often: 5.0 % of samples fewer");

    Advisor.Advice slow = Advisor.advise(List.of(COMMERCIAL, COMMERCIAL_B),
        List.of(evidence(COMMERCIAL, COMMERCIAL_B, "describe", 2_000, 2_000, 0, 400, 360)));
    assertThat(slow.findings().get(0).evidence()).contains("second_commercial is not faster enough: 0.9× the latency");
    assertThat(List.of(far, misses, slow)).allMatch(a -> !a.changes());
  }

  @Test
  @DisplayName("a weaker claim is never proposed above a stronger one unless the operator allows it")
  void shouldKeepAStrongerClaimAboveAWeakerOne() {
    List<Advisor.Rung> ladder = List.of(COMMERCIAL, NOMINATIM);
    List<PairSummary> pairs = List.of(evidence(COMMERCIAL, NOMINATIM, "describe", 4_210, 4_200, 0, 310, 124));

    Advisor.Advice kept = Advisor.advise(ladder, pairs);
    assertThat(kept.changes()).isFalse();
    assertThat(kept.findings().get(0).verdict()).isEqualTo(Advisor.Verdict.QUALIFIES_BUT_WEAKER_CLAIM);
    assertThat(kept.findings().get(0).evidence()).contains("claims open_data, weaker than primary_commercial's exact");

    Advisor.Advice allowed = Advisor.advise(ladder, pairs, Advisor.Rule.DEFAULT.withAllowWeakerClaim(true));
    assertThat(allowed.proposed()).containsExactly("osm_nominatim", "primary_commercial");
  }

  @Test
  @DisplayName("the figures of every intent are summed; the reverse direction is used when it is the only one")
  void shouldSumIntentsAndReadTheReverseDirection() {
    List<PairSummary> split = new ArrayList<>();
    split.add(evidence(COMMERCIAL, COMMERCIAL_B, "describe", 150, 150, 0, 400, 150));
    split.add(evidence(COMMERCIAL, COMMERCIAL_B, "measure", 150, 150, 0, 400, 150));
    Advisor.Advice summed = Advisor.advise(List.of(COMMERCIAL, COMMERCIAL_B), split);
    assertThat(summed.changes()).isTrue();
    assertThat(summed.findings().get(0).evidence()).startsWith("300 samples");

    // Only the upper rung asked in the lower one's shadow: served second_commercial at 150 ms, shadow primary at 400.
    List<PairSummary> reverse = List.of(evidence(COMMERCIAL_B, COMMERCIAL, "describe", 1_000, 1_000, 0, 150, 400));
    Advisor.Advice read = Advisor.advise(List.of(COMMERCIAL, COMMERCIAL_B), reverse);
    assertThat(read.changes()).isTrue();
    assertThat(read.findings().get(0).evidence()).contains("second_commercial at 0.4× the latency of primary_commercial");
  }

  @Test
  @DisplayName("without any samples for a pair there is nothing to judge and nothing changes")
  void shouldKeepTheOrderWithoutEvidence() {
    Advisor.Advice advice = Advisor.advise(List.of(COMMERCIAL, NOMINATIM, CACHE, GAZETTEER), List.of());

    assertThat(advice.changes()).isFalse();
    assertThat(advice.findings()).hasSize(3).allMatch(f -> f.verdict() == Advisor.Verdict.KEEP);
    assertThat(advice.findings().get(0).evidence()).isEqualTo("No samples of osm_nominatim in the shadow of primary_commercial (or the reverse).");
    assertThatThrownBy(() -> Advisor.advise(List.of(COMMERCIAL, COMMERCIAL), List.of())).isInstanceOf(IllegalArgumentException.class);
  }
}
