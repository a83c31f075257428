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
 * ({@code state}, {@code reconcile}, {@code corrections}, {@code audit}, {@code batch}; as
 * {@link #TENANTS} is) is a section type of its own ({@code StateConfig extends Settings} with its
 * {@code SECTION} and fields) plus one field here and its accessor:
 *
 * <pre>{@code
 * public static final Field<StateConfig> STATE = SECTION.section("state", StateConfig.SECTION)
 *     .byDefault(StateConfig.SECTION.defaults());
 * public StateConfig state() { return root.get(STATE); }
 * }</pre>
 *
 * <p>Each field declares what a reload does with a change of it ({@link Field#live()},
 * {@link Field#redeploysTiers()}, {@link Field#readAtStart(String)}); a field that declares nothing
 * is as the field enclosing it, and a top-level one that declares nothing needs a restart.
 */
public final class Manifest {

  /** The top-level keys. */
  public static final Section<Settings> SECTION = new Section<>(read -> read);

  /** The routing block; required. */
  public static final Field<RoutingConfig> ROUTING = SECTION.section("routing", RoutingConfig.SECTION).required().live();

  /**
   * Intents by name, not empty; default describe, measure and contain, less those no tier can
   * serve (a ladder without an exact rung gets no contain).
   */
  public static final Field<Map<String, IntentConfig>> INTENTS =
      SECTION.map("intents", IntentConfig.SECTION, "must define at least one intent")
          .defaultFrom(v -> servableDefaults(v.get(ROUTING))).live();

  /** The intent of a request that names none; default {@code describe} if defined, else the first intent. */
  public static final Field<String> DEFAULT_INTENT = SECTION.string("default_intent").defaultFrom(Manifest::firstIntent).live();

  /** Pinned proj4 definitions by source CRS ({@code "EPSG:27700": "+proj=…"}); none by default. */
  public static final Field<Map<String, String>> CRS_DEFINITIONS = SECTION.stringMap("crs_definitions").byDefault(Map.of())
      .readAtStart("the transforms are built at start");

  /**
   * Who may call ({@link TenantConfig}), ids unique; absent: open access, every request tenant
   * {@code public} with every intent and the admin endpoints open.
   */
  public static final Field<List<TenantConfig>> TENANTS = SECTION.list("tenants", TenantConfig.SECTION, TenantConfig.ID).live();

  /** What the HTTP server allows a client ({@link ServerConfig}); every limit has a default. */
  public static final Field<ServerConfig> SERVER = SECTION.section("server", ServerConfig.SECTION)
      .byDefault(ServerConfig.SECTION.defaults()).readAtStart("the listening sockets hold the limits");

  /** The durable store; each field defaults on its own ({@link StateConfig}). */
  public static final Field<StateConfig> STATE = SECTION.section("state", StateConfig.SECTION)
      .byDefault(StateConfig.SECTION.defaults()).readAtStart("the state store is open");

  /** The reconciler; each field defaults on its own ({@link ReconcileConfig}). */
  public static final Field<ReconcileConfig> RECONCILE = SECTION.section("reconcile", ReconcileConfig.SECTION)
      .byDefault(ReconcileConfig.SECTION.defaults()).readAtStart("the reconciler runs from it");

  /** Delivery of corrections; each field defaults on its own ({@link CorrectionsConfig}). */
  public static final Field<CorrectionsConfig> CORRECTIONS = SECTION.section("corrections", CorrectionsConfig.SECTION)
      .byDefault(CorrectionsConfig.SECTION.defaults()).readAtStart("the corrections delivery runs from it");

  /** The audit trail; each field defaults on its own ({@link AuditConfig}). */
  public static final Field<AuditConfig> AUDIT = SECTION.section("audit", AuditConfig.SECTION)
      .byDefault(AuditConfig.SECTION.defaults()).readAtStart("each part's audit buffer and the retention timer are set up at start");

  /** Batch jobs; each field defaults on its own ({@link BatchConfig}). */
  public static final Field<BatchConfig> BATCH = SECTION.section("batch", BatchConfig.SECTION)
      .byDefault(BatchConfig.SECTION.defaults()).readAtStart("the batch worker runs from it");

  /**
   * Shadow sampling and drift; off by default, each field defaults on its own ({@link ShadowConfig}).
   * Applied by a reload: the chains sample at the serving revision's rate and the shadow verticle
   * reads the serving revision at each sample.
   */
  public static final Field<ShadowConfig> SHADOW = SECTION.section("shadow", ShadowConfig.SECTION)
      .byDefault(ShadowConfig.SECTION.defaults()).live();

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
    SECTION.rule(Manifest::checkTenantIntents);
    SECTION.rule(Manifest::checkShadow);
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
  private final Map<String, List<KeyDigest>> tenantKeys;
  private final Map<String, List<String>> missingTenantKeys;
  private final String described;
  private final Secret auditKey;

  /**
   * @param secrets each enabled tier's credential, by tier name
   * @param disabledTiers tiers left out, with why
   * @param tenantKeys each tenant's usable key digests, by tenant id
   * @param missingTenantKeys each tenant's keys that could not be read, with why (never a key)
   * @param auditKey the audit trail's deployment secret ({@code audit.key_env} or {@code audit.key_file}), or null
   */
  Manifest(Settings root, String revision, String sha256, Map<String, Secret> secrets, Map<String, String> disabledTiers,
      Map<String, List<KeyDigest>> tenantKeys, Map<String, List<String>> missingTenantKeys, Secret auditKey) {
    this.auditKey = auditKey;
    this.root = root;
    this.revision = revision;
    this.sha256 = sha256;
    this.secrets = Map.copyOf(secrets);
    this.disabledTiers = Collections.unmodifiableMap(new LinkedHashMap<>(disabledTiers));
    this.enabledTiers = routing().tiers().stream().filter(t -> !disabledTiers.containsKey(t.name())).toList();
    Map<String, List<KeyDigest>> keys = new LinkedHashMap<>();
    tenantKeys.forEach((id, list) -> keys.put(id, List.copyOf(list)));
    this.tenantKeys = Collections.unmodifiableMap(keys);
    Map<String, List<String>> missing = new LinkedHashMap<>();
    missingTenantKeys.forEach((id, list) -> missing.put(id, List.copyOf(list)));
    this.missingTenantKeys = Collections.unmodifiableMap(missing);
    JsonObject d = new JsonObject()
        .put("revision", revision)
        .put("sha256", sha256)
        .put("enabled_tiers", enabledTiers.stream().map(TierConfig::name).toList())
        .put("disabled_tiers", new JsonObject(new LinkedHashMap<>(disabledTiers)));
    if (!this.missingTenantKeys.isEmpty()) {
      JsonObject m = new JsonObject();
      this.missingTenantKeys.forEach((id, why) -> m.put(id, new io.vertx.core.json.JsonArray(why)));
      d.put("missing_tenant_keys", m);
    }
    this.described = d.put("manifest", root.toJson()).encode();
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

  /**
   * Every setting {@code next} changes against this manifest, in declaration order, each with what
   * a reload does with it as its field declares ({@link Reload}); empty when the effective
   * configurations are equal. A credential read differently is no setting here: the reloader
   * compares the tiers' secrets itself.
   */
  public List<Change> changesTo(Manifest next) {
    return Changes.of(root, next.root);
  }

  /** See {@link #ROUTING}. */
  public RoutingConfig routing() {
    return root.get(ROUTING);
  }

  /** See {@link #SERVER}. */
  public ServerConfig server() {
    return root.get(SERVER);
  }

  /** See {@link #TENANTS}; empty when no tenants are configured (open access); unmodifiable. */
  public List<TenantConfig> tenants() {
    List<TenantConfig> t = root.get(TENANTS);
    return t == null ? List.of() : t;
  }

  /** Whether a {@code tenants:} block is configured; without one, access is open. */
  public boolean tenantsConfigured() {
    return root.get(TENANTS) != null;
  }

  /**
   * The digests of a tenant's usable keys, as the loader read them (written hashes, and referenced
   * keys read once and hashed); empty for an unknown id or a tenant none of whose keys could be read.
   */
  public List<KeyDigest> tenantKeys(String tenantId) {
    return tenantKeys.getOrDefault(tenantId, List.of());
  }

  /** Each tenant's keys that could not be read at load, with why (naming the variable or file); unmodifiable. */
  public Map<String, List<String>> missingTenantKeys() {
    return missingTenantKeys;
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

  /** See {@link #BATCH}. */
  public BatchConfig batch() {
    return root.get(BATCH);
  }

  /** See {@link #CORRECTIONS}. */
  public CorrectionsConfig corrections() {
    return root.get(CORRECTIONS);
  }

  /** See {@link #AUDIT}. */
  public AuditConfig audit() {
    return root.get(AUDIT);
  }

  /** See {@link #SHADOW}. */
  public ShadowConfig shadow() {
    return root.get(SHADOW);
  }

  /** Tiers left out of the ladder at start, with why (credential unset, unreadable or empty); unmodifiable. */
  public Map<String, String> disabledTiers() {
    return disabledTiers;
  }

  /** Whether any enabled rung reads the cached spatial index, so an index verticle must run. */
  public boolean readsIndex() {
    return enabledTiers().stream().anyMatch(TierConfig::readsIndex);
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

  /**
   * The audit trail's deployment secret as configured ({@code audit.key_env}, else
   * {@code audit.key_file}), read once; empty when neither gives one.
   */
  public Optional<Secret> auditKey() {
    return Optional.ofNullable(auditKey);
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
   * {@code disabled_tiers} (with why), {@code missing_tenant_keys} (when some tenant key could not
   * be read: where it should have come from) and {@code manifest}, the effective configuration: every
   * field with its default filled in, in the file's shape. Never a credential: a tier's
   * {@code credential} names only its variable or file, a tenant key shows as its reference or
   * the first digits of its hash, and credential-like header values and endpoint parts are
   * redacted. A new object on each call.
   */
  public JsonObject describe() {
    return new JsonObject(described);
  }

  @Override
  public String toString() {
    return "Manifest[revision=" + revision + ", ladder=" + enabledTiers.stream().map(TierConfig::name).toList() + "]";
  }

  private static void checkTenantIntents(Settings v, Section.Scope at) {
    List<TenantConfig> tenants = v.get(TENANTS);
    Map<String, IntentConfig> intents = v.get(INTENTS);
    if (tenants == null || intents == null) {
      return;
    }
    for (int i = 0; i < tenants.size(); i++) {
      Set<String> asked = tenants.get(i).intents();
      if (asked != null) {
        for (String name : asked) {
          if (!intents.containsKey(name)) {
            at.problem(TENANTS.key() + "[" + i + "]." + TenantConfig.INTENTS.key(), "has unknown intent '" + name
                + "' (defined: " + String.join(", ", intents.keySet()) + ")");
          }
        }
      }
    }
  }

  /** Shadow pairs name tiers of the ladder; opted-out tenants are configured ones (or {@code public} without tenants). */
  private static void checkShadow(Settings v, Section.Scope at) {
    ShadowConfig shadow = v.get(SHADOW);
    RoutingConfig routing = v.get(ROUTING);
    if (shadow == null) {
      return;
    }
    List<TierConfig> tiers = routing == null ? null : routing.tiers();
    if (shadow.pairs() != null && tiers != null) {
      Set<String> names = new java.util.HashSet<>();
      tiers.forEach(t -> names.add(t.name()));
      List<ShadowConfig.Pair> pairs = shadow.pairs();
      for (int i = 0; i < pairs.size(); i++) {
        String at0 = SHADOW.key() + "." + ShadowConfig.PAIRS.key() + "[" + i + "]";
        for (String name : new String[] {pairs.get(i).served(), pairs.get(i).shadow()}) {
          if (name != null && !names.contains(name)) {
            at.problem(at0, "names '" + name + "', which is not a tier of routing.tiers");
          }
        }
      }
    }
    List<TenantConfig> tenants = v.get(TENANTS);
    Set<String> ids = new java.util.HashSet<>();
    if (tenants == null) {
      ids.add("public");
    } else {
      tenants.forEach(t -> ids.add(t.id()));
    }
    for (String id : shadow.optOutTenants()) {
      if (!ids.contains(id)) {
        at.problem(SHADOW.key() + "." + ShadowConfig.OPT_OUT_TENANTS.key(), "names '" + id + "', which is not a configured tenant");
      }
    }
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
