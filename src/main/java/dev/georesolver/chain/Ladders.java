package dev.georesolver.chain;

import dev.georesolver.config.IntentConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.provider.Direction;

import java.util.List;

/**
 * The ladder a request walks: the enabled tiers, in order, trimmed to those whose claim the intent
 * accepts and, for reverse lookups, to those that can answer one. The chain walks it; the reconciler
 * walks the part of it above an item's served rung, so both obey the same rules. Pure and thread-safe.
 */
public final class Ladders {

  private Ladders() {}

  /** The ladder for {@code intent} and {@code direction} out of the enabled tiers; unmodifiable. */
  public static List<TierConfig> of(List<TierConfig> enabled, IntentConfig intent, Direction direction) {
    return enabled.stream()
        .filter(t -> intent.accepts(t.claim()))
        .filter(t -> direction == Direction.FORWARD || AdapterRegistry.supportsReverse(t.adapter()))
        .toList();
  }

  /**
   * The rungs above {@code servedRung} in {@code ladder}, top first; the whole ladder when
   * {@code servedRung} is null (a refusal) or no longer in it.
   */
  public static List<TierConfig> above(List<TierConfig> ladder, String servedRung) {
    if (servedRung == null) {
      return ladder;
    }
    for (int i = 0; i < ladder.size(); i++) {
      if (ladder.get(i).name().equals(servedRung)) {
        return ladder.subList(0, i);
      }
    }
    return ladder;
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
