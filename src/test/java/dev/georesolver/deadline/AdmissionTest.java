package dev.georesolver.deadline;

import dev.georesolver.deadline.Admission.Decision;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Admission arithmetic (DESIGN §2): usable = left − reserve − backoff; admitted iff usable > 0 and
 * usable ≥ factor × typical; timeout = min(timeout_ms, usable).
 */
class AdmissionTest {

  @ParameterizedTest(name = "left {0}, reserve {1}, backoff {2}, typical {3}, factor {4}, timeout {5} -> admitted {6}, timeout {7}, usable {8}")
  @CsvSource(textBlock = """
      # left  reserve backoff typical factor timeout | admitted attemptTimeout usable
        1000,  0,      0,      400,    0.5,   1200,    true,    1000,         1000
        1000,  300,    100,    400,    0.5,   1200,    true,    600,          600
        5000,  0,      0,      400,    0.5,   1200,    true,    1200,         5000
        200,   0,      0,      400,    0.5,   1200,    true,    200,          200
        199,   0,      0,      400,    0.5,   1200,    false,   0,            199
        700,   400,    100,    400,    0.5,   1200,    true,    200,          200
        700,   400,    101,    400,    0.5,   1200,    false,   0,            199
        100,   0,      0,      333,    0.3,   1200,    true,    100,          100
        99,    0,      0,      333,    0.3,   1200,    false,   0,            99
        600,   0,      0,      300,    2.0,   1200,    true,    600,          600
        599,   0,      0,      300,    2.0,   1200,    false,   0,            599
        1,     0,      0,      400,    0.0,   1200,    true,    1,            1
        0,     0,      0,      400,    0.0,   1200,    false,   0,            0
        500,   500,    0,      1,      0.0,   1200,    false,   0,            0
        -50,   0,      0,      400,    0.5,   1200,    false,   0,            -50
        -50,   0,      0,      400,    0.0,   1200,    false,   0,            -50
        300,   400,    0,      400,    0.5,   1200,    false,   0,            -100
        """)
  void shouldDecideFromUsableTimeFactorAndTypical(long left, long reserve, long backoff, long typical, double factor,
      long timeout, boolean admitted, long attemptTimeout, long usable) {
    assertThat(Admission.decide(left, reserve, backoff, typical, factor, timeout))
        .isEqualTo(new Decision(admitted, attemptTimeout, usable));
  }

  @Test
  void shouldSkipARungWhoseUsableTimeIsBelowFactorTimesTypical() {
    Decision d = Admission.decide(1000, 600, 0, 1000, 0.5, 1200);

    assertThat(d.admitted()).isFalse();
    assertThat(d.attemptTimeoutMs()).isZero();
    assertThat(d.usableMs()).isEqualTo(400);
  }

  @Test
  @DisplayName("an admitted attempt never eats into the reserve kept for the rungs below")
  void shouldCapTheAttemptTimeoutAtTheUsableTime() {
    Decision d = Admission.decide(2000, 700, 50, 300, 0.5, 5000);

    assertThat(d.admitted()).isTrue();
    assertThat(d.attemptTimeoutMs() + 700 + 50).isEqualTo(2000);
  }

  @Test
  @DisplayName("with factor 0 any positive usable time is admitted, however slow the rung")
  void shouldAdmitAnyPositiveUsableTimeWithFactorZero() {
    assertThat(Admission.decide(1, 0, 0, 1_000_000, 0.0, 1200).admitted()).isTrue();
  }

  @Test
  void shouldUseTheTierTimeoutWhenTimeIsPlentiful() {
    assertThat(Admission.decide(10_000, 1000, 0, 300, 0.5, 1200).attemptTimeoutMs()).isEqualTo(1200);
  }

  @ParameterizedTest(name = "typical {0}, floor {1}, tier reply {2}, hop {3} -> share {4}")
  @CsvSource(textBlock = """
      # typical floor reply hop | share
        2,      10,   2,    2,    16
        5,      10,   2,    2,    16
        600,    10,   2,    2,    606
        0,      0,    0,    0,    0
        2,      0,    0,    0,    2
        2,      30,   1,    5,    41
        """)
  @DisplayName("a rung below is kept max(typical, floor) + its tier's reply margin + the two hops of its visit")
  void shouldKeepEachRungBelowAFloorItsReplyMarginAndItsHops(long typical, long floor, long reply, long hop, long share) {
    assertThat(Admission.share(typical, floor, reply, hop)).isEqualTo(share);
  }

  @Test
  @DisplayName("the rung being admitted adds the two hops of its own visit")
  void shouldChargeTheAdmittedRungsOwnHops() {
    assertThat(Admission.ownVisitMs(2)).isEqualTo(4);
    assertThat(Admission.ownVisitMs(0)).isZero();
  }

  @Test
  @DisplayName("a hung rung above a 2 ms gazetteer, at budget 1,000 ms: cut off with the gazetteer's share and the hops kept")
  void shouldLeaveAFastLocalRungARealChanceBelowAHungOne() {
    long reserve = Admission.share(2, 10, 2, 2) + Admission.ownVisitMs(2);
    Decision hung = Admission.decide(1000 - 5, reserve, 0, 300, 0.5, 5000);
    assertThat(hung.attemptTimeoutMs()).isEqualTo(995 - 20);
    // What the gazetteer has left if the hung rung used all of its time and every hop its allowance.
    long leftForGazetteer = reserve - Admission.ownVisitMs(2);
    Decision gazetteer = Admission.decide(leftForGazetteer - 2, 0, 0, 2, 0.5, 200);
    assertThat(gazetteer.admitted()).isTrue();
    assertThat(gazetteer.attemptTimeoutMs()).isGreaterThanOrEqualTo(10);
  }

  @Test
  @DisplayName("a rung below needs factor x its median, its tier's reply margin and its two hops to still be admitted")
  void shouldNeedWhatAdmissionAsks() {
    assertThat(Admission.need(2, 0.5, 2, 2)).isEqualTo(1 + 2 + 4);
    assertThat(Admission.need(5, 0.5, 2, 2)).as("rounded up").isEqualTo(3 + 2 + 4);
    assertThat(Admission.need(100, 0.0, 0, 0)).isZero();
  }

  @Test
  @DisplayName("the walker waits for a rung until only what the rungs below need is left, later than the tier's own cut-off")
  void shouldWaitForAVisitUntilOnlyWhatTheRungsBelowNeedIsLeft() {
    long reserve = Admission.share(2, 25, 2, 2) + Admission.ownVisitMs(2);
    long needed = Admission.need(2, 0.5, 2, 2);
    assertThat(Admission.visitWaitMs(995, needed)).isEqualTo(995 - 7);
    assertThat(Admission.visitWaitMs(995, 0)).as("nothing below: all of it").isEqualTo(995);
    Decision hung = Admission.decide(995 - 2, reserve, 0, 300, 0.5, 5000);
    assertThat(Admission.visitWaitMs(995, needed) - hung.attemptTimeoutMs())
        .as("ms the hung rung's tier may answer late before the walker stops waiting").isEqualTo(995 - 7 - (993 - 35));
    Decision gazetteer = Admission.decide(needed - 2, 0, 0, 2, 0.5, 200);
    assertThat(gazetteer.admitted()).as("what is left when the walker stops waiting still admits the rung below").isTrue();
  }
}
