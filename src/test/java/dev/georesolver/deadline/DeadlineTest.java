package dev.georesolver.deadline;

import dev.georesolver.support.FakeClock;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A request's deadline on a fake monotonic clock. */
class DeadlineTest {

  private final FakeClock clock = new FakeClock();

  @Test
  void shouldHaveTheWholeBudgetLeftWhenCreated() {
    Deadline d = Deadline.in(clock, 2500);

    assertThat(d.remainingMs()).isEqualTo(2500);
    assertThat(d.remainingMs()).as("not expired").isPositive();
  }

  @Test
  void shouldCountDownAsTheClockAdvances() {
    Deadline d = Deadline.in(clock, 1000);

    clock.advanceMs(400);

    assertThat(d.remainingMs()).isEqualTo(600);
    assertThat(d.toString()).isEqualTo("Deadline[600 ms left]");
  }

  @Test
  void shouldRoundDownToWholeMilliseconds() {
    Deadline d = Deadline.in(clock, 1000);

    clock.advance(Duration.ofNanos(400_500_000));

    assertThat(d.remainingMs()).isEqualTo(599);
  }

  @Test
  void shouldBeExpiredWhenLessThanAWholeMillisecondIsLeft() {
    Deadline d = Deadline.in(clock, 10);

    clock.advance(Duration.ofNanos(9_000_001));
    assertThat(d.remainingMs()).isZero();
    assertThat(d.remainingMs()).as("expired").isLessThanOrEqualTo(0);
  }

  @Test
  void shouldNotBeExpiredWithOneWholeMillisecondLeft() {
    Deadline d = Deadline.in(clock, 10);

    clock.advanceMs(9);

    assertThat(d.remainingMs()).isEqualTo(1);
    assertThat(d.remainingMs()).as("not expired").isPositive();
  }

  @Test
  void shouldBeExpiredExactlyAtTheDeadline() {
    Deadline d = Deadline.in(clock, 10);

    clock.advanceMs(10);

    assertThat(d.remainingMs()).isZero();
    assertThat(d.remainingMs()).as("expired").isLessThanOrEqualTo(0);
  }

  @Test
  void shouldGoNegativeOnceExpiredFlooringTowardsMinusInfinity() {
    Deadline d = Deadline.in(clock, 10);

    clock.advance(Duration.ofNanos(10_000_001));
    assertThat(d.remainingMs()).as("1 ns past the deadline").isEqualTo(-1);

    clock.advanceMs(250);
    assertThat(d.remainingMs()).isEqualTo(-251);
    assertThat(d.remainingMs()).as("expired").isLessThanOrEqualTo(0);
  }

  @Test
  void shouldBeExpiredAtOnceWithAZeroBudget() {
    assertThat(Deadline.in(clock, 0).remainingMs()).as("expired").isLessThanOrEqualTo(0);
  }

  @Test
  void shouldBeExpiredAtOnceWithANegativeBudget() {
    Deadline d = Deadline.in(clock, -5);

    assertThat(d.remainingMs()).isEqualTo(-5);
    assertThat(d.remainingMs()).as("expired").isLessThanOrEqualTo(0);
  }
}
