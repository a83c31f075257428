package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.TenantConfig;
import dev.georesolver.config.TierConfig;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What {@code validate --simulate} runs on a manifest: the cases (nothing forced, then each rung of
 * the ladder forced open in turn) and the load groups each case sends (one per strict-residency
 * tenant, plus one for everyone else), with the requests of each.
 *
 * <p>Pure: built from the manifest alone, no Vert.x. Immutable and thread-safe.
 *
 * @param ladder the simulated ladder's rungs, in order
 * @param cases in the order they run; the first forces nothing
 * @param groups who the synthetic load is sent for; never empty
 * @param budgetMs the budget every simulated request runs under ({@code routing.budget_ms}), ms
 */
record SimulationPlan(List<String> ladder, List<Case> cases, List<Group> groups, long budgetMs) {

  /** The most requests one case may send: bounds the run's time and memory. */
  static final int MAX_REQUESTS = 5_000;
  /** The most requests in flight at once. */
  static final int MAX_CONCURRENCY = 256;
  /** The highest pace of the load, requests started per second. */
  static final double MAX_RATE = 10_000;

  SimulationPlan {
    ladder = List.copyOf(ladder);
    cases = List.copyOf(cases);
    groups = List.copyOf(groups);
  }

  /**
   * One case.
   *
   * @param name for the report: {@code none forced} or {@code <tier> forced open}
   * @param forcedOpen the rung whose breaker is held open, or null for none
   */
  record Case(String name, String forcedOpen) {
    static Case baseline() {
      return new Case("none forced", null);
    }

    static Case forcing(String tier) {
      return new Case(tier + " forced open", tier);
    }
  }

  /**
   * Who one share of the load is sent for.
   *
   * @param tenant the tenant id sent with each request, or null with open access (tenant {@code public})
   * @param intent the intent asked: the manifest's default when the tenant may use it, else the first it may
   * @param strictRegion the region its addresses must stay in, or null when it has no residency
   * @param inRegion the rungs its addresses may be sent to (for a group without residency: every rung)
   */
  record Group(String tenant, String intent, String strictRegion, Set<String> inRegion) {
    Group {
      inRegion = Set.copyOf(inRegion);
    }

    /** Whether its addresses must stay in one region. */
    boolean strict() {
      return strictRegion != null;
    }

    /** For the report: the tenant id, or {@code public}. */
    String label() {
      return tenant == null ? "public" : tenant;
    }
  }

  /**
   * The plan for {@code m}: every rung of its ladder (as the simulated manifest enables them, a
   * credential in hand for each) forced open in turn after the baseline; one group for each strict
   * tenant and one for the first other tenant (none when every tenant is strict), or a single
   * {@code public} group with open access.
   */
  static SimulationPlan of(Manifest m) {
    List<Case> cases = new ArrayList<>();
    cases.add(Case.baseline());
    m.enabledTiers().forEach(t -> cases.add(Case.forcing(t.name())));
    List<Group> groups = new ArrayList<>();
    Set<String> every = new LinkedHashSet<>(m.enabledTiers().stream().map(TierConfig::name).toList());
    if (!m.tenantsConfigured()) {
      groups.add(new Group(null, m.defaultIntent(), null, every));
    } else {
      TenantConfig other = null;
      for (TenantConfig t : m.tenants()) {
        if (t.strictRegion() != null) {
          // The residency rule as the chain applies it: the rung's region (a local rung's is the deployment's) is the tenant's.
          Set<String> in = new LinkedHashSet<>(m.enabledTiers().stream()
              .filter(tier -> t.strictRegion().equals(m.routing().regionOf(tier))).map(TierConfig::name).toList());
          groups.add(new Group(t.id(), intentFor(m, t), t.strictRegion(), in));
        } else if (other == null) {
          other = t;
        }
      }
      if (other != null) {
        groups.add(0, new Group(other.id(), intentFor(m, other), null, every));
      }
    }
    return new SimulationPlan(List.copyOf(every), cases, groups, m.routing().budgetMs());
  }

  /** The manifest's default intent when {@code t} may use it, else the first (by name) it may. */
  static String intentFor(Manifest m, TenantConfig t) {
    if (t.intents() == null || t.intents().contains(m.defaultIntent())) {
      return m.defaultIntent();
    }
    return new TreeSet<>(t.intents()).first();
  }

  /**
   * How many of a case's {@code total} requests group {@code index} sends: an even share, the
   * remainder to the first groups, at least one each.
   */
  int share(int index, int total) {
    int n = groups.size();
    return Math.max(1, total / n + (index < total % n ? 1 : 0));
  }

  /**
   * The address of request {@code i} of group {@code g} in case {@code c}: a house on one Paris
   * street, its number unique across the run, so no request replays another's answer, no walk is
   * shared between groups, and every rung can answer it (the bundled gazetteer with the city
   * centre). Unique while a group sends fewer than 10,000 ({@link #MAX_REQUESTS}) and there are fewer than 10,000 groups.
   */
  static String address(int c, int g, int i) {
    long number = 1 + (long) c * 100_000_000L + (long) g * 10_000 + i;
    return number + " Rue de Rivoli, Paris, France";
  }
}
