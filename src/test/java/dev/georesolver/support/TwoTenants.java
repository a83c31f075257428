package dev.georesolver.support;

import static dev.georesolver.support.ManifestBuilder.manifest;

/**
 * A manifest for two tenants, {@code alpha} and {@code beta} (keys from {@code ALPHA_KEY} and
 * {@code BETA_KEY}), on a two-rung ladder whose first rung's breaker never opens: every answer of a
 * failing primary is the fallback's, degraded, and owes a correction. For tests of what one tenant
 * may see of another's walk.
 */
public final class TwoTenants {

  private TwoTenants() {
  }

  /** The manifest over {@code primaryUrl} and {@code fallbackUrl}, with {@code extraYaml} (top-level sections) appended. */
  public static String failover(String primaryUrl, String fallbackUrl, String extraYaml) {
    return manifest().budget(8000).maxBudget(10000)
        .tier("primary", "generic", primaryUrl, "exact", 300,
            "circuit_breaker: { failure_threshold: 1000, half_open_timeout_ms: 1000, success_threshold: 1 }")
        .tier("fallback", "generic", fallbackUrl, "open_data", 500)
        .extra("""
            tenants:
              - { id: "alpha", keys: [ { env: "ALPHA_KEY" } ] }
              - { id: "beta", keys: [ { env: "BETA_KEY" } ] }
            """ + extraYaml)
        .yaml();
  }
}
