package dev.georesolver.config;

/**
 * The idempotency store (manifest {@code routing.idempotency:}, DESIGN §5 and §7).
 *
 * @param keyStrategy documentation only: how keys are made
 * @param ttlSeconds how long a served answer is kept for replay; default {@value #DEFAULT_TTL_SECONDS}
 * @param degradedTtlSeconds how long an answer from below the first eligible rung is kept, so a
 *     recovered primary is asked again soon; default {@value #DEFAULT_DEGRADED_TTL_SECONDS}
 * @param store {@code memory} (embedded default, one node) or {@code redis}
 * @param maxEntries bound on the in-process store; default {@value #DEFAULT_MAX_ENTRIES}
 * @param keyPrefix prefix of every Redis key; default {@value #DEFAULT_KEY_PREFIX}
 * @param commandTimeoutMs each Redis command's timeout, milliseconds; default
 *     {@value #DEFAULT_COMMAND_TIMEOUT_MS}
 * @param indexTtlSeconds how long a cached-index entry lives without being refreshed; default
 *     {@value #DEFAULT_INDEX_TTL_SECONDS} (30 days)
 */
public record IdempotencyConfig(
    String keyStrategy, long ttlSeconds, long degradedTtlSeconds, String store, long maxEntries, String keyPrefix,
    long commandTimeoutMs, long indexTtlSeconds) {
  public static final long DEFAULT_COMMAND_TIMEOUT_MS = 100;
  public static final long DEFAULT_INDEX_TTL_SECONDS = 30L * 86_400;
  public static final long DEFAULT_TTL_SECONDS = 3600;
  public static final long DEFAULT_DEGRADED_TTL_SECONDS = 60;
  public static final long DEFAULT_MAX_ENTRIES = 100_000;
  public static final String DEFAULT_KEY_PREFIX = "geo:";

  /** Whether the store is Redis. */
  public boolean redis() {
    return "redis".equals(store);
  }
}
