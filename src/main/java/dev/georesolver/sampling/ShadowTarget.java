package dev.georesolver.sampling;

import dev.georesolver.config.ShadowConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.ladder.Ladders;

import java.util.List;

/**
 * Which rung a sampled answer is asked again of, or why none is: the rule, pure (no Vert.x) and
 * thread-safe.
 *
 * <ul>
 *   <li>A replay (drift check) asks the rung that produced it;
 *   <li>a walked answer asks its configured pair's shadow rung ({@code shadow.pairs}), or without
 *       pairs the next rung below its own;
 *   <li>either way only a rung of the request's own ladder ({@link Ladders}: the intent's claims,
 *       the direction and the tenant's residency, exactly as the live walk was trimmed), so a shadow
 *       call never sends an address where the live call could not.
 * </ul>
 *
 * @param tier the rung to ask, or null
 * @param skip why none is asked ({@code not_in_ladder}, {@code no_shadow_rung}), or null
 */
public record ShadowTarget(TierConfig tier, String skip) {

  /**
   * @param ladder the request's ladder, trimmed for its tenant's residency
   * @param served the rung whose answer left
   * @param replay whether the answer was a replay (asked of its own rung)
   */
  public static ShadowTarget of(ShadowConfig cfg, List<TierConfig> ladder, String served, boolean replay) {
    String wanted = replay ? served : cfg.shadowOf(served);
    if (wanted == null && !replay) {
      if (cfg.pairs() != null) {
        return new ShadowTarget(null, "no_shadow_rung");
      }
      int i = Ladders.indexOf(ladder, served);
      return i < 0 || i + 1 >= ladder.size() ? new ShadowTarget(null, i < 0 ? "not_in_ladder" : "no_shadow_rung")
          : new ShadowTarget(ladder.get(i + 1), null);
    }
    int j = Ladders.indexOf(ladder, wanted);
    return j < 0 ? new ShadowTarget(null, "not_in_ladder") : new ShadowTarget(ladder.get(j), null);
  }
}
