package dev.georesolver.shadow;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The worst shadow disagreements of the tenants that allow keeping them, for investigation: the one
 * place shadow sampling holds an address and both answers after measuring them. Everything here is
 * bounded by the tenant's own {@link Limits}: how many are kept (the worst first), how old one may
 * get, and what counts as a disagreement (both found and farther apart than {@code minM}, or only one
 * of the two rungs found the place). A tenant without limits keeps nothing, and a tenant that loses
 * its permission (a reload) loses what was kept at the next {@link #retain}.
 *
 * <p>Worst means: a found/not-found disagreement first (one rung says the place does not exist),
 * then the greater distance, then the newer. Not thread-safe: confined to the shadow verticle that
 * owns it. Time comes from the caller.
 */
public final class WorstKept {

  /** One tenant's bounds: {@code count} kept at most, each at most {@code maxAgeMs} old, distances over {@code minM}. */
  public record Limits(int count, long maxAgeMs, double minM) {
    /** @throws IllegalArgumentException for a count below 1, an age below 1 ms or a negative distance */
    public Limits {
      if (count < 1 || maxAgeMs < 1 || !(minM >= 0)) {
        throw new IllegalArgumentException("limits need count >= 1, maxAgeMs >= 1 and minM >= 0");
      }
    }
  }

  /**
   * One kept disagreement: whose it was, what was asked, and the sample (both answers).
   *
   * @param tenant the tenant the request was asked for
   * @param query what was asked: the address as given, or {@code "lat,lon"} for a reverse question
   * @param sample the two answers, with the request's keyed id
   */
  public record Case(String tenant, String query, ShadowSample sample) {
    /** @throws NullPointerException for a missing part */
    public Case {
      Objects.requireNonNull(tenant, "tenant");
      Objects.requireNonNull(query, "query");
      Objects.requireNonNull(sample, "sample");
    }

    /** The distance in metres, or null when only one rung found the place. */
    public Double distanceM() {
      return sample.bothFound() ? sample.distanceM().getAsDouble() : null;
    }

    /** The case as the {@code /v1/shadow/worst} element shows it. */
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("tenant", tenant);
      m.put("id", sample.id());
      m.put("intent", sample.intent());
      m.put("at_ms", sample.atMs());
      m.put("query", query);
      m.put("agreement", sample.agreement().name().toLowerCase(java.util.Locale.ROOT));
      m.put("distance_m", distanceM() == null ? null : Math.round(distanceM() * 10) / 10.0);
      m.put("served", side(sample.served()));
      m.put("shadow", side(sample.shadow()));
      return m;
    }

    private static Map<String, Object> side(ShadowSample.Side s) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("tier", s.rung());
      m.put("found", s.found());
      if (s.found()) {
        m.put("lon", s.point().lon());
        m.put("lat", s.point().lat());
      }
      m.put("precision", s.precision());
      m.put("label", s.label());
      m.put("latency_ms", Math.round(s.latencyMs() * 10) / 10.0);
      return m;
    }
  }

  /** Worst first: a found/not-found disagreement, then the farther, then the newer. */
  static final Comparator<Case> WORST_FIRST = Comparator
      .comparing((Case c) -> c.distanceM() == null ? Double.POSITIVE_INFINITY : c.distanceM()).reversed()
      .thenComparing(Comparator.comparingLong((Case c) -> c.sample().atMs()).reversed());

  private final Map<String, List<Case>> byTenant = new HashMap<>();

  /** Whether {@code s} is a disagreement worth keeping under {@code limits}. */
  public static boolean disagrees(ShadowSample s, Limits limits) {
    return switch (s.agreement()) {
      case SERVED_ONLY, SHADOW_ONLY -> true;
      case NEITHER_FOUND -> false;
      case BOTH_FOUND -> s.distanceM().getAsDouble() > limits.minM();
    };
  }

  /**
   * Offers a sample of {@code tenant}'s; kept when it is a disagreement and among the tenant's
   * {@code count} worst not older than {@code maxAgeMs}.
   *
   * @return whether it was kept
   */
  public boolean offer(Case c, Limits limits, long nowMs) {
    if (!disagrees(c.sample(), limits)) {
      return false;
    }
    List<Case> kept = byTenant.computeIfAbsent(c.tenant(), t -> new ArrayList<>());
    kept.add(c);
    trim(kept, limits, nowMs);
    if (kept.isEmpty()) {
      byTenant.remove(c.tenant());
    }
    return kept.contains(c);
  }

  /**
   * Keeps only the tenants in {@code allowed} (each trimmed to its limits now, which may have
   * shrunk): what a tenant no longer allows is forgotten here.
   */
  public void retain(Map<String, Limits> allowed, long nowMs) {
    byTenant.keySet().retainAll(allowed.keySet());
    byTenant.entrySet().removeIf(e -> {
      trim(e.getValue(), allowed.get(e.getKey()), nowMs);
      return e.getValue().isEmpty();
    });
  }

  /**
   * The cases kept of {@code tenants} (every tenant when null), worst first within each tenant,
   * tenants by id; each trimmed to its limits first, so nothing older than its age is shown.
   */
  public Map<String, List<Case>> of(Set<String> tenants, Map<String, Limits> allowed, long nowMs) {
    retain(allowed, nowMs);
    Map<String, List<Case>> out = new TreeMap<>();
    byTenant.forEach((t, cases) -> {
      if (tenants == null || tenants.contains(t)) {
        out.put(t, List.copyOf(cases));
      }
    });
    return out;
  }

  /** How many cases are kept, all tenants together. */
  public int size() {
    return byTenant.values().stream().mapToInt(List::size).sum();
  }

  private static void trim(List<Case> kept, Limits limits, long nowMs) {
    kept.removeIf(k -> nowMs - k.sample().atMs() > limits.maxAgeMs());
    kept.sort(WORST_FIRST);
    while (kept.size() > limits.count()) {
      kept.remove(kept.size() - 1);
    }
  }
}
