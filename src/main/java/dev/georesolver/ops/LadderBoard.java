package dev.georesolver.ops;

import dev.georesolver.config.TierConfig;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The ladder as the operator sees it: each tier's last status (breaker state, typical latency,
 * claim, adapter) in ladder order, and the latest breaker transitions. Seeded from the manifest
 * (every breaker closed, typical latency as configured) and kept from what the tiers announce; the
 * tiers own the truth. A tier first heard of in an announcement is added at the bottom.
 *
 * <p>Not thread-safe: confine to one verticle.
 */
public final class LadderBoard {

  /** How many transitions are kept for a new dashboard. */
  public static final int TRANSITIONS_KEPT = 20;

  private final Map<String, JsonObject> tiers = new LinkedHashMap<>();
  private final Deque<JsonObject> transitions = new ArrayDeque<>();

  /** A board for {@code ladder}, top rung first. */
  public LadderBoard(List<TierConfig> ladder) {
    for (TierConfig t : ladder) {
      tiers.put(t.name(), seed(t));
    }
  }

  /**
   * Follows a reload's ladder, top rung first: tiers still there keep their status, new ones start
   * closed with the manifest's figures (until their status is asked), removed ones leave the board.
   */
  public void follow(List<TierConfig> ladder) {
    Map<String, JsonObject> before = new LinkedHashMap<>(tiers);
    tiers.clear();
    for (TierConfig t : ladder) {
      JsonObject known = before.get(t.name());
      tiers.put(t.name(), known != null ? known.put("adapter", t.adapter()).put("claim", t.claim().wire()) : seed(t));
    }
  }

  private static JsonObject seed(TierConfig t) {
    return new JsonObject()
        .put("tier", t.name())
        .put("adapter", t.adapter())
        .put("claim", t.claim().wire())
        .put("state", "closed")
        .put("typical_ms", t.typicalMs());
  }

  /** Applies a tier's status ({@code geocode.tier.stats}, or the answer of its status address). */
  public void onStatus(JsonObject status) {
    String tier = status.getValue("tier") instanceof String s ? s : null;
    if (tier != null) {
      JsonObject known = tiers.computeIfAbsent(tier, t -> new JsonObject().put("tier", t));
      for (String field : List.of("adapter", "claim", "state", "typical_ms")) {
        if (status.containsKey(field)) {
          known.put(field, status.getValue(field));
        }
      }
    }
  }

  /**
   * Applies a breaker transition ({@code geocode.breaker}) and keeps it.
   *
   * @return the transition as the operator's feed carries it ({@code "type": "breaker"} added), or
   *     null when it names no tier
   */
  public JsonObject onTransition(JsonObject event) {
    if (!(event.getValue("tier") instanceof String tier) || !(event.getValue("to") instanceof String to)) {
      return null;
    }
    onStatus(new JsonObject().put("tier", tier).put("state", to));
    JsonObject relayed = event.copy().put("type", "breaker");
    transitions.addLast(relayed);
    while (transitions.size() > TRANSITIONS_KEPT) {
      transitions.removeFirst();
    }
    return relayed;
  }

  /** Every tier's status, top rung first (copies). */
  public JsonArray tiers() {
    JsonArray out = new JsonArray();
    tiers.values().forEach(t -> out.add(t.copy()));
    return out;
  }

  /** The tiers' names, top rung first. */
  public List<String> names() {
    return List.copyOf(tiers.keySet());
  }

  /** The latest transitions, oldest first (copies). */
  public JsonArray transitions() {
    JsonArray out = new JsonArray();
    transitions.forEach(t -> out.add(t.copy()));
    return out;
  }
}
