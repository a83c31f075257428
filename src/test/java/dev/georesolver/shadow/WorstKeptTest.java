package dev.georesolver.shadow;

import dev.georesolver.geo.Claim;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bounds on kept disagreements: only disagreements, the worst first, at most the count, never older than the age, only allowed tenants. */
class WorstKeptTest {

  private static final WorstKept.Limits LIMITS = new WorstKept.Limits(3, 60_000, 100);
  private static final LonLat PARIS = new LonLat(2.35, 48.85);

  private static WorstKept.Case apart(String tenant, double eastDeg, long atMs, String query) {
    ShadowSample s = new ShadowSample(id(atMs), "describe", atMs,
        ShadowSample.Side.found("a", PARIS, "street", Claim.EXACT, 10, "here"),
        ShadowSample.Side.found("b", new LonLat(PARIS.lon() + eastDeg, PARIS.lat()), "street", Claim.EXACT, 12, "there"));
    return new WorstKept.Case(tenant, query, s);
  }

  private static WorstKept.Case shadowFoundNothing(String tenant, long atMs) {
    ShadowSample s = new ShadowSample(id(atMs), "describe", atMs,
        ShadowSample.Side.found("a", PARIS, "street", Claim.EXACT, 10, "here"), ShadowSample.Side.notFound("b", Claim.EXACT, 9));
    return new WorstKept.Case(tenant, "nowhere " + atMs, s);
  }

  private static String id(long n) {
    return String.format("%032x", n);
  }

  @Test
  void anAgreementIsNotKept() {
    WorstKept w = new WorstKept();
    // 0.001 degrees of longitude at 48.85° N is about 73 m: under the 100 m bound.
    assertThat(w.offer(apart("acme", 0.001, 1000, "close"), LIMITS, 1000)).isFalse();
    assertThat(w.size()).isZero();
  }

  @Test
  void theWorstAreKeptFirstAndTheCountHolds() {
    WorstKept w = new WorstKept();
    long now = 10_000;
    w.offer(apart("acme", 0.01, now, "730 m"), LIMITS, now);
    w.offer(apart("acme", 0.1, now + 1, "7.3 km"), LIMITS, now + 1);
    w.offer(apart("acme", 0.002, now + 2, "146 m"), LIMITS, now + 2);
    w.offer(shadowFoundNothing("acme", now + 3), LIMITS, now + 3);
    List<WorstKept.Case> kept = w.of(null, Map.of("acme", LIMITS), now + 4).get("acme");
    assertThat(kept).extracting(WorstKept.Case::query).containsExactly("nowhere 10003", "7.3 km", "730 m");
    assertThat(kept.get(1).distanceM()).isBetween(7300.0, 7360.0);
    assertThat(kept.get(0).toMap()).containsEntry("agreement", "served_only").containsEntry("distance_m", null);
  }

  @Test
  void nothingOlderThanTheAgeIsShown() {
    WorstKept w = new WorstKept();
    w.offer(apart("acme", 0.1, 1000, "old"), LIMITS, 1000);
    w.offer(apart("acme", 0.05, 50_000, "new"), LIMITS, 50_000);
    assertThat(w.of(null, Map.of("acme", LIMITS), 61_001).get("acme")).extracting(WorstKept.Case::query).containsExactly("new");
  }

  @Test
  void aTenantSeesOnlyItsOwnAndOneThatNoLongerAllowsItLosesAll() {
    WorstKept w = new WorstKept();
    w.offer(apart("acme", 0.1, 1000, "acme's"), LIMITS, 1000);
    w.offer(apart("beta", 0.1, 1000, "beta's"), LIMITS, 1000);
    Map<String, WorstKept.Limits> both = Map.of("acme", LIMITS, "beta", LIMITS);
    assertThat(w.of(Set.of("beta"), both, 2000)).containsOnlyKeys("beta");
    w.retain(Map.of("acme", LIMITS), 2000);
    assertThat(w.of(null, both, 2000)).containsOnlyKeys("acme");
    assertThat(w.size()).isEqualTo(1);
  }

  @Test
  void aShrunkCountApplies() {
    WorstKept w = new WorstKept();
    for (int i = 0; i < 3; i++) {
      w.offer(apart("acme", 0.01 * (i + 1), 1000 + i, "case " + i), LIMITS, 1000 + i);
    }
    w.retain(Map.of("acme", new WorstKept.Limits(1, 60_000, 100)), 2000);
    assertThat(w.size()).isEqualTo(1);
  }

  @Test
  void limitsAreChecked() {
    assertThatThrownBy(() -> new WorstKept.Limits(0, 1, 0)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new WorstKept.Limits(1, 1, -1)).isInstanceOf(IllegalArgumentException.class);
  }
}
