package dev.georesolver.config;

/**
 * A tier's circuit-breaker settings (manifest {@code routing.tiers[].circuit_breaker}). Immutable
 * and thread-safe.
 */
public final class BreakerConfig extends Settings {

  /** The keys of {@code circuit_breaker:}. */
  public static final Section<BreakerConfig> SECTION = new Section<>(BreakerConfig::new);

  /** Consecutive counted failures that open the breaker; default 5. */
  public static final Field<Integer> FAILURE_THRESHOLD =
      SECTION.ints("failure_threshold", 1, Integer.MAX_VALUE).byDefault(5);

  /** Milliseconds the breaker stays open before letting trial calls through; default 30,000 ms. */
  public static final Field<Long> HALF_OPEN_TIMEOUT_MS =
      SECTION.longs("half_open_timeout_ms", 1, Long.MAX_VALUE).byDefault(30_000L);

  /** Consecutive successes in half-open that close it (and the trial calls let through); default 3. */
  public static final Field<Integer> SUCCESS_THRESHOLD =
      SECTION.ints("success_threshold", 1, Integer.MAX_VALUE).byDefault(3);

  private static final BreakerConfig DEFAULTS = SECTION.defaults();

  private BreakerConfig(Settings read) {
    super(read);
  }

  /** Every field at its default. */
  public static BreakerConfig defaults() {
    return DEFAULTS;
  }

  /** See {@link #FAILURE_THRESHOLD}. */
  public int failureThreshold() {
    return get(FAILURE_THRESHOLD);
  }

  /** See {@link #HALF_OPEN_TIMEOUT_MS}. */
  public long halfOpenTimeoutMs() {
    return get(HALF_OPEN_TIMEOUT_MS);
  }

  /** See {@link #SUCCESS_THRESHOLD}. */
  public int successThreshold() {
    return get(SUCCESS_THRESHOLD);
  }
}
