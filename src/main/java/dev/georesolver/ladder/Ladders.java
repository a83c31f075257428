package dev.georesolver.ladder;

import dev.georesolver.config.IntentConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.RoutingConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.geo.Direction;

import java.util.Collections;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The ladder a request walks: the enabled tiers, in order, trimmed to those whose claim the intent
 * accepts, that can answer the direction, and — for a tenant whose residency is strict — that run
 * in the tenant's region ({@link Residency}, the one residency rule). For every path that calls tiers
 * (the chain; the reconciler, which walks the part above an item's served rung; batch rows and the
 * compatible endpoints, which go through the chain), so none of them can send an address where
 * another would not. Each caller takes the ladders of the manifest serving when it calls (a reload
 * replaces them), never those of the start.
 *
 * <p>A tier runs in its {@code region} (default {@code global}); a local rung ({@code cached_index},
 * {@code gazetteer}) runs where the deployment runs, {@code routing.region}. For a strict tenant a
 * {@code global} tier is out of region like any other. A strict ladder that comes out empty is
 * {@code misconfigured}: the tenant's requests of that intent are answered 503, never routed out.
 *
 * <p>The static methods are pure; an instance ({@link #of(Manifest)}) holds every ladder a manifest
 * can need, computed once: immutable and thread-safe.
 */
public final class Ladders {

  /** The residency class of tenants without one: every rung. */
  private static final String ANY_REGION = "";

  /** Ladders by residency class (the strict region, or {@link #ANY_REGION}), direction, intent. */
  private final Map<String, Map<Direction, Map<String, List<TierConfig>>>> table;
  /** The manifest the ladders were made from, for a region none of its tenants is held to. */
  private final Manifest manifest;

  private Ladders(Map<String, Map<Direction, Map<String, List<TierConfig>>>> table, Manifest manifest) {
    this.table = table;
    this.manifest = manifest;
  }

  /**
   * Every ladder of a manifest: for each intent and direction, the unrestricted one and one per
   * region a strict tenant is held to.
   */
  public static Ladders of(Manifest m) {
    Set<String> classes = new LinkedHashSet<>();
    classes.add(ANY_REGION);
    m.tenants().forEach(t -> {
      if (t.strictRegion() != null) {
        classes.add(t.strictRegion());
      }
    });
    Map<String, Map<Direction, Map<String, List<TierConfig>>>> table = new HashMap<>();
    for (String region : classes) {
      Map<Direction, Map<String, List<TierConfig>>> byDirection = new EnumMap<>(Direction.class);
      for (Direction d : Direction.values()) {
        Map<String, List<TierConfig>> byIntent = new HashMap<>();
        for (IntentConfig i : m.intents().values()) {
          byIntent.put(i.name(), of(m.enabledTiers(), i, d, region.isEmpty() ? null : region, m.routing()));
        }
        byDirection.put(d, Collections.unmodifiableMap(byIntent));
      }
      table.put(region, Collections.unmodifiableMap(byDirection));
    }
    return new Ladders(Collections.unmodifiableMap(table), m);
  }

  /**
   * The ladder for an intent and direction, held to {@code strictRegion}; unmodifiable, possibly
   * empty (misconfigured).
   *
   * @param strictRegion the region a strict tenant's addresses must stay in, or null for any rung
   * @throws IllegalArgumentException for an intent or region this manifest's ladders were not made for
   */
  public List<TierConfig> ladder(String intent, Direction direction, String strictRegion) {
    Map<Direction, Map<String, List<TierConfig>>> byDirection = table.get(strictRegion == null ? ANY_REGION : strictRegion);
    List<TierConfig> ladder = byDirection == null ? null : byDirection.get(direction).get(intent);
    if (ladder == null) {
      throw new IllegalArgumentException("no ladder for intent " + intent + " in region " + strictRegion);
    }
    return ladder;
  }

  /**
   * The ladder for an intent and direction that a tenant of {@code residency} may walk
   * ({@link Residency}): empty for {@link Residency#NOWHERE}; unmodifiable.
   *
   * @throws IllegalArgumentException for an intent this manifest does not have
   */
  public List<TierConfig> ladderFor(String intent, Direction direction, Residency residency) {
    if (residency.nowhere()) {
      ladder(intent, direction, (String) null);
      return List.of();
    }
    String region = residency.region();
    if (region != null && !table.containsKey(region)) {
      IntentConfig i = manifest.intent(intent).orElseThrow(() -> new IllegalArgumentException("no ladder for intent " + intent));
      return of(manifest.enabledTiers(), i, direction, region, manifest.routing());
    }
    return ladder(intent, direction, region);
  }

  /** The ladder for {@code intent} and {@code direction} out of the enabled tiers, any region; unmodifiable. */
  public static List<TierConfig> of(List<TierConfig> enabled, IntentConfig intent, Direction direction) {
    return enabled.stream()
        .filter(t -> intent.accepts(t.claim()))
        .filter(t -> t.answers(direction))
        .toList();
  }

  /**
   * The ladder for {@code intent} and {@code direction} out of the enabled tiers, held to
   * {@code strictRegion}; unmodifiable.
   *
   * @param strictRegion the region a strict tenant's addresses must stay in, or null for any rung
   * @param routing where the deployment runs (the region of local rungs)
   */
  public static List<TierConfig> of(List<TierConfig> enabled, IntentConfig intent, Direction direction, String strictRegion,
      RoutingConfig routing) {
    return Residency.heldTo(strictRegion).filter(of(enabled, intent, direction), routing);
  }

  /**
   * The rungs above {@code servedRung} in {@code ladder}, top first; the whole ladder when
   * {@code servedRung} is null (a refusal) or no longer in it. What the reconciler walks.
   */
  public static List<TierConfig> above(List<TierConfig> ladder, String servedRung) {
    int i = servedRung == null ? -1 : indexOf(ladder, servedRung);
    return i < 0 ? ladder : ladder.subList(0, i);
  }

  /** The position of {@code tier} in {@code ladder}, or -1. */
  public static int indexOf(List<TierConfig> ladder, String tier) {
    for (int i = 0; i < ladder.size(); i++) {
      if (ladder.get(i).name().equals(tier)) {
        return i;
      }
    }
    return -1;
  }
}
