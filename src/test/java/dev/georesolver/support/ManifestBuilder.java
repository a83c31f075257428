package dev.georesolver.support;

import dev.georesolver.config.BreakerConfig;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestException;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.config.TierConfig;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Manifests for tests, always as YAML run through the real loader, so a test never builds a
 * configuration the loader would refuse and never depends on a constructor's argument order.
 *
 * <p>{@link #manifest()} writes a whole manifest (routing block, tiers in order, extra blocks);
 * {@link #tierConfig} and {@link #breaker} build one section from {@code key: value} lines.
 */
public final class ManifestBuilder {

  private long budgetMs = 2000;
  private long maxBudgetMs = 10_000;
  private double admissionFactor = 0.5;
  private String region;
  private String extra = "";
  private final List<String> tiers = new ArrayList<>();

  public static ManifestBuilder manifest() {
    return new ManifestBuilder();
  }

  public ManifestBuilder budget(long ms) {
    this.budgetMs = ms;
    return this;
  }

  public ManifestBuilder maxBudget(long ms) {
    this.maxBudgetMs = ms;
    return this;
  }

  public ManifestBuilder admissionFactor(double f) {
    this.admissionFactor = f;
    return this;
  }

  /** Sets {@code routing.region} (where the deployment and its local rungs run). */
  public ManifestBuilder region(String region) {
    this.region = region;
    return this;
  }

  /** Adds a tier; {@code yamlFields} are extra fields such as {@code "retry_budget: 2"}. */
  public ManifestBuilder tier(String name, String adapter, String endpoint, String claim, long timeoutMs, String... yamlFields) {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("name", quoted(name));
    f.put("adapter", quoted(adapter));
    if (endpoint != null) {
      f.put("endpoint", quoted(endpoint));
    }
    f.put("claim", quoted(claim));
    f.put("timeout_ms", Long.toString(timeoutMs));
    tiers.add(listEntry(f, yamlFields));
    return this;
  }

  /** Adds top-level YAML after the routing block (intents, crs_definitions…). */
  public ManifestBuilder extra(String yaml) {
    this.extra += yaml + "\n";
    return this;
  }

  /** The manifest's YAML, with a private state file and no reconciler unless {@link #extra} gives them ({@link TestState}). */
  public String yaml() {
    return TestState.isolate("routing:\n"
        + "  budget_ms: " + budgetMs + "\n"
        + "  max_budget_ms: " + maxBudgetMs + "\n"
        + "  admission_factor: " + admissionFactor + "\n"
        + (region == null ? "" : "  region: \"" + region + "\"\n")
        + "  idempotency:\n"
        + "    ttl_seconds: 3600\n"
        + "    deduplication_store: \"memory\"\n"
        + "  tiers:\n"
        + String.join("", tiers)
        + extra);
  }

  /** The manifest, loaded with an empty environment. */
  public Manifest build() {
    return build(Map.of());
  }

  /** The manifest, loaded with {@code env}; a manifest the loader refuses fails the test with every problem. */
  public Manifest build(Map<String, String> env) {
    try {
      return ManifestLoader.parse(yaml(), env);
    } catch (ManifestException e) {
      throw new AssertionError(e.getMessage(), e);
    }
  }

  /**
   * One tier: a valid generic tier ({@code name: t1}, {@code adapter: generic},
   * {@code endpoint: http://geo.example}, {@code claim: exact}, {@code timeout_ms: 1000}) with
   * {@code fields} ({@code "typical_ms: 300"}) added or overriding, and {@code "-key"} dropping one.
   */
  public static TierConfig tierConfig(String... fields) {
    return TierConfig.SECTION.parse(mapping(validTier(), fields, ""));
  }

  /** The same tier as {@link #tierConfig}, as an entry of {@code routing.tiers} (YAML text, indented). */
  public static String tierEntry(String... fields) {
    return listEntry(validTier(), fields);
  }

  private static Map<String, String> validTier() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("name", "t1");
    f.put("adapter", "generic");
    f.put("endpoint", "http://geo.example");
    f.put("claim", "exact");
    f.put("timeout_ms", "1000");
    return f;
  }

  /** Breaker settings from {@code key: value} fields, the others at their defaults. */
  public static BreakerConfig breaker(String... fields) {
    return BreakerConfig.SECTION.parse(mapping(new LinkedHashMap<>(), fields, ""));
  }

  private static String listEntry(Map<String, String> base, String... fields) {
    String m = mapping(base, fields, "      ");
    return "    - " + m.substring("      ".length());
  }

  /** {@code base} with {@code fields} applied, one {@code key: value} line each, every line indented. */
  private static String mapping(Map<String, String> base, String[] fields, String indent) {
    Map<String, String> f = new LinkedHashMap<>(base);
    for (String o : fields) {
      if (o.startsWith("-")) {
        f.remove(o.substring(1));
      } else {
        int colon = o.indexOf(':');
        f.put(o.substring(0, colon).strip(), o.substring(colon + 1).strip());
      }
    }
    StringBuilder sb = new StringBuilder();
    f.forEach((k, v) -> sb.append(indent).append(k).append(": ").append(v).append('\n'));
    return sb.length() == 0 ? "{}" : sb.toString();
  }

  private static String quoted(String s) {
    return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
