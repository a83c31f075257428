package dev.georesolver.support;

import java.util.ArrayList;
import java.util.List;

/** Writes manifest YAML for tests: the routing block, tiers in order, optional extra blocks. */
public final class ManifestBuilder {

  private long budgetMs = 2000;
  private long maxBudgetMs = 10_000;
  private double admissionFactor = 0.5;
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

  /** Adds a tier; {@code yamlFields} are extra indented lines such as {@code "retry_budget: 2"}. */
  public ManifestBuilder tier(String name, String adapter, String endpoint, String claim, long timeoutMs, String... yamlFields) {
    StringBuilder sb = new StringBuilder();
    sb.append("    - name: \"").append(name).append("\"\n");
    sb.append("      adapter: \"").append(adapter).append("\"\n");
    if (endpoint != null) {
      sb.append("      endpoint: \"").append(endpoint).append("\"\n");
    }
    sb.append("      claim: \"").append(claim).append("\"\n");
    sb.append("      timeout_ms: ").append(timeoutMs).append('\n');
    for (String f : yamlFields) {
      sb.append("      ").append(f).append('\n');
    }
    tiers.add(sb.toString());
    return this;
  }

  /** Adds top-level YAML after the routing block (intents, crs_definitions…). */
  public ManifestBuilder extra(String yaml) {
    this.extra += yaml + "\n";
    return this;
  }

  public String yaml() {
    return "routing:\n"
        + "  budget_ms: " + budgetMs + "\n"
        + "  max_budget_ms: " + maxBudgetMs + "\n"
        + "  admission_factor: " + admissionFactor + "\n"
        + "  idempotency:\n"
        + "    ttl_seconds: 3600\n"
        + "    deduplication_store: \"memory\"\n"
        + "  tiers:\n"
        + String.join("", tiers)
        + extra;
  }
}
