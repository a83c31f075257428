package dev.georesolver.state.rules;

import dev.georesolver.bus.Debt;

import java.util.Objects;

/**
 * One item of the reconcile queue as every backend stores it: the debt and where it stands. Which
 * item follows which is decided by {@link QueueRules} alone. Immutable.
 *
 * @param key the debt key ({@link Debt#debtKey()}): one item per key, intent and direction
 * @param debt the degraded answer owed (the newest one received for the key)
 * @param state {@link QueueRules#PENDING}, {@link QueueRules#IN_PROGRESS}, {@link QueueRules#DONE}
 *     or {@link QueueRules#DEAD}
 * @param attempts the reconcile walks that failed
 * @param notBeforeMs epoch ms before which a pending item is not leased (its backoff), 0 for none
 * @param leaseOwner the reconciler holding it while in progress, else null
 * @param leaseUntilMs epoch ms its lease ends while in progress, else null
 * @param acceptedAtMs when it joined the queue (epoch ms): the queue drains oldest first, and the
 *     oldest open item's age is the backlog's age
 * @param outcome {@code corrected}, {@code confirmed} or {@code dead} once it ended, else null
 * @param lastError the last failure, bounded to {@link QueueRules#MAX_ERROR_CHARS}, or null
 * @param updatedAtMs when it last changed (epoch ms): done items are kept this long and then pruned
 */
public record QueueItem(String key, Debt debt, String state, int attempts, long notBeforeMs, String leaseOwner,
    Long leaseUntilMs, long acceptedAtMs, String outcome, String lastError, long updatedAtMs) {

  public QueueItem {
    Objects.requireNonNull(key, "key");
    Objects.requireNonNull(debt, "debt");
    Objects.requireNonNull(state, "state");
  }

  /** When the degraded answer it owes was resolved (a newer one replaces it). */
  public long answerResolvedAtMs() {
    return debt.answerResolvedAtMs();
  }

  /** Whether it still waits for a reconciler (pending or in progress). */
  public boolean open() {
    return QueueRules.PENDING.equals(state) || QueueRules.IN_PROGRESS.equals(state);
  }
}
