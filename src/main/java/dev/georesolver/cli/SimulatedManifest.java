package dev.georesolver.cli;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.TierConfig;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.constructor.SafeConstructor;
import org.yaml.snakeyaml.representer.Representer;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The manifest {@code validate --simulate} runs: the user's, with every remote rung's endpoint
 * pointed at its stand-in (scheme, host and port replaced, the path kept, so the adapter builds the
 * very requests it would send the provider), every credential read from one dummy variable
 * ({@link #DUMMY_ENV}, set only in the simulation's own environment), TLS material dropped (stand-ins
 * speak plain HTTP on 127.0.0.1), every tenant key replaced by a digest of nothing anyone holds,
 * and the state in memory. Nothing else changes: the ladder, regions, residency, budgets, breakers
 * and rate limits are the user's. So CI without production secrets runs every rung, and no real
 * credential is read, sent or printed.
 *
 * <p>Pure text to text (SnakeYAML); the user's manifest must already have been validated.
 * Thread-safe.
 */
final class SimulatedManifest {

  /** The environment variable every simulated credential is read from. */
  static final String DUMMY_ENV = "GEO_SIMULATE_DUMMY_CREDENTIAL";
  /** Its value: plainly not a real key. */
  static final String DUMMY_VALUE = "simulated-not-a-secret";

  private SimulatedManifest() {}

  /**
   * The simulated manifest's text.
   *
   * @param yaml the user's manifest, valid
   * @param user the same, as loaded (which of its rungs are local)
   * @param standIns per remote rung name, its stand-in's base URL ({@code http://127.0.0.1:port})
   * @throws IllegalArgumentException when a remote rung has no stand-in or an endpoint is not a URL
   */
  @SuppressWarnings("unchecked")
  static String rewrite(String yaml, Manifest user, Map<String, String> standIns) {
    java.util.Set<String> local = new java.util.HashSet<>(user.routing().tiers().stream().filter(TierConfig::local)
        .map(TierConfig::name).toList());
    LoaderOptions options = new LoaderOptions();
    options.setAllowDuplicateKeys(false);
    Map<String, Object> top = (Map<String, Object>) new Yaml(new SafeConstructor(options)).load(yaml);
    Map<String, Object> routing = (Map<String, Object>) top.get("routing");
    for (Object o : (List<Object>) routing.get("tiers")) {
      Map<String, Object> tier = (Map<String, Object>) o;
      String name = String.valueOf(tier.get("name"));
      if (local.contains(name)) {
        continue;
      }
      String base = standIns.get(name);
      if (base == null) {
        throw new IllegalArgumentException("no stand-in for rung " + name);
      }
      tier.put("endpoint", base + pathOf(String.valueOf(tier.get("endpoint"))));
      tier.remove("tls");
      if (tier.get("credential") instanceof Map<?, ?> c) {
        Map<String, Object> dummy = new LinkedHashMap<>();
        copy(c, dummy, "header");
        copy(c, dummy, "query_param");
        dummy.put("env", DUMMY_ENV);
        tier.put("credential", dummy);
      }
    }
    if (routing.get("idempotency") instanceof Map<?, ?> idem) {
      ((Map<String, Object>) idem).put("deduplication_store", "memory");
    }
    if (top.get("tenants") instanceof List<?> tenants) {
      int i = 0;
      for (Object o : tenants) {
        Map<String, Object> t = (Map<String, Object>) o;
        // A distinct digest each: two tenants must never share a key.
        t.put("keys", List.of(Map.of("sha256", String.format("%064x", ++i))));
      }
    }
    // The ingress is not started and the state stays in memory: files they name are not read.
    top.remove("server");
    if (top.get("audit") instanceof Map<?, ?> audit) {
      ((Map<String, Object>) audit).remove("key_file");
    }
    DumperOptions dump = new DumperOptions();
    dump.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
    return new Yaml(new SafeConstructor(options), new Representer(dump), dump).dump(top);
  }

  /** The environment the simulated manifest is read with: the dummy credential and nothing else. */
  static Map<String, String> env() {
    return Map.of(DUMMY_ENV, DUMMY_VALUE);
  }

  private static void copy(Map<?, ?> from, Map<String, Object> to, String key) {
    if (from.get(key) != null) {
      to.put(key, from.get(key));
    }
  }

  /** The path (and query) of an endpoint URL, without its scheme, host and port: "" for none. */
  static String pathOf(String endpoint) {
    try {
      URI u = new URI(endpoint);
      String path = u.getRawPath() == null ? "" : u.getRawPath();
      return u.getRawQuery() == null ? path : path + "?" + u.getRawQuery();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException("endpoint is not a URL: " + e.getReason());
    }
  }
}
