package dev.georesolver.reload;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.Secret;
import dev.georesolver.config.TierConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What a new manifest changes against the one serving, by enabled tier, and which of its changes
 * only a restart can apply. Pure: tested without Vert.x.
 *
 * <p>A tier is <em>kept</em> when everything its verticle is built from is the same (its effective
 * configuration, its credential as read, the routing's {@code admission_factor}): its verticle,
 * breaker state and latency window carry on. It is <em>changed</em> when any of that differs (it is
 * redeployed; a forced breaker state is carried over), <em>added</em> or <em>removed</em> when only
 * one side has it enabled (a tier left out for a missing credential counts as absent).
 *
 * <p>Needing a restart: the {@code server:} limits (the listening sockets hold them),
 * {@code state:} (the store's backend and file are open), {@code reconcile:} and
 * {@code corrections:} (their verticles and cursors run from them), {@code crs_definitions}
 * (the transforms are built at start), {@code routing.idempotency} (the idempotency store),
 * {@code routing.margins} and {@code routing.max_budget_ms} (the servers' idle timeouts and every
 * verticle's margins are set from them), and a first {@code cached_index} rung when the index
 * verticle was not started.
 *
 * @param kept tiers carried over unchanged, in the new ladder's order
 * @param changed tiers redeployed with their new configuration, in the new ladder's order
 * @param added tiers deployed, in the new ladder's order
 * @param removed tiers undeployed, in the old ladder's order
 * @param needsRestart each setting changed that only a restart applies, with why
 */
public record ManifestDiff(List<String> kept, List<String> changed, List<String> added, List<String> removed,
                           List<String> needsRestart) {

  public ManifestDiff {
    kept = List.copyOf(kept);
    changed = List.copyOf(changed);
    added = List.copyOf(added);
    removed = List.copyOf(removed);
    needsRestart = List.copyOf(needsRestart);
  }

  /**
   * @param indexRunning whether the cached-index verticle runs (it starts only when the start's
   *     manifest has a rung that reads it)
   * @param indexNeeded whether {@code after} has a rung that reads the cached index
   */
  public static ManifestDiff of(Manifest before, Manifest after, boolean indexRunning, boolean indexNeeded) {
    Map<String, TierConfig> old = byName(before.enabledTiers());
    boolean sameFactor = before.routing().admissionFactor() == after.routing().admissionFactor();
    List<String> kept = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    List<String> added = new ArrayList<>();
    for (TierConfig t : after.enabledTiers()) {
      TierConfig was = old.get(t.name());
      if (was == null) {
        added.add(t.name());
      } else if (sameFactor && was.equals(t) && sameSecret(before.secret(t.name()), after.secret(t.name()))) {
        kept.add(t.name());
      } else {
        changed.add(t.name());
      }
    }
    Map<String, TierConfig> now = byName(after.enabledTiers());
    List<String> removed = before.enabledTiers().stream().map(TierConfig::name).filter(n -> !now.containsKey(n)).toList();
    return new ManifestDiff(kept, changed, added, removed, restartOnly(before, after, indexRunning, indexNeeded));
  }

  /** Whether it can be applied without a restart. */
  public boolean appliable() {
    return needsRestart.isEmpty();
  }

  /** Whether any tier is changed, added or removed. */
  public boolean touchesTiers() {
    return !changed.isEmpty() || !added.isEmpty() || !removed.isEmpty();
  }

  /** {@code {"kept", "changed", "added", "removed"}}, arrays of tier names. */
  public JsonObject tiersJson() {
    return new JsonObject()
        .put("kept", new JsonArray(kept))
        .put("changed", new JsonArray(changed))
        .put("added", new JsonArray(added))
        .put("removed", new JsonArray(removed));
  }

  private static List<String> restartOnly(Manifest b, Manifest a, boolean indexRunning, boolean indexNeeded) {
    List<String> out = new ArrayList<>();
    differs(out, "server", b.server(), a.server(), "the listening sockets hold the limits");
    differs(out, "state", b.state(), a.state(), "the state store is open");
    differs(out, "reconcile", b.reconcile(), a.reconcile(), "the reconciler runs from it");
    differs(out, "corrections", b.corrections(), a.corrections(), "the corrections delivery runs from it");
    differs(out, "crs_definitions", b.crsDefinitions(), a.crsDefinitions(), "the transforms are built at start");
    differs(out, "routing.idempotency", b.routing().idempotency(), a.routing().idempotency(), "the idempotency store is open");
    differs(out, "routing.margins", b.routing().margins(), a.routing().margins(), "every part's margins are set at start");
    differs(out, "routing.max_budget_ms", b.routing().maxBudgetMs(), a.routing().maxBudgetMs(),
        "the servers' idle timeout is set from it");
    if (indexNeeded && !indexRunning) {
      out.add("routing.tiers: a cached_index rung, and the cached index was not started with the process");
    }
    return out;
  }

  private static void differs(List<String> out, String path, Object before, Object after, String why) {
    if (!Objects.equals(before, after)) {
      out.add(path + ": " + why);
    }
  }

  private static boolean sameSecret(Optional<Secret> a, Optional<Secret> b) {
    return Objects.equals(a.map(Secret::reveal), b.map(Secret::reveal));
  }

  private static Map<String, TierConfig> byName(List<TierConfig> tiers) {
    Map<String, TierConfig> m = new LinkedHashMap<>();
    tiers.forEach(t -> m.put(t.name(), t));
    return m;
  }
}
