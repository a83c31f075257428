package dev.georesolver.bench.jmh;

import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestException;
import dev.georesolver.config.ManifestLoader;
import dev.georesolver.tenant.Tenants;
import dev.georesolver.tenant.Verdict;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the tenant guard costs each request: one sha256 of the presented key and a constant-time
 * comparison with every configured digest (two keys per tenant), then the tenant's token bucket.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class TenantAuthBenchmark {

  /** How many tenants the manifest configures. */
  @Param({"1", "20", "200"})
  public int tenants;

  private Tenants registry;
  private final String key = "bench-tenant-key-0123456789abcdef";

  @Setup
  public void setUp() throws ManifestException {
    StringBuilder yaml = new StringBuilder("""
        routing:
          tiers:
            - { name: t1, adapter: generic, endpoint: "http://geo.example", claim: exact, timeout_ms: 500 }
        tenants:
        """);
    for (int t = 1; t < tenants; t++) {
      yaml.append("  - { id: \"t").append(t).append("\", keys: [ { env: \"K").append(t).append("A\" }, { env: \"K").append(t)
          .append("B\" } ], rate_limit_per_s: 1000000 }\n");
    }
    yaml.append("  - { id: \"bench\", keys: [ { env: \"OLD\" }, { env: \"KEY\" } ], rate_limit_per_s: 1000000000, burst: 1000000 }\n");
    Map<String, String> env = new java.util.HashMap<>(Map.of("KEY", key, "OLD", "bench-old-key"));
    for (int t = 1; t < tenants; t++) {
      env.put("K" + t + "A", "other-key-" + t + "-a");
      env.put("K" + t + "B", "other-key-" + t + "-b");
    }
    Manifest m = ManifestLoader.parse(yaml.toString(), env);
    registry = Tenants.of(m);
  }

  @Benchmark
  public Verdict admit() {
    return registry.admit(key);
  }

  @Benchmark
  public Verdict refuseUnknownKey() {
    return registry.admit("not-a-key-of-anyone-0123456789ab");
  }
}
