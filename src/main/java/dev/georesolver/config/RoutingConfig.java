package dev.georesolver.config;

import java.util.List;

/**
 * The manifest's {@code routing:} block.
 *
 * @param budgetMs default request budget, milliseconds
 * @param maxBudgetMs cap on a caller's budget, milliseconds (over it is capped, not refused)
 * @param admissionFactor a rung is skipped when the time it may use is below this factor times its
 *     typical latency; default {@value #DEFAULT_ADMISSION_FACTOR}
 * @param idempotency the idempotency store
 * @param tiers every tier in ladder order, including ones left out at start (see
 *     {@link Manifest#enabledTiers()})
 */
public record RoutingConfig(
    long budgetMs, long maxBudgetMs, double admissionFactor, IdempotencyConfig idempotency, List<TierConfig> tiers) {
  public static final long DEFAULT_BUDGET_MS = 2500;
  public static final long DEFAULT_MAX_BUDGET_MS = 10_000;
  public static final double DEFAULT_ADMISSION_FACTOR = 0.5;

  public RoutingConfig {
    tiers = List.copyOf(tiers);
  }
}
