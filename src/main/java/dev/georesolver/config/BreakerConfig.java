package dev.georesolver.config;

/**
 * A tier's circuit-breaker settings (manifest {@code circuit_breaker:}).
 *
 * @param failureThreshold consecutive counted failures that open the breaker; default
 *     {@value #DEFAULT_FAILURE_THRESHOLD}
 * @param halfOpenTimeoutMs milliseconds the breaker stays open before letting trial calls through;
 *     default {@value #DEFAULT_HALF_OPEN_TIMEOUT_MS}
 * @param successThreshold consecutive successes in half-open that close it (and the number of trial
 *     calls let through); default {@value #DEFAULT_SUCCESS_THRESHOLD}
 */
public record BreakerConfig(int failureThreshold, long halfOpenTimeoutMs, int successThreshold) {
  public static final int DEFAULT_FAILURE_THRESHOLD = 5;
  public static final long DEFAULT_HALF_OPEN_TIMEOUT_MS = 30_000;
  public static final int DEFAULT_SUCCESS_THRESHOLD = 3;

  /** The defaults. */
  public static BreakerConfig defaults() {
    return new BreakerConfig(DEFAULT_FAILURE_THRESHOLD, DEFAULT_HALF_OPEN_TIMEOUT_MS, DEFAULT_SUCCESS_THRESHOLD);
  }
}
