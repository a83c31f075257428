package dev.georesolver.config;

import java.util.List;

/** The manifest's {@code routing:} block. Immutable and thread-safe. */
public final class RoutingConfig extends Settings {

  /** The keys of {@code routing:}. */
  public static final Section<RoutingConfig> SECTION = new Section<>(RoutingConfig::new);

  /** Default request budget, milliseconds, at most {@code max_budget_ms}; default 2,500 ms. */
  public static final Field<Long> BUDGET_MS = SECTION.longs("budget_ms", 1, Long.MAX_VALUE).byDefault(2500L);

  /** Cap on a caller's budget, milliseconds (over it is capped, not refused); default 10,000 ms. */
  public static final Field<Long> MAX_BUDGET_MS = SECTION.longs("max_budget_ms", 1, Long.MAX_VALUE).byDefault(10_000L);

  /**
   * A rung is skipped when the time it may use is below this factor times its typical latency,
   * 0–10; default 0.5.
   */
  public static final Field<Double> ADMISSION_FACTOR = SECTION.number("admission_factor", 0, 10).byDefault(0.5);

  /** The idempotency store; each field defaults on its own ({@link IdempotencyConfig}). */
  public static final Field<IdempotencyConfig> IDEMPOTENCY = SECTION.section("idempotency", IdempotencyConfig.SECTION)
      .byDefault(IdempotencyConfig.SECTION.defaults());

  /** The time the resolver keeps for itself, and the waits outside a request's budget ({@link MarginsConfig}). */
  public static final Field<MarginsConfig> MARGINS = SECTION.section("margins", MarginsConfig.SECTION)
      .byDefault(MarginsConfig.SECTION.defaults());

  /**
   * Every tier in ladder order, names unique, including ones left out at start (see
   * {@link Manifest#enabledTiers()}); required, not empty.
   */
  public static final Field<List<TierConfig>> TIERS = SECTION.list("tiers", TierConfig.SECTION, TierConfig.NAME).required();

  static {
    SECTION.rule((v, at) -> {
      Long budget = v.get(BUDGET_MS);
      Long max = v.get(MAX_BUDGET_MS);
      if (budget != null && max != null && budget > max) {
        at.problem(BUDGET_MS.key(), "must be <= " + at.path(MAX_BUDGET_MS.key()));
      }
    });
  }

  private RoutingConfig(Settings read) {
    super(read);
  }

  /** See {@link #BUDGET_MS}. */
  public long budgetMs() {
    return get(BUDGET_MS);
  }

  /** See {@link #MAX_BUDGET_MS}. */
  public long maxBudgetMs() {
    return get(MAX_BUDGET_MS);
  }

  /** See {@link #ADMISSION_FACTOR}. */
  public double admissionFactor() {
    return get(ADMISSION_FACTOR);
  }

  /** See {@link #IDEMPOTENCY}. */
  public IdempotencyConfig idempotency() {
    return get(IDEMPOTENCY);
  }

  /** See {@link #MARGINS}. */
  public MarginsConfig margins() {
    return get(MARGINS);
  }

  /** See {@link #TIERS}; unmodifiable. */
  public List<TierConfig> tiers() {
    return get(TIERS);
  }
}
