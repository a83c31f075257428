package dev.georesolver.config;

import java.util.List;
import java.util.Set;

/**
 * Shadow sampling (manifest {@code shadow:}): a share of the answers that left is asked again, after
 * the reply, of another rung, and how far the two lie apart is counted per pair of rungs; a share of
 * the replays old enough is asked again of the rung that produced them, and an answer that moved is
 * corrected. Off by default ({@code sample_rate: 0}); every field is reloadable. Immutable and
 * thread-safe.
 */
public final class ShadowConfig extends Settings {

  /** The keys of {@code shadow:}. */
  public static final Section<ShadowConfig> SECTION = new Section<>(ShadowConfig::new);

  /** The share of answers sampled, in [0, 1]; default 0 (off). */
  public static final Field<Double> SAMPLE_RATE = SECTION.number("sample_rate", 0, 1).byDefault(0.0);

  /**
   * Which rung is asked in the shadow of which ({@link Pair}); absent: each answer is also asked of
   * the next rung below its own that could answer it (same intent, direction and residency).
   */
  public static final Field<List<Pair>> PAIRS = SECTION.list("pairs", Pair.SECTION, null);

  /** The most shadow calls per second each tier receives, &gt; 0; default 2. Over it a sample is dropped and counted. */
  public static final Field<Double> MAX_PER_S = SECTION.number("max_per_s", Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY)
      .byDefault(2.0).check(r -> r > 0 && r <= 100_000, "must be in (0, 100000]");

  /** Samples waiting for their shadow call at most; default 1,000. A sample offered when it is full is dropped and counted. */
  public static final Field<Integer> QUEUE = SECTION.ints("queue", 1, 1_000_000).byDefault(1000);

  /** Tenants whose answers are never sampled (ids of {@code tenants:}); absent: none. */
  public static final Field<Set<String>> OPT_OUT_TENANTS = SECTION.strings("opt_out_tenants");

  /** Drift of replayed answers ({@link Drift}); each field defaults on its own. */
  public static final Field<Drift> DRIFT = SECTION.section("drift", Drift.SECTION).byDefault(Drift.SECTION.defaults());

  private ShadowConfig(Settings read) {
    super(read);
  }

  /** See {@link #SAMPLE_RATE}. */
  public double sampleRate() {
    return get(SAMPLE_RATE);
  }

  /** Whether anything is sampled. */
  public boolean on() {
    return sampleRate() > 0;
  }

  /** See {@link #PAIRS}; null when absent (the next rung that could answer). */
  public List<Pair> pairs() {
    return get(PAIRS);
  }

  /** See {@link #MAX_PER_S}. */
  public double maxPerS() {
    return get(MAX_PER_S);
  }

  /** See {@link #QUEUE}. */
  public int queue() {
    return get(QUEUE);
  }

  /** See {@link #OPT_OUT_TENANTS}; unmodifiable. */
  public Set<String> optOutTenants() {
    Set<String> s = get(OPT_OUT_TENANTS);
    return s == null ? Set.of() : s;
  }

  /** See {@link #DRIFT}. */
  public Drift drift() {
    return get(DRIFT);
  }

  /**
   * The shadow rung of an answer {@code served} gave: the configured pair's, or null when pairs are
   * configured and none names {@code served} (without pairs the caller takes the next rung).
   */
  public String shadowOf(String served) {
    List<Pair> pairs = pairs();
    if (pairs == null) {
      return null;
    }
    return pairs.stream().filter(p -> p.served().equals(served)).map(Pair::shadow).findFirst().orElse(null);
  }

  /** One ordered pair: answers of {@code served} are asked again of {@code shadow}. */
  public static final class Pair extends Settings {

    /** The keys of one {@code shadow.pairs[]} entry. */
    public static final Section<Pair> SECTION = new Section<>(Pair::new);

    /** The rung whose answers are sampled; required, a tier of {@code routing.tiers}. */
    public static final Field<String> SERVED = SECTION.string("served").required();

    /** The rung asked in its shadow; required, another tier of {@code routing.tiers}. */
    public static final Field<String> SHADOW = SECTION.string("shadow").required();

    static {
      SECTION.rule((v, at) -> {
        String a = v.get(SERVED);
        if (a != null && a.equals(v.get(SHADOW))) {
          at.problem(SHADOW.key(), "must be another rung than served");
        }
      });
    }

    private Pair(Settings read) {
      super(read);
    }

    /** See {@link #SERVED}. */
    public String served() {
      return get(SERVED);
    }

    /** See {@link #SHADOW}. */
    public String shadow() {
      return get(SHADOW);
    }
  }

  /** Drift of replayed answers (manifest {@code shadow.drift:}). */
  public static final class Drift extends Settings {

    /** The keys of {@code shadow.drift:}. */
    public static final Section<Drift> SECTION = new Section<>(Drift::new);

    /**
     * A sampled replay at least this old (seconds since its answer was resolved) is asked again of
     * the rung that produced it; default 2,592,000 s (30 days); 0 turns drift checks off.
     */
    public static final Field<Long> MIN_AGE_S = SECTION.longs("min_age_s", 0, 10L * 365 * 86_400).byDefault(2_592_000L);

    /** A fresh answer more than this many metres from the replayed one is corrected ({@code reason: drift}); default 250 m. */
    public static final Field<Double> MOVED_M = SECTION.number("moved_m", 0, 20_000_000).byDefault(250.0);

    private Drift(Settings read) {
      super(read);
    }

    /** See {@link #MIN_AGE_S}. */
    public long minAgeS() {
      return get(MIN_AGE_S);
    }

    /** Whether replays are checked for drift at all. */
    public boolean on() {
      return minAgeS() > 0;
    }

    /** See {@link #MOVED_M}. */
    public double movedM() {
      return get(MOVED_M);
    }
  }
}
