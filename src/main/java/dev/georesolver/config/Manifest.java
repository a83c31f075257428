package dev.georesolver.config;

import io.vertx.core.json.JsonObject;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The validated routing manifest (DESIGN §8). Immutable and thread-safe.
 *
 * @param revision the revision carried in every result: the first 12 hex digits of the file's
 *     sha256, plus {@code -g<sha>} when {@code MANIFEST_GIT_SHA} is set
 * @param sha256 the whole file's sha256 in hex
 * @param routing the routing block
 * @param intents intents by name
 * @param defaultIntent the intent of a request that names none
 * @param crsDefinitions pinned proj4 definitions by canonical source CRS
 * @param disabledTiers tiers left out of the ladder at start, with why (credential unset)
 * @param source the manifest as read, for {@code GET /manifest}
 */
public record Manifest(
    String revision,
    String sha256,
    RoutingConfig routing,
    Map<String, IntentConfig> intents,
    String defaultIntent,
    Map<String, String> crsDefinitions,
    Map<String, String> disabledTiers,
    JsonObject source) {

  public Manifest {
    intents = Map.copyOf(intents);
    crsDefinitions = Map.copyOf(crsDefinitions);
    disabledTiers = Map.copyOf(disabledTiers);
  }

  /** The tiers in the ladder, in order: all tiers but the disabled ones. */
  public List<TierConfig> enabledTiers() {
    return routing.tiers().stream().filter(t -> !disabledTiers.containsKey(t.name())).toList();
  }

  /** The intent of that name, if defined. */
  public Optional<IntentConfig> intent(String name) {
    return Optional.ofNullable(intents.get(name));
  }

  /** Intent names. */
  public Set<String> intentNames() {
    return intents.keySet();
  }

  /** What {@code GET /manifest} serves: revision, tiers enabled and disabled, and the manifest. */
  public JsonObject describe() {
    return new JsonObject()
        .put("revision", revision)
        .put("sha256", sha256)
        .put("enabled_tiers", enabledTiers().stream().map(TierConfig::name).toList())
        .put("disabled_tiers", new JsonObject(Map.copyOf(disabledTiers)))
        .put("manifest", source);
  }
}
