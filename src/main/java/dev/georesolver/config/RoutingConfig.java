package dev.georesolver.config;

import dev.georesolver.provider.AdapterRegistry;

import java.util.List;
import java.util.regex.Pattern;

/** The manifest's {@code routing:} block. Immutable and thread-safe. */
public final class RoutingConfig extends Settings {

  /** The keys of {@code routing:}. */
  public static final Section<RoutingConfig> SECTION = new Section<>(RoutingConfig::new);

  /** Region names: lower case, so {@code EU} and {@code eu} cannot be taken for two regions. */
  private static final Pattern REGION_PATTERN = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,62}");

  /**
   * Where this deployment and its stores run ({@code eu}, {@code us-east}, …): the region of its
   * local rungs ({@code cached_index}, {@code gazetteer}) for tenants whose residency is strict;
   * default {@code global}.
   */
  public static final Field<String> REGION = SECTION.string("region").byDefault("global").check(RoutingConfig::regionProblem);

  /** Default request budget, milliseconds, at most {@code max_budget_ms}; default 2,500 ms. */
  public static final Field<Long> BUDGET_MS = SECTION.longs("budget_ms", 1, Long.MAX_VALUE).byDefault(2500L);

  /** Cap on a caller's budget, milliseconds (over it is capped, not refused); default 10,000 ms. */
  public static final Field<Long> MAX_BUDGET_MS = SECTION.longs("max_budget_ms", 1, Long.MAX_VALUE).byDefault(10_000L)
      .readAtStart("the servers' idle timeout is set from it");

  /**
   * A rung is skipped when the time it may use is below this factor times its typical latency,
   * 0–10; default 0.5.
   */
  public static final Field<Double> ADMISSION_FACTOR = SECTION.number("admission_factor", 0, 10).byDefault(0.5)
      .redeploysTiers();

  /** The idempotency store; each field defaults on its own ({@link IdempotencyConfig}). */
  public static final Field<IdempotencyConfig> IDEMPOTENCY = SECTION.section("idempotency", IdempotencyConfig.SECTION)
      .byDefault(IdempotencyConfig.SECTION.defaults()).readAtStart("the idempotency store is open");

  /** The time the resolver keeps for itself, and the waits outside a request's budget ({@link MarginsConfig}). */
  public static final Field<MarginsConfig> MARGINS = SECTION.section("margins", MarginsConfig.SECTION)
      .byDefault(MarginsConfig.SECTION.defaults()).readAtStart("every part's margins are set at start");

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
    SECTION.rule((v, at) -> {
      String region = v.get(REGION);
      List<TierConfig> tiers = v.get(TIERS);
      if (region == null || tiers == null) {
        return;
      }
      for (int i = 0; i < tiers.size(); i++) {
        TierConfig t = tiers.get(i);
        if (t.adapter() != null && AdapterRegistry.isLocal(t.adapter()) && t.region() != null && !t.region().equals(region)) {
          at.problem(TIERS.key() + "[" + i + "]." + TierConfig.REGION.key(), "is '" + t.region()
              + "', but a local rung runs where the deployment runs: " + at.path(REGION.key()) + " is '" + region + "'");
        }
      }
    });
  }

  /** What is wrong with a region name, or null. */
  static String regionProblem(String region) {
    return REGION_PATTERN.matcher(region).matches() ? null : "must match " + REGION_PATTERN.pattern();
  }

  private RoutingConfig(Settings read) {
    super(read);
  }

  /** See {@link #REGION}. */
  public String region() {
    return get(REGION);
  }

  /**
   * The region a tier's provider runs in: its own {@code region}, and for a local rung the
   * deployment's ({@link #region()}).
   */
  public String regionOf(TierConfig tier) {
    return tier.region() != null ? tier.region() : region();
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
