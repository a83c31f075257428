/**
 * Degraded mode that pays its debts. Pure rules, unit-tested without Vert.x:
 * {@link dev.georesolver.state.rules.Debts} (what is a debt), {@link dev.georesolver.reconcile.Verdict}
 * (what a walk over the rungs above comes to), {@link dev.georesolver.state.rules.Corrections} (the
 * outbox rules: identity, newer wins, write-through), {@link dev.georesolver.state.rules.Lease},
 * {@link dev.georesolver.reconcile.RetryBackoff}, {@link dev.georesolver.reconcile.TokenBucket},
 * {@link dev.georesolver.reconcile.RateWindow}. And the two parts that run:
 * {@link dev.georesolver.reconcile.DebtBuffer} (a chain instance's debts on their way to the queue)
 * and the {@link dev.georesolver.reconcile.ReconcilerVerticle} (drains the queue when a breaker
 * closes, oldest first, within its share of each tier's rate limit). The ladder an item walks is
 * the chain's own ({@code chain.Ladders}).
 */
package dev.georesolver.reconcile;
