package dev.georesolver.issues;

import dev.georesolver.cli.Cli;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 27: {@code georesolver validate --simulate} proves a ladder change before it ships — the
 * ladder against stand-ins at each rung's {@code typical_ms}, each breaker forced open in turn,
 * every case judged on budget, replay idempotency and residency — and exits non-zero when a case
 * breaks the budget or residency. A small load keeps each run to seconds.
 */
class Issue27ValidateSimulateTest {

  /** What a run printed and its exit status. */
  record Run(int status, String out, String err) {
    @Override
    public String toString() {
      return "status " + status + "\n--- stdout\n" + out + "--- stderr\n" + err;
    }
  }

  static Run validate(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    int status;
    try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8); PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
      String[] all = new String[args.length + 5];
      all[0] = "validate";
      all[1] = "--simulate";
      all[2] = "--requests";
      all[3] = "24";
      all[4] = "--concurrency=6";
      System.arraycopy(args, 0, all, 5, args.length);
      // No credential in the environment: CI without secrets simulates every rung all the same.
      status = Cli.run(all, Map.of(), o, e);
    }
    return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
  }

  /** The default manifest passes: the baseline and every rung forced open in turn are within budget, replays idempotent. */
  @Test
  @DisplayName("conf/manifest.yaml: every forced-open case within budget, exit 0")
  void defaultManifestPasses() {
    Run r = validate("conf/manifest.yaml");
    assertThat(r.status()).as(r.toString()).isZero();
    assertThat(r.out()).as(r.toString())
        .contains("ladder: primary_commercial > osm_nominatim > cached_index > world_gazetteer (every rung, credentials stood in)")
        .containsPattern("\\n  none forced +\\| primary_commercial \\d+")
        .contains("simulation: PASS, every case within budget and residency")
        .doesNotContain("FAIL");
    for (String tier : List.of("primary_commercial", "osm_nominatim", "cached_index", "world_gazetteer")) {
      assertThat(r.out()).as(r.toString()).containsPattern("\\n  " + tier + " forced open +\\|[^\\n]*\\| yes \\(\\d+\\) +\\| ok +\\| pass\\n");
    }
    // The rung forced open answers nothing in its case.
    assertThat(r.out()).doesNotContainPattern("\\n  primary_commercial forced open +\\|[^|]*primary_commercial");
    assertThat(r.out() + r.err()).doesNotContain("simulated-not-a-secret");
  }

  /** With the strict tenant's only in-region rung removed, every case fails as "no in-region rung answers", exit 1. */
  @Test
  @DisplayName("a manifest whose only in-region rung is removed: exit 1, the residency failure named")
  void onlyInRegionRungRemovedFails() {
    Run r = validate("src/test/resources/simulate/strict-in-region-rung-removed.yaml");
    assertThat(r.status()).as(r.toString()).isEqualTo(1);
    assertThat(r.out()).as(r.toString())
        .contains("none forced: no in-region rung answers strict tenant acme (region eu; its ladder: empty)")
        .containsPattern("\\n  none forced +\\| globex: primary_commercial \\d+; acme: misconfigured \\d+ +\\|[^\\n]*\\| UNSERVED +\\| FAIL\\n")
        .contains("simulation: FAIL, 4 of 4 case(s)");
  }

  /** A strict tenant of an EU deployment stays in its region in every case, degrading to the local rungs when its provider is forced open. */
  @Test
  @DisplayName("a strict tenant never leaves its region, and --json reports the same verdicts")
  void strictTenantStaysInRegion() {
    Run r = validate("--json", "src/test/resources/simulate/strict-eu-deployment.yaml");
    assertThat(r.status()).as(r.toString()).isZero();
    JsonObject report = new JsonObject(r.out().strip());
    assertThat(report.getBoolean("passed")).isTrue();
    assertThat(report.getJsonArray("cases")).hasSize(5);
    for (Object o : report.getJsonArray("cases")) {
      JsonObject c = (JsonObject) o;
      assertThat(c.getBoolean("residency_ok")).as(c.encode()).isTrue();
      assertThat(c.getJsonObject("answered_by").getJsonObject("acme").fieldNames()).as(c.encode())
          .doesNotContain("primary_commercial").isNotEmpty();
    }
    JsonObject euOpen = report.getJsonArray("cases").getJsonObject(1);
    assertThat(euOpen.getString("case")).isEqualTo("eu_geocoder forced open");
    assertThat(euOpen.getJsonObject("answered_by").getJsonObject("acme").fieldNames()).containsOnly("world_gazetteer");
  }

  /** The simulation's options without {@code --simulate}, or out of their bounds, are a usage error (exit 2), nothing run. */
  @Test
  @DisplayName("--json, --requests, --concurrency, --rate need --simulate and stay in bounds")
  void optionsNeedSimulate() {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try (PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8); PrintStream o = new PrintStream(new ByteArrayOutputStream())) {
      assertThat(Cli.run(new String[] {"validate", "--json", "conf/manifest.yaml"}, Map.of(), o, e)).isEqualTo(2);
      assertThat(Cli.run(new String[] {"validate", "--simulate", "--requests", "0", "conf/manifest.yaml"}, Map.of(), o, e)).isEqualTo(2);
      assertThat(Cli.run(new String[] {"validate", "--simulate", "--rate", "0", "conf/manifest.yaml"}, Map.of(), o, e)).isEqualTo(2);
    }
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("go with --simulate").contains("--rate 0.1 to");
  }
}
