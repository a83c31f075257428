package dev.georesolver.reload;

import dev.georesolver.config.Change;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.Reload;
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
 * configuration, its credential as read, and the settings every tier is built from, such as
 * {@code routing.admission_factor} and {@code batch.max_share}): its verticle,
 * breaker state and latency window carry on. It is <em>changed</em> when any of that differs (it is
 * redeployed; a forced breaker state is carried over), <em>added</em> or <em>removed</em> when only
 * one side has it enabled (a tier left out for a missing credential counts as absent).
 *
 * <p>What a reload does with each setting changed is declared once, on the manifest's fields
 * ({@link dev.georesolver.config.Reload}, read through {@link Manifest#changesTo}): applied
 * ({@code applied}, a tier's own settings changing that tier), applied by redeploying every tier
 * ({@code routing.admission_factor}, {@code batch.max_share}: every tier is built from them), or
 * needing a restart ({@code needsRestart}). A first {@code cached_index} rung needs a restart too
 * when the index verticle was not started.
 *
 * @param kept tiers carried over unchanged, in the new ladder's order
 * @param changed tiers redeployed with their new configuration, in the new ladder's order
 * @param added tiers deployed, in the new ladder's order
 * @param removed tiers undeployed, in the old ladder's order
 * @param applied each setting changed that the reload applies, by path
 * @param needsRestart each setting changed that only a restart applies, with why ({@code <path>: <why>})
 */
public record ManifestDiff(List<String> kept, List<String> changed, List<String> added, List<String> removed,
                           List<String> applied, List<String> needsRestart) {

  public ManifestDiff {
    kept = List.copyOf(kept);
    changed = List.copyOf(changed);
    added = List.copyOf(added);
    removed = List.copyOf(removed);
    applied = List.copyOf(applied);
    needsRestart = List.copyOf(needsRestart);
  }

  /**
   * @param indexRunning whether the cached-index verticle runs (it starts only when the start's
   *     manifest has a rung that reads it)
   * @param indexNeeded whether {@code after} has a rung that reads the cached index
   */
  public static ManifestDiff of(Manifest before, Manifest after, boolean indexRunning, boolean indexNeeded) {
    Map<String, TierConfig> old = byName(before.enabledTiers());
    List<Change> changes = before.changesTo(after);
    boolean sameBuild = changes.stream().noneMatch(c -> c.reload() == Reload.TIERS);
    List<String> kept = new ArrayList<>();
    List<String> changed = new ArrayList<>();
    List<String> added = new ArrayList<>();
    for (TierConfig t : after.enabledTiers()) {
      TierConfig was = old.get(t.name());
      if (was == null) {
        added.add(t.name());
      } else if (sameBuild && was.equals(t) && sameSecret(before.secret(t.name()), after.secret(t.name()))) {
        kept.add(t.name());
      } else {
        changed.add(t.name());
      }
    }
    Map<String, TierConfig> now = byName(after.enabledTiers());
    List<String> removed = before.enabledTiers().stream().map(TierConfig::name).filter(n -> !now.containsKey(n)).toList();
    List<String> applied = changes.stream().filter(c -> c.reload() != Reload.RESTART).map(Change::path).toList();
    List<String> restart = new ArrayList<>(changes.stream().filter(c -> c.reload() == Reload.RESTART).map(Change::toString).toList());
    if (indexNeeded && !indexRunning) {
      restart.add("routing.tiers: a cached_index rung, and the cached index was not started with the process");
    }
    return new ManifestDiff(kept, changed, added, removed, applied, restart);
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

  private static boolean sameSecret(Optional<Secret> a, Optional<Secret> b) {
    return Objects.equals(a.map(Secret::reveal), b.map(Secret::reveal));
  }

  private static Map<String, TierConfig> byName(List<TierConfig> tiers) {
    Map<String, TierConfig> m = new LinkedHashMap<>();
    tiers.forEach(t -> m.put(t.name(), t));
    return m;
  }
}
