package dev.georesolver.config;

import dev.georesolver.crs.CrsNormalizer;
import dev.georesolver.geo.Claim;
import io.vertx.core.json.JsonObject;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The validated routing manifest, with its revision and each enabled tier's secret, read once.
 * Deeply immutable and thread-safe: nothing SnakeYAML built is kept, every collection is an
 * unmodifiable copy, and {@link #describe()} builds a new object on each call.
 *
 * <p>The top level is a {@link Section} like every block below it. A new top-level block
 * ({@code state}, {@code reconcile}, {@code corrections}, {@code tenants}, {@code audit},
 * {@code batch}) is a section type of its own ({@code StateConfig extends Settings} with its
 * {@code SECTION} and fields) plus one field here and its accessor:
 *
 * <pre>{@code
 * public static final Field<StateConfig> STATE = SECTION.section("state", StateConfig.SECTION)
 *     .byDefault(StateConfig.SECTION.defaults());
 * public StateConfig state() { return root.get(STATE); }
 * }</pre>
 */
public final class Manifest {

  /** The top-level keys. */
  public static final Section<Settings> SECTION = new Section<>(read -> read);

  /** The routing block; required. */
  public static final Field<RoutingConfig> ROUTING = SECTION.section("routing", RoutingConfig.SECTION).required();

  /**
   * Intents by name, not empty; default describe, measure and contain, less those no tier can
   * serve (a ladder without an exact rung gets no contain).
   */
  public static final Field<Map<String, IntentConfig>> INTENTS =
      SECTION.map("intents", IntentConfig.SECTION, "must define at least one intent")
          .defaultFrom(v -> servableDefaults(v.get(ROUTING)));

  /** The intent of a request that names none; default {@code describe} if defined, else the first intent. */
  public static final Field<String> DEFAULT_INTENT = SECTION.string("default_intent").defaultFrom(Manifest::firstIntent);

  /** Pinned proj4 definitions by source CRS ({@code "EPSG:27700": "+proj=…"}); none by default. */
  public static final Field<Map<String, String>> CRS_DEFINITIONS = SECTION.stringMap("crs_definitions").byDefault(Map.of());

  /** The durable store; each field defaults on its own ({@link StateConfig}). */
  public static final Field<StateConfig> STATE = SECTION.section("state", StateConfig.SECTION)
      .byDefault(StateConfig.SECTION.defaults());

  /** The reconciler; each field defaults on its own ({@link ReconcileConfig}). */
  public static final Field<ReconcileConfig> RECONCILE = SECTION.section("reconcile", ReconcileConfig.SECTION)
      .byDefault(ReconcileConfig.SECTION.defaults());

  /** Delivery of corrections; each field defaults on its own ({@link CorrectionsConfig}). */
  public static final Field<CorrectionsConfig> CORRECTIONS = SECTION.section("corrections", CorrectionsConfig.SECTION)
      .byDefault(CorrectionsConfig.SECTION.defaults());

  static {
    SECTION.rule((v, at) -> {
      String name = v.get(DEFAULT_INTENT);
      Map<String, IntentConfig> intents = v.get(INTENTS);
      if (name != null && intents != null && !intents.isEmpty() && !intents.containsKey(name)) {
        at.problem(DEFAULT_INTENT.key(), "'" + name + "' is not a defined intent");
      }
    });
    SECTION.rule((v, at) -> {
      Map<String, String> crs = v.get(CRS_DEFINITIONS);
      if (crs != null && !crs.isEmpty()) {
        CrsNormalizer.problems(crs).forEach(at::problemAsIs);
      }
    });
    SECTION.rule(Manifest::checkIntentLadders);
  }

  /** The intents a manifest without {@code intents:} starts from. */
  private static final Map<String, IntentConfig> DEFAULT_INTENTS = ManifestLoader.entries(IntentConfig.SECTION, """
      describe: { max_cache_age_s: 604800 }
      measure:  { max_cache_age_s: 3600 }
      contain:  { max_cache_age_s: 0, claims: [exact] }
      """);

  private final Settings root;
  private final String revision;
  private final String sha256;
  private final Map<String, Secret> secrets;
  private final Map<String, String> disabledTiers;
  private final List<TierConfig> enabledTiers;
  private final String described;

  Manifest(Settings root, String revision, String sha256, Map<String, Secret> secrets, Map<String, String> disabledTiers) {
    this.root = root;
    this.revision = revision;
    this.sha256 = sha256;
    this.secrets = Map.copyOf(secrets);
    this.disabledTiers = Collections.unmodifiableMap(new LinkedHashMap<>(disabledTiers));
    this.enabledTiers = routing().tiers().stream().filter(t -> !disabledTiers.containsKey(t.name())).toList();
    this.described = new JsonObject()
        .put("revision", revision)
        .put("sha256", sha256)
        .put("enabled_tiers", enabledTiers.stream().map(TierConfig::name).toList())
        .put("disabled_tiers", new JsonObject(new LinkedHashMap<>(disabledTiers)))
        .put("manifest", root.toJson())
        .encode();
  }

  /**
   * The revision carried in every result: the first 12 hex digits of the file's sha256, plus
   * {@code -g<sha>} when {@code MANIFEST_GIT_SHA} is set.
   */
  public String revision() {
    return revision;
  }

  /** The whole file's sha256 in hex. */
  public String sha256() {
    return sha256;
  }

  /** See {@link #ROUTING}. */
  public RoutingConfig routing() {
    return root.get(ROUTING);
  }

  /** See {@link #INTENTS}; unmodifiable, in manifest order. */
  public Map<String, IntentConfig> intents() {
    return root.get(INTENTS);
  }

  /** See {@link #DEFAULT_INTENT}. */
  public String defaultIntent() {
    return root.get(DEFAULT_INTENT);
  }

  /** See {@link #CRS_DEFINITIONS}; unmodifiable. */
  public Map<String, String> crsDefinitions() {
    return root.get(CRS_DEFINITIONS);
  }

  /** See {@link #STATE}. */
  public StateConfig state() {
    return root.get(STATE);
  }

  /** See {@link #RECONCILE}. */
  public ReconcileConfig reconcile() {
    return root.get(RECONCILE);
  }

  /** See {@link #CORRECTIONS}. */
  public CorrectionsConfig corrections() {
    return root.get(CORRECTIONS);
  }

  /** Tiers left out of the ladder at start, with why (credential unset, unreadable or empty); unmodifiable. */
  public Map<String, String> disabledTiers() {
    return disabledTiers;
  }

  /** The tiers in the ladder, in order: all tiers but the disabled ones; unmodifiable. */
  public List<TierConfig> enabledTiers() {
    return enabledTiers;
  }

  /**
   * An enabled tier's credential, as the loader read it when it decided the tier is enabled: the
   * check and the use see the same value. Empty when the tier has no credential (or is disabled).
   */
  public Optional<Secret> secret(String tierName) {
    return Optional.ofNullable(secrets.get(tierName));
  }

  /** The intent of that name, if defined. */
  public Optional<IntentConfig> intent(String name) {
    return Optional.ofNullable(intents().get(name));
  }

  /** Intent names; unmodifiable. */
  public Set<String> intentNames() {
    return intents().keySet();
  }

  /**
   * What {@code GET /manifest} serves: {@code revision}, {@code sha256}, {@code enabled_tiers},
   * {@code disabled_tiers} (with why) and {@code manifest}, the effective configuration: every
   * field with its default filled in, in the file's shape. Never a credential: a tier's
   * {@code credential} names only its variable or file, and credential-like header values and
   * endpoint parts are redacted. A new object on each call.
   */
  public JsonObject describe() {
    return new JsonObject(described);
  }

  @Override
  public String toString() {
    return "Manifest[revision=" + revision + ", ladder=" + enabledTiers.stream().map(TierConfig::name).toList() + "]";
  }

  private static Map<String, IntentConfig> servableDefaults(RoutingConfig routing) {
    List<TierConfig> tiers = routing == null ? null : routing.tiers();
    if (tiers == null) {
      return DEFAULT_INTENTS;
    }
    Map<String, IntentConfig> out = new LinkedHashMap<>();
    DEFAULT_INTENTS.forEach((name, i) -> {
      if (tiers.stream().anyMatch(t -> t.claim() != null && i.accepts(t.claim()))) {
        out.put(name, i);
      }
    });
    return out.isEmpty() ? DEFAULT_INTENTS : Collections.unmodifiableMap(out);
  }

  private static String firstIntent(Settings v) {
    Map<String, IntentConfig> intents = v.get(INTENTS);
    if (intents == null || intents.isEmpty()) {
      return null;
    }
    return intents.containsKey("describe") ? "describe" : intents.keySet().iterator().next();
  }

  private static void checkIntentLadders(Settings v, Section.Scope at) {
    RoutingConfig routing = v.get(ROUTING);
    Map<String, IntentConfig> intents = v.get(INTENTS);
    List<TierConfig> tiers = routing == null ? null : routing.tiers();
    // A tier whose claim is missing or unknown (already reported) makes the ladders unknowable.
    if (intents == null || tiers == null || tiers.isEmpty() || tiers.stream().anyMatch(t -> t.claim() == null)) {
      return;
    }
    intents.values().stream()
        .filter(i -> i.claims() != null && tiers.stream().noneMatch(t -> i.accepts(t.claim())))
        .forEach(i -> at.problem(INTENTS.key() + "." + i.name(),
            "leaves no tier in the ladder (claims " + i.claims().stream().map(Claim::wire).toList() + ")"));
  }
}
