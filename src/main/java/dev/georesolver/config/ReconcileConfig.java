package dev.georesolver.config;

/**
 * The reconciler (manifest {@code reconcile:}): how degraded answers are re-resolved once the rungs
 * above them recover. Immutable and thread-safe.
 */
public final class ReconcileConfig extends Settings {

  /** The keys of {@code reconcile:}. */
  public static final Section<ReconcileConfig> SECTION = new Section<>(ReconcileConfig::new);

  /** Whether degraded answers are queued and reconciled at all; default true. */
  public static final Field<Boolean> ENABLED = SECTION.bool("enabled").byDefault(true);

  /** Items leased from the queue at a time; default 200. */
  public static final Field<Integer> BATCH = SECTION.ints("batch", 1, 100_000).byDefault(200);

  /** Upstream calls per second the reconciler makes at most, all tiers together; default 20. */
  public static final Field<Double> RATE_PER_S = SECTION.number("rate_per_s", Double.NEGATIVE_INFINITY,
      Double.POSITIVE_INFINITY).byDefault(20.0).check(r -> r > 0, "must be > 0");

  /**
   * The share of a tier's {@code rate_limit_per_s} the reconciler may use, (0, 1]: live traffic keeps
   * the rest; default 0.5. A tier without a rate limit is bounded by {@code rate_per_s} alone.
   */
  public static final Field<Double> MAX_SHARE = SECTION.number("max_share", Double.NEGATIVE_INFINITY,
      Double.POSITIVE_INFINITY).byDefault(0.5).check(r -> r > 0 && r <= 1, "must be in (0, 1]");

  /** The budget of one item's walk over the rungs above its served one, milliseconds; default 5,000 ms. */
  public static final Field<Long> BUDGET_MS = SECTION.longs("budget_ms", 1, 600_000).byDefault(5000L);

  /** Attempts that failed again before an item goes to the dead letter; default 8. */
  public static final Field<Integer> MAX_ATTEMPTS = SECTION.ints("max_attempts", 1, 1000).byDefault(8);

  /** How often the queue is looked at while healthy (backlog of an earlier run), milliseconds; default 10,000 ms. */
  public static final Field<Long> INTERVAL_MS = SECTION.longs("interval_ms", 10, 86_400_000).byDefault(10_000L);

  /** How long a leased item stays with its reconciler before another may claim it, milliseconds; default 60,000 ms. */
  public static final Field<Long> LEASE_MS = SECTION.longs("lease_ms", 100, 86_400_000).byDefault(60_000L);

  /** Base of the jittered exponential backoff after a failed attempt, milliseconds; default 5,000 ms. */
  public static final Field<Long> BACKOFF_BASE_MS = SECTION.longs("backoff_base_ms", 1, 86_400_000).byDefault(5000L);

  /** Cap of that backoff, milliseconds; default 600,000 ms (10 min). */
  public static final Field<Long> BACKOFF_MAX_MS = SECTION.longs("backoff_max_ms", 1, 86_400_000).byDefault(600_000L);

  /** Items walked at the same time (each still waits for its rate tokens); default 8. */
  public static final Field<Integer> CONCURRENCY = SECTION.ints("concurrency", 1, 1024).byDefault(8);

  static {
    SECTION.rule((v, at) -> {
      Long base = v.get(BACKOFF_BASE_MS);
      Long max = v.get(BACKOFF_MAX_MS);
      if (base != null && max != null && base > max) {
        at.problem(BACKOFF_BASE_MS.key(), "must be <= " + at.path(BACKOFF_MAX_MS.key()));
      }
    });
  }

  private ReconcileConfig(Settings read) {
    super(read);
  }

  /** See {@link #ENABLED}. */
  public boolean enabled() {
    return get(ENABLED);
  }

  /** See {@link #BATCH}. */
  public int batch() {
    return get(BATCH);
  }

  /** See {@link #RATE_PER_S}. */
  public double ratePerS() {
    return get(RATE_PER_S);
  }

  /** See {@link #MAX_SHARE}. */
  public double maxShare() {
    return get(MAX_SHARE);
  }

  /** See {@link #BUDGET_MS}. */
  public long budgetMs() {
    return get(BUDGET_MS);
  }

  /** See {@link #MAX_ATTEMPTS}. */
  public int maxAttempts() {
    return get(MAX_ATTEMPTS);
  }

  /** See {@link #INTERVAL_MS}. */
  public long intervalMs() {
    return get(INTERVAL_MS);
  }

  /** See {@link #LEASE_MS}. */
  public long leaseMs() {
    return get(LEASE_MS);
  }

  /** See {@link #BACKOFF_BASE_MS}. */
  public long backoffBaseMs() {
    return get(BACKOFF_BASE_MS);
  }

  /** See {@link #BACKOFF_MAX_MS}. */
  public long backoffMaxMs() {
    return get(BACKOFF_MAX_MS);
  }

  /** See {@link #CONCURRENCY}. */
  public int concurrency() {
    return get(CONCURRENCY);
  }
}
