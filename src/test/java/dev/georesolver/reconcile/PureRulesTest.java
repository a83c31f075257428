package dev.georesolver.reconcile;

import dev.georesolver.state.rules.Corrections;
import dev.georesolver.state.rules.QueueItem;
import dev.georesolver.state.rules.QueueRules;
import dev.georesolver.bus.Correction;
import dev.georesolver.bus.Debt;
import dev.georesolver.bus.IndexEntry;
import dev.georesolver.bus.Repair;
import dev.georesolver.bus.ResolveResult;
import dev.georesolver.support.FakeClock;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Random;

import static dev.georesolver.reconcile.Samples.at;
import static dev.georesolver.reconcile.Samples.debt;
import static dev.georesolver.reconcile.Samples.repair;
import static org.assertj.core.api.Assertions.assertThat;

/** The reconciler's pure rules: backoff, verdicts, the outbox and newer-wins rules, leases, rate buckets. */
class PureRulesTest {

  @Test
  @DisplayName("backoff doubles from the base up to the cap, jittered within the upper half of each step")
  void backoff() {
    Random seeded = new Random(7);
    RetryBackoff b = new RetryBackoff(1000, 30_000, () -> seeded);
    assertThat(b.ceilingMs(1)).isEqualTo(1000);
    assertThat(b.ceilingMs(2)).isEqualTo(2000);
    assertThat(b.ceilingMs(5)).isEqualTo(16_000);
    assertThat(b.ceilingMs(6)).isEqualTo(30_000);
    assertThat(b.ceilingMs(200)).as("no overflow").isEqualTo(30_000);
    for (int n = 1; n < 10; n++) {
      for (int i = 0; i < 200; i++) {
        assertThat(b.delayMs(n)).isBetween(b.ceilingMs(n) / 2, b.ceilingMs(n));
      }
    }
    long first = b.delayMs(3);
    boolean varies = false;
    for (int i = 0; i < 50 && !varies; i++) {
      varies = b.delayMs(3) != first;
    }
    assertThat(varies).as("jittered").isTrue();
  }

  @Test
  @DisplayName("verdicts: a hit corrects, every rung finding nothing confirms, a failure retries, nothing called releases")
  void verdicts() {
    assertThat(Verdict.of(List.of(at("a", "transient"), at("b", "hit")), 2)).isEqualTo(Verdict.CORRECT);
    assertThat(Verdict.of(List.of(at("a", "no_match"), at("b", "rejected")), 2)).isEqualTo(Verdict.CONFIRM);
    assertThat(Verdict.of(List.of(at("a", "no_match")), 2)).as("one rung not asked").isEqualTo(Verdict.RELEASE);
    assertThat(Verdict.of(List.of(at("a", "no_match"), at("b", "transient")), 2)).isEqualTo(Verdict.RETRY);
    assertThat(Verdict.of(List.of(at("a", "skipped_breaker_open"), at("b", "skipped_rate_limited")), 2))
        .isEqualTo(Verdict.RELEASE);
    assertThat(Verdict.of(List.of(at("a", "skipped_breaker_open"), at("b", "no_match")), 2)).isEqualTo(Verdict.RELEASE);
  }

  @Test
  @DisplayName("a correction's identity is key + intent + direction + the degraded answer's resolved_at")
  void identity() {
    Debt d = debt("k", 1000, 2000);
    assertThat(Corrections.id(d)).isEqualTo(Corrections.id(debt("k", 1000, 9999))).hasSize(32);
    assertThat(Corrections.id(d)).isNotEqualTo(Corrections.id(debt("k", 1001, 2000)));
    assertThat(Corrections.id(d)).isNotEqualTo(Corrections.id(debt("k2", 1000, 2000)));
  }

  @Test
  @DisplayName("newer wins: a correction of the answer resolved at T1 never replaces an answer stored after T1")
  void newerWins() {
    assertThat(Corrections.replaces(null, 1000)).isTrue();
    assertThat(Corrections.replaces(1000L, 1000)).as("the degraded answer itself").isTrue();
    assertThat(Corrections.replaces(999L, 1000)).isTrue();
    assertThat(Corrections.replaces(1001L, 1000)).isFalse();
  }

  @Test
  @DisplayName("a correction that moves the point carries the components of where it moved to, in after and in the answer")
  void correctionCarriesTheNewComponents() {
    Correction c = Corrections.build(debt("k", 1000, 2000), Samples.repairWithAddress(5000, "addr1"));
    assertThat(c.movedM()).isPositive();
    assertThat(c.after().address()).isEqualTo(Samples.EIFFEL);
    assertThat(c.before().address().isEmpty()).isTrue();
    assertThat(ResolveResult.fromJson(c.answer().toJson()).address()).isEqualTo(Samples.EIFFEL);
    assertThat(c.toJson().getJsonObject("after").getJsonObject("address").getString("country_code")).isEqualTo("FR");
    assertThat(Correction.fromJson(c.toJson())).isEqualTo(c);
  }

  @Test
  @DisplayName("the correction says before and after, how far the point moved, and carries the answer replayed afterwards")
  void build() {
    Correction c = Corrections.build(debt("k", 1000, 2000), repair(5000, "addr1"));
    assertThat(c.before().resolutionSource()).isEqualTo("fallback");
    assertThat(c.before().resolvedAtMs()).isEqualTo(1000);
    assertThat(c.after().resolutionSource()).isEqualTo("primary");
    assertThat(c.after().claim()).isEqualTo("exact");
    assertThat(c.movedM()).isBetween(4000.0, 5000.0);
    ResolveResult again = ResolveResult.fromJson(c.answer().toJson());
    assertThat(again.degraded()).isFalse();
    assertThat(again.resolutionSource()).isEqualTo("primary");
    assertThat(again.idempotencyKey()).isEqualTo("k");
    assertThat(again.resolvedAtMs()).isEqualTo(5000);
    assertThat(Correction.fromJson(c.toJson())).isEqualTo(c);
    assertThat(c.toJson().getString("corrected_at")).isEqualTo("1970-01-01T00:00:05Z");
  }

  @Test
  @DisplayName("the cached index takes a correction only from exact and open-data rungs, and only with an address key")
  void writeThrough() {
    IndexEntry e = Corrections.indexEntry(repair(5000, "addr1"));
    assertThat(e.addrKey()).isEqualTo("addr1");
    assertThat(e.resolvedAtMs()).isEqualTo(5000);
    assertThat(Corrections.indexEntry(repair(5000, null))).isNull();
    Repair r = repair(5000, "addr1");
    Repair cached = new Repair("cache", "cached", true, r.hit(), r.notice(), r.attempts(), 5000, "rev", 1, "addr1", 1);
    assertThat(Corrections.indexEntry(cached)).isNull();
  }

  @Test
  @DisplayName("an item may be leased when due, or when its lease expired on the clock; only its holder settles it")
  void leaseExpiry() {
    FakeClock clock = new FakeClock();
    long now = clock.millis();
    QueueItem pending = QueueRules.enqueue(null, Samples.debt("k", 1, now), now);
    assertThat(QueueRules.claimable(pending, now)).isTrue();
    QueueItem backingOff = QueueRules.settle(QueueRules.lease(pending, "a", 1000, now), "a", QueueRules.Settlement.RETRY, now + 1,
        "x", now);
    assertThat(QueueRules.claimable(backingOff, now)).as("backing off").isFalse();
    QueueItem leased = QueueRules.lease(pending, "a", 30_000, now);
    assertThat(QueueRules.claimable(leased, clock.millis())).isFalse();
    clock.advanceMs(30_001);
    assertThat(QueueRules.claimable(leased, clock.millis())).as("expired lease").isTrue();
    QueueItem done = QueueRules.settle(leased, "a", QueueRules.Settlement.CONFIRMED, 0, null, now);
    assertThat(QueueRules.claimable(done, clock.millis())).isFalse();
    assertThat(QueueRules.held(leased, "a")).isTrue();
    assertThat(QueueRules.held(leased, "b")).isFalse();
    assertThat(QueueRules.held(done, "a")).isFalse();
    assertThat(QueueRules.settle(leased, "b", QueueRules.Settlement.CONFIRMED, 0, null, now)).as("not the holder").isNull();
  }

  @Test
  @DisplayName("token buckets give rate_per_s tokens a second and no more than the burst")
  void tokenBucket() {
    FakeClock clock = new FakeClock();
    TokenBucket b = new TokenBucket(10, 1, clock);
    assertThat(b.tryTake()).isTrue();
    assertThat(b.tryTake()).isFalse();
    assertThat(b.waitMs()).isEqualTo(100);
    clock.advanceMs(50);
    assertThat(b.waitMs()).isEqualTo(50);
    clock.advanceMs(50);
    assertThat(b.tryTake()).isTrue();
    clock.advanceMs(10_000);
    assertThat(b.tryTake()).isTrue();
    assertThat(b.tryTake()).as("the burst caps what accumulates").isFalse();
  }

  @Test
  @DisplayName("the drain rate counts events of the last window only")
  void rateWindow() {
    FakeClock clock = new FakeClock();
    RateWindow w = new RateWindow(10_000, clock);
    for (int i = 0; i < 50; i++) {
      w.record();
    }
    assertThat(w.perSecond()).isEqualTo(5.0);
    clock.advanceMs(10_001);
    assertThat(w.perSecond()).isZero();
  }
}
