package dev.georesolver.config;

import dev.georesolver.crs.CrsNormalizer;
import dev.georesolver.geo.Claim;
import dev.georesolver.normalize.IdempotencyKey;
import dev.georesolver.provider.AdapterRegistry;
import dev.georesolver.provider.CredentialPlacement;
import dev.georesolver.provider.SchemaMode;
import io.vertx.core.json.JsonObject;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.error.YAMLException;

import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Reads and validates {@code conf/manifest.yaml} (DESIGN §8).
 *
 * <p>Validation collects every problem, each with its path, before refusing: an operator fixes the
 * file once, not once per problem. Unknown fields are problems too, so a typo is never silently
 * ignored. Blocking file I/O: call at start-up, before or off the event loop.
 */
public final class ManifestLoader {

  private static final Pattern TIER_NAME = Pattern.compile("[a-z0-9][a-z0-9_.-]{0,62}");

  private static final Set<String> ROOT_KEYS = Set.of("routing", "intents", "default_intent", "crs_definitions");
  private static final Set<String> ROUTING_KEYS =
      Set.of("budget_ms", "max_budget_ms", "admission_factor", "idempotency", "tiers");
  private static final Set<String> IDEMPOTENCY_KEYS = Set.of(
      "key_strategy", "ttl_seconds", "degraded_ttl_seconds", "deduplication_store", "max_entries", "key_prefix",
      "command_timeout_ms", "index_ttl_seconds");
  private static final Set<String> TIER_KEYS = Set.of(
      "name", "adapter", "endpoint", "claim", "region", "timeout_ms", "typical_ms", "retry_budget",
      "retry_backoff_ms", "rate_limit_per_s", "credential", "circuit_breaker", "schema_validation", "headers",
      "notice", "pool_size", "reverse_radius_m");
  private static final Set<String> CREDENTIAL_KEYS = Set.of("header", "query_param", "env", "file");
  private static final Set<String> BREAKER_KEYS = Set.of("failure_threshold", "half_open_timeout_ms", "success_threshold");
  private static final Set<String> INTENT_KEYS = Set.of("max_cache_age_s", "claims");

  /** Intents used when the manifest defines none (DESIGN §4). */
  static final Map<String, IntentConfig> DEFAULT_INTENTS = Map.of(
      "describe", new IntentConfig("describe", 604_800, Set.of()),
      "measure", new IntentConfig("measure", 3600, Set.of()),
      "contain", new IntentConfig("contain", 0, Set.of(Claim.EXACT)));

  private ManifestLoader() {}

  /**
   * Loads a manifest file.
   *
   * @param env the process environment ({@code MANIFEST_GIT_SHA}, credential variables)
   * @throws ManifestException listing every problem
   * @throws IOException when the file cannot be read
   */
  public static Manifest load(Path file, Map<String, String> env) throws ManifestException, IOException {
    return parse(Files.readString(file, StandardCharsets.UTF_8), env);
  }

  /** Parses and validates manifest text. */
  public static Manifest parse(String yaml, Map<String, String> env) throws ManifestException {
    Object root;
    try {
      // A key given twice would otherwise be silently overridden by the second: refuse it.
      LoaderOptions options = new LoaderOptions();
      options.setAllowDuplicateKeys(false);
      root = new Yaml(new SafeConstructor(options)).load(yaml);
    } catch (YAMLException e) {
      throw new ManifestException(List.of("not valid YAML: " + e.getMessage().replace('\n', ' ')));
    }
    Reader r = new Reader();
    Map<String, Object> top = r.map(root, "manifest");
    if (top == null) {
      throw new ManifestException(r.problems);
    }
    r.unknownKeys(top, ROOT_KEYS, "");
    RoutingConfig routing = readRouting(r, r.map(top.get("routing"), "routing"));
    Map<String, IntentConfig> intents = readIntents(r, top.get("intents"));
    if (top.get("intents") == null && routing != null) {
      intents = servableDefaults(routing.tiers());
    }
    String defaultIntent = r.string(top, "default_intent", "default_intent", intents.containsKey("describe") ? "describe" : null);
    if (defaultIntent == null && !intents.isEmpty()) {
      defaultIntent = intents.keySet().iterator().next();
    }
    if (defaultIntent != null && !intents.isEmpty() && !intents.containsKey(defaultIntent)) {
      r.problem("default_intent '" + defaultIntent + "' is not a defined intent");
    }
    Map<String, String> crs = readCrsDefinitions(r, top.get("crs_definitions"));
    if (routing != null) {
      checkIntentLadders(r, intents, routing.tiers());
    }
    if (!r.problems.isEmpty()) {
      throw new ManifestException(r.problems);
    }
    String sha = IdempotencyKey.sha256Hex(yaml);
    String gitSha = env.get("MANIFEST_GIT_SHA");
    String revision = sha.substring(0, 12) + (gitSha == null || gitSha.isBlank() ? "" : "-g" + gitSha.trim());
    return new Manifest(revision, sha, routing, intents, defaultIntent, crs,
        disabledTiers(routing.tiers(), env), new JsonObject(top));
  }

  private static RoutingConfig readRouting(Reader r, Map<String, Object> m) {
    if (m == null) {
      return null;
    }
    r.unknownKeys(m, ROUTING_KEYS, "routing.");
    long budget = r.positiveLong(m, "budget_ms", "routing.budget_ms", RoutingConfig.DEFAULT_BUDGET_MS);
    long max = r.positiveLong(m, "max_budget_ms", "routing.max_budget_ms", RoutingConfig.DEFAULT_MAX_BUDGET_MS);
    if (budget > 0 && max > 0 && budget > max) {
      r.problem("routing.budget_ms must be <= routing.max_budget_ms");
    }
    double factor = r.number(m, "admission_factor", "routing.admission_factor", RoutingConfig.DEFAULT_ADMISSION_FACTOR);
    if (factor < 0 || factor > 10) {
      r.problem("routing.admission_factor must be in [0, 10]");
    }
    IdempotencyConfig idem = readIdempotency(r, m.get("idempotency"));
    List<TierConfig> tiers = readTiers(r, m.get("tiers"));
    return new RoutingConfig(budget, max, factor, idem, tiers);
  }

  private static IdempotencyConfig readIdempotency(Reader r, Object o) {
    Map<String, Object> m = o == null ? Map.of() : r.map(o, "routing.idempotency");
    if (m == null) {
      m = Map.of();
    }
    String p = "routing.idempotency.";
    r.unknownKeys(m, IDEMPOTENCY_KEYS, p);
    String store = r.string(m, "deduplication_store", p + "deduplication_store", "memory");
    if (!"memory".equals(store) && !"redis".equals(store)) {
      r.problem(p + "deduplication_store must be memory or redis");
    }
    long degraded = r.longValue(m, "degraded_ttl_seconds", p + "degraded_ttl_seconds", IdempotencyConfig.DEFAULT_DEGRADED_TTL_SECONDS);
    if (degraded < 0) {
      r.problem(p + "degraded_ttl_seconds must be >= 0");
    }
    return new IdempotencyConfig(
        r.string(m, "key_strategy", p + "key_strategy", "sha256(normalized_address + bounding_box)"),
        r.positiveLong(m, "ttl_seconds", p + "ttl_seconds", IdempotencyConfig.DEFAULT_TTL_SECONDS),
        degraded,
        store,
        r.positiveLong(m, "max_entries", p + "max_entries", IdempotencyConfig.DEFAULT_MAX_ENTRIES),
        r.string(m, "key_prefix", p + "key_prefix", IdempotencyConfig.DEFAULT_KEY_PREFIX),
        r.positiveLong(m, "command_timeout_ms", p + "command_timeout_ms", IdempotencyConfig.DEFAULT_COMMAND_TIMEOUT_MS),
        r.positiveLong(m, "index_ttl_seconds", p + "index_ttl_seconds", IdempotencyConfig.DEFAULT_INDEX_TTL_SECONDS));
  }

  private static List<TierConfig> readTiers(Reader r, Object o) {
    List<TierConfig> tiers = new ArrayList<>();
    if (!(o instanceof List<?> list) || list.isEmpty()) {
      r.problem("routing.tiers must be a non-empty list");
      return tiers;
    }
    Set<String> names = new HashSet<>();
    for (int i = 0; i < list.size(); i++) {
      String p = "routing.tiers[" + i + "]";
      Map<String, Object> m = r.map(list.get(i), p);
      if (m == null) {
        continue;
      }
      TierConfig t = readTier(r, m, p + ".");
      if (t != null) {
        if (t.name() != null && !names.add(t.name())) {
          r.problem(p + ".name '" + t.name() + "' is a duplicate");
        }
        tiers.add(t);
      }
    }
    return tiers;
  }

  private static TierConfig readTier(Reader r, Map<String, Object> m, String p) {
    r.unknownKeys(m, TIER_KEYS, p);
    String name = r.string(m, "name", p + "name", null);
    if (name == null) {
      r.problem(p + "name is required");
    } else if (!TIER_NAME.matcher(name).matches()) {
      r.problem(p + "name must match " + TIER_NAME.pattern());
    }
    String adapter = r.string(m, "adapter", p + "adapter", null);
    if (adapter == null) {
      r.problem(p + "adapter is required");
    } else if (!AdapterRegistry.names().contains(adapter)) {
      r.problem(p + "adapter '" + adapter + "' is unknown (known: " + String.join(", ", AdapterRegistry.names()) + ")");
    }
    boolean local = adapter != null && AdapterRegistry.isLocal(adapter);
    String endpoint = r.string(m, "endpoint", p + "endpoint", null);
    if (!local && adapter != null) {
      checkEndpoint(r, endpoint, p + "endpoint");
    }
    String claimText = r.string(m, "claim", p + "claim", null);
    Claim claim = claimText == null ? null : Claim.fromWire(claimText).orElse(null);
    if (claimText == null) {
      r.problem(p + "claim is required");
    } else if (claim == null) {
      r.problem(p + "claim '" + claimText + "' is unknown (known: exact, open_data, cached, locality)");
    }
    long timeout = r.positiveLong(m, "timeout_ms", p + "timeout_ms", null);
    Long typical = m.containsKey("typical_ms") ? r.positiveLong(m, "typical_ms", p + "typical_ms", null) : null;
    if (typical != null && timeout > 0 && typical > timeout) {
      r.problem(p + "typical_ms must be <= timeout_ms");
    }
    long retryBudget = r.longValue(m, "retry_budget", p + "retry_budget", 0L);
    if (retryBudget < 0 || retryBudget > 10) {
      r.problem(p + "retry_budget must be in [0, 10]");
    }
    int retries = (int) retryBudget;
    long backoff = r.longValue(m, "retry_backoff_ms", p + "retry_backoff_ms", TierConfig.DEFAULT_RETRY_BACKOFF_MS);
    if (backoff < 0) {
      r.problem(p + "retry_backoff_ms must be >= 0");
    }
    double rate = r.number(m, "rate_limit_per_s", p + "rate_limit_per_s", 0.0);
    if (rate < 0) {
      r.problem(p + "rate_limit_per_s must be >= 0 (0 means unlimited)");
    }
    String schema = r.string(m, "schema_validation", p + "schema_validation", "strict");
    SchemaMode mode = SchemaMode.STRICT;
    try {
      mode = SchemaMode.fromWire(schema);
    } catch (IllegalArgumentException e) {
      r.problem(p + "schema_validation must be strict or relaxed");
    }
    int pool = r.positiveInt(m, "pool_size", p + "pool_size", TierConfig.DEFAULT_POOL_SIZE);
    double radius = r.number(m, "reverse_radius_m", p + "reverse_radius_m", 0.0);
    if (m.containsKey("reverse_radius_m") && radius <= 0) {
      r.problem(p + "reverse_radius_m must be > 0");
    }
    return new TierConfig(name, adapter, endpoint, claim,
        r.string(m, "region", p + "region", "global"),
        timeout,
        typical != null ? typical : Math.max(1, timeout / 2),
        retries, backoff, rate,
        readCredential(r, m.get("credential"), p + "credential"),
        readBreaker(r, m.get("circuit_breaker"), p + "circuit_breaker"),
        mode,
        r.stringMap(m.get("headers"), p + "headers"),
        r.string(m, "notice", p + "notice", null),
        pool,
        radius);
  }

  private static void checkEndpoint(Reader r, String endpoint, String path) {
    if (endpoint == null) {
      r.problem(path + " is required for this adapter");
      return;
    }
    try {
      URI u = new URI(endpoint);
      if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https")) || u.getHost() == null) {
        r.problem(path + " must be an absolute http(s) URL with a host");
      }
    } catch (URISyntaxException e) {
      r.problem(path + " is not a valid URL: " + e.getReason());
    }
  }

  private static CredentialConfig readCredential(Reader r, Object o, String p) {
    if (o == null) {
      return null;
    }
    Map<String, Object> m = r.map(o, p);
    if (m == null) {
      return null;
    }
    r.unknownKeys(m, CREDENTIAL_KEYS, p + ".");
    String header = r.string(m, "header", p + ".header", null);
    String query = r.string(m, "query_param", p + ".query_param", null);
    String env = r.string(m, "env", p + ".env", null);
    String file = r.string(m, "file", p + ".file", null);
    if ((env == null) == (file == null)) {
      r.problem(p + " needs exactly one of env or file");
    }
    if (header != null && query != null) {
      r.problem(p + " takes header or query_param, not both");
    }
    CredentialPlacement placement = header != null ? CredentialPlacement.header(header)
        : query != null ? CredentialPlacement.queryParam(query) : null;
    return new CredentialConfig(placement, env, file);
  }

  private static BreakerConfig readBreaker(Reader r, Object o, String p) {
    if (o == null) {
      return BreakerConfig.defaults();
    }
    Map<String, Object> m = r.map(o, p);
    if (m == null) {
      return BreakerConfig.defaults();
    }
    r.unknownKeys(m, BREAKER_KEYS, p + ".");
    return new BreakerConfig(
        r.positiveInt(m, "failure_threshold", p + ".failure_threshold", BreakerConfig.DEFAULT_FAILURE_THRESHOLD),
        r.positiveLong(m, "half_open_timeout_ms", p + ".half_open_timeout_ms", BreakerConfig.DEFAULT_HALF_OPEN_TIMEOUT_MS),
        r.positiveInt(m, "success_threshold", p + ".success_threshold", BreakerConfig.DEFAULT_SUCCESS_THRESHOLD));
  }

  /**
   * The default intents a ladder can serve: a manifest that names no intents and has no exact rung
   * (a self-hosted open-data deployment) gets describe and measure, not an unservable contain.
   */
  private static Map<String, IntentConfig> servableDefaults(List<TierConfig> tiers) {
    Map<String, IntentConfig> out = new LinkedHashMap<>();
    for (String name : List.of("describe", "measure", "contain")) {
      IntentConfig i = DEFAULT_INTENTS.get(name);
      if (tiers.stream().anyMatch(t -> t.claim() != null && i.accepts(t.claim()))) {
        out.put(name, i);
      }
    }
    return out.isEmpty() ? DEFAULT_INTENTS : out;
  }

  private static Map<String, IntentConfig> readIntents(Reader r, Object o) {
    if (o == null) {
      return DEFAULT_INTENTS;
    }
    Map<String, Object> m = r.map(o, "intents");
    if (m == null) {
      return DEFAULT_INTENTS;
    }
    if (m.isEmpty()) {
      r.problem("intents must define at least one intent");
    }
    Map<String, IntentConfig> out = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      String p = "intents." + e.getKey();
      Map<String, Object> im = e.getValue() == null ? Map.of() : r.map(e.getValue(), p);
      if (im == null) {
        continue;
      }
      r.unknownKeys(im, INTENT_KEYS, p + ".");
      long age = r.longValue(im, "max_cache_age_s", p + ".max_cache_age_s", 604_800L);
      if (age < 0) {
        r.problem(p + ".max_cache_age_s must be >= 0");
      }
      Set<Claim> claims = new LinkedHashSet<>();
      Object c = im.get("claims");
      if (c != null) {
        if (!(c instanceof List<?> cl) || cl.isEmpty()) {
          r.problem(p + ".claims must be a non-empty list");
        } else {
          for (Object x : cl) {
            Claim claim = x instanceof String s ? Claim.fromWire(s).orElse(null) : null;
            if (claim == null) {
              r.problem(p + ".claims has unknown claim '" + x + "'");
            } else {
              claims.add(claim);
            }
          }
        }
      }
      out.put(e.getKey(), new IntentConfig(e.getKey(), age, claims));
    }
    return out;
  }

  private static Map<String, String> readCrsDefinitions(Reader r, Object o) {
    if (o == null) {
      return Map.of();
    }
    Map<String, String> raw = r.stringMap(o, "crs_definitions");
    List<String> problems = CrsNormalizer.problems(raw);
    problems.forEach(r::problem);
    return problems.isEmpty() ? raw : Map.of();
  }

  private static void checkIntentLadders(Reader r, Map<String, IntentConfig> intents, List<TierConfig> tiers) {
    if (tiers.stream().anyMatch(t -> t.claim() == null)) {
      // A tier's claim is missing or unknown (already reported): which intents it serves is unknowable.
      return;
    }
    for (IntentConfig i : intents.values()) {
      boolean any = tiers.stream().anyMatch(t -> t.claim() != null && i.accepts(t.claim()));
      if (!any && !tiers.isEmpty()) {
        r.problem("intents." + i.name() + " leaves no tier in the ladder (claims " + i.claims().stream().map(Claim::wire).toList() + ")");
      }
    }
  }

  /** Tiers whose credential is unset, unreadable or blank are left out, each with its reason. */
  static Map<String, String> disabledTiers(List<TierConfig> tiers, Map<String, String> env) {
    Map<String, String> out = new LinkedHashMap<>();
    for (TierConfig t : tiers) {
      CredentialConfig c = t.credential();
      if (c == null) {
        continue;
      }
      if (c.env() != null && (env.get(c.env()) == null || env.get(c.env()).isBlank())) {
        out.put(t.name(), "credential environment variable " + c.env() + " is unset");
      } else if (c.file() != null && !Files.isReadable(Path.of(c.file()))) {
        out.put(t.name(), "credential file " + c.file() + " is not readable");
      } else if (c.file() != null && Secret.read(c, env).isEmpty()) {
        out.put(t.name(), "credential file " + c.file() + " is empty");
      }
    }
    return out;
  }

  /** Typed reads from YAML maps that record problems instead of throwing. */
  private static final class Reader {
    final List<String> problems = new ArrayList<>();

    void problem(String p) {
      problems.add(p);
    }

    @SuppressWarnings("unchecked")
    Map<String, Object> map(Object o, String path) {
      if (o instanceof Map<?, ?> m) {
        for (Object k : m.keySet()) {
          if (!(k instanceof String)) {
            problem(path + " has a non-string key: " + k);
            return null;
          }
        }
        return (Map<String, Object>) m;
      }
      problem(path + (o == null ? " is required" : " must be a mapping"));
      return null;
    }

    void unknownKeys(Map<String, Object> m, Set<String> known, String prefix) {
      for (String k : m.keySet()) {
        if (!known.contains(k)) {
          problem(prefix + k + " is not a known field");
        }
      }
    }

    String string(Map<String, Object> m, String key, String path, String dflt) {
      Object v = m.get(key);
      if (v == null) {
        return dflt;
      }
      if (!(v instanceof String s) || s.isBlank()) {
        problem(path + " must be a non-empty string");
        return dflt;
      }
      return s;
    }

    long positiveLong(Map<String, Object> m, String key, String path, Long dflt) {
      Object v = m.get(key);
      if (v == null) {
        if (dflt == null) {
          problem(path + " is required");
          return 0;
        }
        return dflt;
      }
      if (!(v instanceof Integer || v instanceof Long) || ((Number) v).longValue() <= 0) {
        problem(path + " must be > 0");
        return 0;
      }
      return ((Number) v).longValue();
    }

    int positiveInt(Map<String, Object> m, String key, String path, int dflt) {
      long v = positiveLong(m, key, path, (long) dflt);
      if (v > Integer.MAX_VALUE) {
        problem(path + " must be <= " + Integer.MAX_VALUE);
        return 0;
      }
      return (int) v;
    }

    long longValue(Map<String, Object> m, String key, String path, long dflt) {
      Object v = m.get(key);
      if (v == null) {
        return dflt;
      }
      if (!(v instanceof Integer || v instanceof Long)) {
        problem(path + " must be an integer");
        return dflt;
      }
      return ((Number) v).longValue();
    }

    double number(Map<String, Object> m, String key, String path, double dflt) {
      Object v = m.get(key);
      if (v == null) {
        return dflt;
      }
      if (!(v instanceof Number n) || !Double.isFinite(n.doubleValue())) {
        problem(path + " must be a number");
        return dflt;
      }
      return n.doubleValue();
    }

    Map<String, String> stringMap(Object o, String path) {
      if (o == null) {
        return Map.of();
      }
      Map<String, Object> m = map(o, path);
      if (m == null) {
        return Map.of();
      }
      Map<String, String> out = new LinkedHashMap<>();
      m.forEach((k, v) -> {
        if (v instanceof String s) {
          out.put(k, s);
        } else {
          problem(path + "." + k + " must be a string");
        }
      });
      return out;
    }
  }
}
