package dev.georesolver.reconcile;

import dev.georesolver.state.rules.Debts;
import dev.georesolver.bus.Attempt;

import java.util.List;

/**
 * What one reconcile walk over the rungs above an item comes to. Pure.
 *
 * <ul>
 *   <li>{@link #CORRECT}: a rung answered — the answer replaces the degraded one, whatever the distance;
 *   <li>{@link #CONFIRM}: every rung above was asked and found nothing — the degraded answer stands,
 *       no event;
 *   <li>{@link #RELEASE}: no rung was called (breakers open, rate limit, no time): the item goes back
 *       without counting an attempt;
 *   <li>{@link #RETRY}: a rung was called and failed again — back to the queue with backoff, or to
 *       the dead letter after the last attempt.
 * </ul>
 */
public enum Verdict {
  CORRECT,
  CONFIRM,
  RELEASE,
  RETRY;

  /**
   * The verdict of a walk.
   *
   * @param attempts the walk's rung visits, in order (a hit ends the walk)
   * @param rungsAbove how many rungs are above the served one (every one must have been asked to confirm)
   */
  public static Verdict of(List<Attempt> attempts, int rungsAbove) {
    if (attempts.stream().anyMatch(a -> a.outcome().equals("hit"))) {
      return CORRECT;
    }
    long nothing = attempts.stream().filter(a -> Debts.foundNothing(a.outcome())).count();
    if (nothing == rungsAbove && attempts.size() == rungsAbove) {
      return CONFIRM;
    }
    boolean called = attempts.stream().anyMatch(a -> a.tries() > 0 && !Debts.foundNothing(a.outcome()));
    return called ? RETRY : RELEASE;
  }
}
