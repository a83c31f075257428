package dev.georesolver.config;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * One tenant (manifest {@code tenants[]}): who may call, with which keys, for which intents, how
 * often, and where its addresses may go. Immutable and thread-safe.
 *
 * <pre>{@code
 * tenants:
 *   - id: "acme"
 *     keys: [ { sha256: "<hex of the key>" }, { env: "ACME_API_KEY" } ]
 *     region: "eu"
 *     residency: "strict"
 *     intents: [describe, measure]
 *     rate_limit_per_s: 100
 *     burst: 200
 *     admin: false
 *     batch_max_live_jobs: 4
 *     shadow_keep_worst: { count: 20, max_age_s: 604800, min_m: 250 }
 * }</pre>
 */
public final class TenantConfig extends Settings {

  /** Where a tenant's addresses may be sent. */
  public enum Residency {
    /** Any rung of the ladder. */
    NONE,
    /** Only rungs whose region is the tenant's: in-region tiers and the deployment's local rungs. */
    STRICT;

    /** The manifest's spelling. */
    public String wire() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** Tenant ids: safe as metric labels, log fields and store partition names. */
  public static final Pattern ID_PATTERN = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,62}");

  /** The keys of one {@code tenants:} entry. */
  public static final Section<TenantConfig> SECTION = new Section<>(TenantConfig::new);

  /** Unique tenant id ({@code [a-z0-9][a-z0-9_.-]{0,62}}); required. */
  public static final Field<String> ID = SECTION.string("id").required()
      .check(id -> ID_PATTERN.matcher(id).matches(), "must match " + ID_PATTERN.pattern());

  /** The keys that authenticate as this tenant ({@link TenantKeyConfig}); required, not empty. */
  public static final Field<List<TenantKeyConfig>> KEYS = SECTION.list("keys", TenantKeyConfig.SECTION, null).required();

  /** The tenant's region, compared with tiers' {@code region}; required when {@code residency} is strict. */
  public static final Field<String> REGION = SECTION.string("region").check(RoutingConfig::regionProblem);

  /** {@code none} (any rung) or {@code strict} (only rungs in the tenant's region); default {@code none}. */
  public static final Field<Residency> RESIDENCY = SECTION.choice("residency", List.of(Residency.values()), Residency::wire,
      text -> "must be none or strict").byDefault(Residency.NONE);

  /** The intents this tenant may ask for (each one the manifest defines); absent: every intent. */
  public static final Field<Set<String>> INTENTS = SECTION.strings("intents");

  /** Requests per second this tenant may make, refilled continuously; default 0, which means unlimited. */
  public static final Field<Double> RATE_LIMIT_PER_S = SECTION.number("rate_limit_per_s", Double.NEGATIVE_INFINITY,
      Double.POSITIVE_INFINITY).byDefault(0.0).check(r -> r >= 0, "must be >= 0 (0 means unlimited)");

  /**
   * Requests this tenant may make at once after being idle (the bucket's size), at least 1; default
   * {@code rate_limit_per_s} rounded up (at least 1).
   */
  public static final Field<Integer> BURST = SECTION.ints("burst", 1, Integer.MAX_VALUE)
      .defaultFrom(v -> v.get(RATE_LIMIT_PER_S) == null ? null : (int) Math.max(1, Math.min(Integer.MAX_VALUE,
          Math.ceil(v.get(RATE_LIMIT_PER_S)))));

  /**
   * Whether this tenant's keys may use the admin endpoints ({@code /admin/*}, {@code /v1/reconcile},
   * {@code /manifest}) and read other tenants' feeds; default false.
   */
  public static final Field<Boolean> ADMIN = SECTION.bool("admin").byDefault(false);

  /** Live batch jobs this tenant may hold at once; absent: {@code batch.tenant_max_live_jobs}. */
  public static final Field<Long> BATCH_MAX_LIVE_JOBS = SECTION.longs("batch_max_live_jobs", 1, 1_000_000);

  /** Rows this tenant's live batch jobs may hold together; absent: {@code batch.tenant_max_live_rows}. */
  public static final Field<Long> BATCH_MAX_LIVE_ROWS = SECTION.longs("batch_max_live_rows", 1, 1L << 40);

  /**
   * Whether shadow sampling may keep this tenant's worst disagreements, address and both answers
   * included, for investigation, within the bounds below; absent (the default): nothing of its addresses
   * is kept, only counts.
   */
  public static final Field<KeepWorst> SHADOW_KEEP_WORST = SECTION.section("shadow_keep_worst", KeepWorst.SECTION);

  static {
    SECTION.rule((v, at) -> {
      if (v.get(RESIDENCY) == Residency.STRICT && v.get(REGION) == null && !at.reported(REGION.key())) {
        at.problem(REGION.key(), "is required when residency is strict");
      }
    });
  }

  private TenantConfig(Settings read) {
    super(read);
  }

  /** See {@link #ID}. */
  public String id() {
    return get(ID);
  }

  /** See {@link #KEYS}; unmodifiable. */
  public List<TenantKeyConfig> keys() {
    return get(KEYS);
  }

  /** See {@link #REGION}; null when not given (only allowed without strict residency). */
  public String region() {
    return get(REGION);
  }

  /** See {@link #RESIDENCY}. */
  public Residency residency() {
    return get(RESIDENCY);
  }

  /** See {@link #INTENTS}; null for every intent; unmodifiable. */
  public Set<String> intents() {
    return get(INTENTS);
  }

  /** See {@link #RATE_LIMIT_PER_S}. */
  public double rateLimitPerS() {
    return get(RATE_LIMIT_PER_S);
  }

  /** See {@link #BURST}. */
  public int burst() {
    return get(BURST);
  }

  /** See {@link #ADMIN}. */
  public boolean admin() {
    return get(ADMIN);
  }

  /** The region its addresses must stay in, or null when residency is {@code none}. */
  public String strictRegion() {
    return residency() == Residency.STRICT ? region() : null;
  }

  /** See {@link #BATCH_MAX_LIVE_JOBS}; null when the batch section's default applies. */
  public Long batchMaxLiveJobs() {
    return get(BATCH_MAX_LIVE_JOBS);
  }

  /** See {@link #BATCH_MAX_LIVE_ROWS}; null when the batch section's default applies. */
  public Long batchMaxLiveRows() {
    return get(BATCH_MAX_LIVE_ROWS);
  }

  /** See {@link #SHADOW_KEEP_WORST}; null when this tenant's worst disagreements are not kept. */
  public KeepWorst shadowKeepWorst() {
    return get(SHADOW_KEEP_WORST);
  }

  /**
   * The bounds on what shadow sampling keeps of one tenant's worst disagreements (manifest
   * {@code tenants[].shadow_keep_worst:}): at most {@code count} samples, each at most
   * {@code max_age_s} old, and only disagreements: both found and more than {@code min_m} apart, or
   * only one of the two rungs found the place. Kept in the memory of the node that sampled them (a
   * restart forgets them) and shown only to that tenant and to admins ({@code GET /v1/shadow/worst}).
   */
  public static final class KeepWorst extends Settings {

    /** The keys of {@code shadow_keep_worst:}. */
    public static final Section<KeepWorst> SECTION = new Section<>(KeepWorst::new);

    /** The most samples kept, the worst first, 1..100; default 20. */
    public static final Field<Integer> COUNT = SECTION.ints("count", 1, 100).byDefault(20);

    /** The oldest a kept sample may be, seconds, 60..2,592,000 (30 days); default 604,800 (7 days). */
    public static final Field<Long> MAX_AGE_S = SECTION.longs("max_age_s", 60, 2_592_000).byDefault(604_800L);

    /** Two found answers are a disagreement worth keeping when more than this many metres apart; default 250 m. */
    public static final Field<Double> MIN_M = SECTION.number("min_m", 0, 20_000_000).byDefault(250.0);

    private KeepWorst(Settings read) {
      super(read);
    }

    /** See {@link #COUNT}. */
    public int count() {
      return get(COUNT);
    }

    /** See {@link #MAX_AGE_S}. */
    public long maxAgeS() {
      return get(MAX_AGE_S);
    }

    /** See {@link #MIN_M}. */
    public double minM() {
      return get(MIN_M);
    }
  }
}
