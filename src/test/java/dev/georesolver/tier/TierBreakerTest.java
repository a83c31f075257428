package dev.georesolver.tier;

import dev.georesolver.support.FakeClock;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.tier.TierBreaker.Force;
import dev.georesolver.tier.TierBreaker.Permit;
import dev.georesolver.tier.TierBreaker.State;
import dev.georesolver.tier.TierBreaker.Transition;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/** The breaker semantics of DESIGN §3 on a fake clock: no sleeping. */
class TierBreakerTest {

  private static final RuntimeException BOOM = new RuntimeException("boom");

  private final FakeClock clock = new FakeClock();
  private final List<Transition> transitions = new ArrayList<>();
  private TierBreaker breaker;

  @BeforeEach
  void setUp() {
    breaker = new TierBreaker("primary", ManifestBuilder.breaker("failure_threshold: 3", "half_open_timeout_ms: 10000", "success_threshold: 2"), clock, transitions::add);
  }

  private void fail(int n) {
    for (int i = 0; i < n; i++) {
      Permit p = breaker.tryAcquire();
      assertThat(p).as("permit for failure %d", i).isNotNull();
      breaker.onFailure(p, 5, BOOM);
    }
  }

  private void succeed(int n) {
    for (int i = 0; i < n; i++) {
      Permit p = breaker.tryAcquire();
      assertThat(p).as("permit for success %d", i).isNotNull();
      breaker.onSuccess(p, 5);
    }
  }

  @Test
  void shouldOpenAfterFailureThresholdConsecutiveFailures() {
    fail(2);
    assertThat(breaker.state()).isEqualTo(State.CLOSED);
    fail(1);
    assertThat(breaker.state()).isEqualTo(State.OPEN);
    assertThat(breaker.tryAcquire()).isNull();
    assertThat(transitions).extracting(Transition::to).containsExactly(State.OPEN);
    assertThat(transitions.get(0).tier()).isEqualTo("primary");
  }

  @Test
  void shouldNotOpenWhenASuccessBreaksTheRunOfFailures() {
    fail(2);
    succeed(1);
    fail(2);
    assertThat(breaker.state()).isEqualTo(State.CLOSED);
    fail(1);
    assertThat(breaker.state()).isEqualTo(State.OPEN);
  }

  @Test
  void shouldStayOpenUntilHalfOpenTimeoutThenLetTrialCallsThrough() {
    fail(3);
    clock.advanceMs(9_999);
    assertThat(breaker.tryAcquire()).isNull();
    clock.advanceMs(2);
    Permit p = breaker.tryAcquire();
    assertThat(p).isNotNull();
    assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
  }

  @Test
  void shouldLetOnlySuccessThresholdTrialCallsThroughInHalfOpen() {
    fail(3);
    clock.advanceMs(10_001);
    assertThat(breaker.tryAcquire()).isNotNull();
    assertThat(breaker.tryAcquire()).isNotNull();
    assertThat(breaker.tryAcquire()).isNull();
  }

  @Test
  void shouldCloseOnlyAfterSuccessThresholdSuccessesInHalfOpen() {
    fail(3);
    clock.advanceMs(10_001);
    succeed(1);
    assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
    succeed(1);
    assertThat(breaker.state()).isEqualTo(State.CLOSED);
    assertThat(transitions).extracting(Transition::to).containsExactly(State.OPEN, State.HALF_OPEN, State.CLOSED);
    assertThat(transitions.get(2).reason()).isEqualTo("success_threshold_reached");
  }

  @Test
  void shouldReopenOnTheFirstFailureInHalfOpen() {
    fail(3);
    clock.advanceMs(10_001);
    succeed(1);
    fail(1);
    assertThat(breaker.state()).isEqualTo(State.OPEN);
    assertThat(transitions.get(transitions.size() - 1).reason()).isEqualTo("failure_in_half_open");
    clock.advanceMs(9_000);
    assertThat(breaker.tryAcquire()).as("reopened breaker waits the full timeout again").isNull();
  }

  @Test
  void shouldIgnoreAResultFromACallStartedBeforeTheLastTransition() {
    Permit slow = breaker.tryAcquire();
    fail(3);
    clock.advanceMs(10_001);
    succeed(1);
    // The slow call from the closed era fails now: it must not reopen the half-open breaker.
    breaker.onFailure(slow, 20_000, BOOM);
    assertThat(breaker.state()).isEqualTo(State.HALF_OPEN);
    succeed(1);
    assertThat(breaker.state()).isEqualTo(State.CLOSED);
  }

  @Test
  void shouldIgnoreAStaleSuccessSoItCannotCloseAReopenedBreaker() {
    fail(3);
    clock.advanceMs(10_001);
    Permit trial = breaker.tryAcquire();
    fail(1);
    assertThat(breaker.state()).isEqualTo(State.OPEN);
    breaker.onSuccess(trial, 5);
    assertThat(breaker.state()).isEqualTo(State.OPEN);
  }

  @Test
  void shouldHoldOpenForRetryAfterEvenBelowTheThreshold() {
    fail(1);
    breaker.holdOpenFor(Duration.ofSeconds(60));
    assertThat(breaker.state()).isEqualTo(State.OPEN);
    assertThat(transitions.get(0).reason()).isEqualTo("retry_after");
    clock.advanceMs(59_000);
    assertThat(breaker.tryAcquire()).isNull();
    clock.advanceMs(1_001);
    assertThat(breaker.tryAcquire()).isNotNull();
  }

  @Test
  void shouldNotShortenAnOpenPeriodWithAShorterRetryAfter() {
    fail(3);
    breaker.holdOpenFor(Duration.ofSeconds(1));
    clock.advanceMs(2_000);
    assertThat(breaker.tryAcquire()).as("still within the 10 s open period").isNull();
  }

  @Test
  void shouldExtendAnOpenPeriodWithALongerRetryAfter() {
    fail(3);
    breaker.holdOpenFor(Duration.ofSeconds(30));
    clock.advanceMs(10_001);
    assertThat(breaker.tryAcquire()).isNull();
    clock.advanceMs(20_000);
    assertThat(breaker.tryAcquire()).isNotNull();
  }

  @Test
  void shouldReturnAnUnusedPermitInHalfOpen() {
    fail(3);
    clock.advanceMs(10_001);
    Permit a = breaker.tryAcquire();
    Permit b = breaker.tryAcquire();
    breaker.release(b);
    assertThat(breaker.tryAcquire()).isNotNull();
    assertThat(a).isNotNull();
  }

  @Test
  void shouldRefuseEveryCallWhenForcedOpenUntilReleasedWhateverTheTime() {
    assertThat(breaker.force(Force.OPEN)).isEqualTo(State.FORCED_OPEN);
    assertThat(breaker.tryAcquire()).isNull();
    clock.advanceMs(3_600_000);
    assertThat(breaker.tryAcquire()).as("no half-open after any wait: the operator's word holds").isNull();
    assertThat(breaker.state()).isEqualTo(State.FORCED_OPEN);
    assertThat(breaker.releaseForce()).isEqualTo(State.CLOSED);
    assertThat(breaker.tryAcquire()).isNotNull();
  }

  @Test
  void shouldLetEveryCallThroughAndCountNoFailureWhenForcedClosed() {
    breaker.force(Force.CLOSED);
    fail(10);
    assertThat(breaker.state()).isEqualTo(State.FORCED_CLOSED);
    assertThat(breaker.tryAcquire()).isNotNull();
  }

  @Test
  void shouldCloseWithACleanWindowOnRelease() {
    fail(2);
    breaker.force(Force.OPEN);
    breaker.releaseForce();
    fail(2);
    assertThat(breaker.state()).as("the two failures before the force are forgotten").isEqualTo(State.CLOSED);
    fail(1);
    assertThat(breaker.state()).isEqualTo(State.OPEN);
  }

  @Test
  void shouldReleaseAnOpenBreakerForcedClosedToClosed() {
    fail(3);
    assertThat(breaker.state()).isEqualTo(State.OPEN);
    breaker.force(Force.CLOSED);
    assertThat(breaker.tryAcquire()).isNotNull();
    assertThat(breaker.releaseForce()).isEqualTo(State.CLOSED);
  }

  @Test
  void shouldIgnoreAResultOfACallStartedBeforeTheForce() {
    Permit before = breaker.tryAcquire();
    fail(2);
    breaker.force(Force.CLOSED);
    breaker.releaseForce();
    breaker.onFailure(before, 5, BOOM);
    fail(2);
    assertThat(breaker.state()).as("the failure of the call started before the force does not count").isEqualTo(State.CLOSED);
  }

  @Test
  void shouldKeepAForcedClosedBreakerClosedAgainstRetryAfter() {
    breaker.force(Force.CLOSED);
    breaker.holdOpenFor(Duration.ofSeconds(60));
    assertThat(breaker.state()).isEqualTo(State.FORCED_CLOSED);
    assertThat(breaker.tryAcquire()).isNotNull();
  }

  @Test
  void shouldPublishForcedTransitionsWithTheOperatorsReasons() {
    breaker.force(Force.OPEN);
    breaker.force(Force.OPEN);
    breaker.force(Force.CLOSED);
    breaker.releaseForce();
    breaker.releaseForce();
    assertThat(transitions).extracting(Transition::from, Transition::to, Transition::reason).containsExactly(
        tuple(State.CLOSED, State.FORCED_OPEN, "force_open"),
        tuple(State.FORCED_OPEN, State.FORCED_CLOSED, "force_closed"),
        tuple(State.FORCED_CLOSED, State.CLOSED, "release"));
  }

  @Test
  void shouldLeaveABreakerThatIsNotForcedAsItIsOnRelease() {
    fail(3);
    assertThat(breaker.releaseForce()).isEqualTo(State.OPEN);
    assertThat(transitions).extracting(Transition::to).containsExactly(State.OPEN);
  }

  @Test
  void shouldNameEveryStateOnTheWireAndTellWhichRefuseCalls() {
    assertThat(State.values()).extracting(State::wire)
        .containsExactly("closed", "open", "half_open", "forced_open", "forced_closed");
    assertThat(State.values()).filteredOn(State::refusesCalls).containsExactly(State.OPEN, State.FORCED_OPEN);
    assertThat(State.values()).filteredOn(State::forced).containsExactly(State.FORCED_OPEN, State.FORCED_CLOSED);
    for (State st : State.values()) {
      assertThat(State.fromWire(st.wire())).contains(st);
    }
  }
}
