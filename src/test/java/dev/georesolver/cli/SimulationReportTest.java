package dev.georesolver.cli;

import dev.georesolver.cli.SimulationReport.CaseResult;
import dev.georesolver.cli.SimulationReport.Replay;
import dev.georesolver.cli.SimulationReport.Sample;
import dev.georesolver.config.Manifest;
import dev.georesolver.config.ManifestLoader;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The pure parts of {@code validate --simulate}: the plan, the percentile, the verdicts and the table, without Vert.x. */
class SimulationReportTest {

  static final String EU = """
      routing:
        budget_ms: 1000
        tiers:
          - { name: "eu_geocoder", adapter: "pelias", endpoint: "https://pelias.eu.internal", claim: "exact", region: "eu", timeout_ms: 800 }
          - { name: "primary", adapter: "google", endpoint: "https://maps.googleapis.com/maps/api/geocode/json", claim: "exact", timeout_ms: 900 }
          - { name: "world_gazetteer", adapter: "gazetteer", claim: "locality", timeout_ms: 200 }
      tenants:
        - { id: "acme", keys: [ { sha256: "%s" } ], region: "eu", residency: "strict" }
        - { id: "globex", keys: [ { sha256: "%s" } ], intents: [measure] }
      intents:
        describe: {}
        measure: {}
      """.formatted("1".repeat(64), "2".repeat(64));

  static SimulationPlan plan() throws Exception {
    Manifest m = ManifestLoader.parse(EU, Map.of());
    return SimulationPlan.of(m);
  }

  static Sample hit(int group, long ms, String source, String... attempted) {
    return new Sample(group, ms, "resolved", source, false, List.of(attempted), "k" + group + "-" + ms);
  }

  @Test
  @DisplayName("the plan: the baseline then each rung forced open; one group per strict tenant and one for the rest, each with its intent and rungs")
  void plan_() throws Exception {
    SimulationPlan p = plan();
    assertThat(p.cases()).extracting(SimulationPlan.Case::name)
        .containsExactly("none forced", "eu_geocoder forced open", "primary forced open", "world_gazetteer forced open");
    assertThat(p.cases().get(0).forcedOpen()).isNull();
    assertThat(p.groups()).extracting(SimulationPlan.Group::label).containsExactly("globex", "acme");
    assertThat(p.groups().get(0).intent()).isEqualTo("measure");
    assertThat(p.groups().get(0).strict()).isFalse();
    // A global deployment: the gazetteer runs outside eu, so only eu_geocoder may see acme's addresses.
    assertThat(p.groups().get(1).inRegion()).containsExactly("eu_geocoder");
    assertThat(p.budgetMs()).isEqualTo(1000);
    assertThat(p.share(0, 5) + p.share(1, 5)).isEqualTo(5);
    assertThat(SimulationPlan.address(1, 1, 7)).isNotEqualTo(SimulationPlan.address(1, 0, 7)).isNotEqualTo(SimulationPlan.address(0, 1, 7));
  }

  @Test
  @DisplayName("p99 by nearest rank")
  void percentile() {
    List<Long> v = new ArrayList<>();
    for (long i = 1; i <= 200; i++) {
      v.add(i);
    }
    assertThat(SimulationReport.percentile(v, 99)).isEqualTo(198);
    assertThat(SimulationReport.percentile(List.of(5L), 99)).isEqualTo(5);
    assertThat(SimulationReport.percentile(List.of(), 99)).isZero();
    assertThat(SimulationReport.percentile(List.of(1L, 2L, 3L, 1000L), 99)).isEqualTo(1000);
  }

  @Test
  @DisplayName("a clean case passes; over the budget it fails naming the p99")
  void budget() throws Exception {
    SimulationPlan p = plan();
    List<Sample> s = List.of(hit(0, 100, "primary", "primary"), hit(1, 200, "eu_geocoder", "eu_geocoder"));
    CaseResult ok = SimulationReport.judge(p, "none forced", s, List.of(new Replay(1, true, null)), Map.of());
    assertThat(ok.passed()).isTrue();
    assertThat(ok.answeredBy()).containsOnlyKeys("globex", "acme");
    CaseResult slow = SimulationReport.judge(p, "none forced", List.of(hit(0, 1001, "primary"), hit(1, 5, "eu_geocoder")), List.of(),
        Map.of());
    assertThat(slow.passed()).isFalse();
    assertThat(slow.failures()).containsExactly("p99 1001 ms is over the budget of 1000 ms");
  }

  @Test
  @DisplayName("residency: an out-of-region rung in a strict tenant's attempts, answer or stand-in log is a violation; a replay is not")
  void residency() throws Exception {
    SimulationPlan p = plan();
    Sample crossed = hit(1, 10, "world_gazetteer", "eu_geocoder", "world_gazetteer");
    CaseResult viaAttempts = SimulationReport.judge(p, "eu_geocoder forced open", List.of(crossed), List.of(), Map.of());
    assertThat(viaAttempts.failures()).containsExactly("residency violated: tenant acme (region eu) reached world_gazetteer");

    Sample clean = hit(1, 10, "eu_geocoder", "eu_geocoder");
    CaseResult viaWire = SimulationReport.judge(p, "none forced", List.of(clean), List.of(), Map.of("primary", Set.of(clean.key())));
    assertThat(viaWire.residencyOk()).isFalse();
    assertThat(viaWire.violations()).containsExactly("tenant acme (region eu) reached primary");
    // Another tenant's key reaching primary is no violation.
    assertThat(SimulationReport.judge(p, "none forced", List.of(clean), List.of(), Map.of("primary", Set.of("other"))).passed()).isTrue();

    Sample replayed = new Sample(1, 3, "resolved", "primary", true, List.of(), "k");
    assertThat(SimulationReport.judge(p, "none forced", List.of(replayed), List.of(), Map.of()).residencyOk()).isTrue();
  }

  @Test
  @DisplayName("a strict tenant no in-region rung answered fails as unserved, though its addresses stayed home")
  void unserved() throws Exception {
    SimulationPlan p = plan();
    Sample refused = new Sample(1, 4, "refused", null, false, List.of(), "k");
    CaseResult r = SimulationReport.judge(p, "eu_geocoder forced open", List.of(hit(0, 5, "primary"), refused), List.of(), Map.of());
    assertThat(r.violations()).isEmpty();
    assertThat(r.failures()).containsExactly("no in-region rung answers strict tenant acme (region eu; its ladder: eu_geocoder)");
  }

  @Test
  @DisplayName("the table: one row a case, the failures under it, the verdict line")
  void table() throws Exception {
    SimulationPlan p = plan();
    CaseResult pass = SimulationReport.judge(p, "none forced", List.of(hit(0, 100, "primary"), hit(1, 90, "eu_geocoder")),
        List.of(new Replay(0, true, null)), Map.of());
    CaseResult fail = SimulationReport.judge(p, "eu_geocoder forced open", List.of(hit(0, 100, "primary")),
        List.of(new Replay(0, false, "the second answer was not a replay")), Map.of());
    List<String> t = SimulationReport.table("m.yaml", "abc", p, 2, List.of(pass, fail));
    assertThat(t.get(0)).isEqualTo("m.yaml: simulated (revision abc), 2 case(s), 2 request(s) each, budget 1000 ms");
    assertThat(t).contains(
        "  case                    | answered by                            | p99 ms / budget | replay   | residency | verdict",
        "  none forced             | globex: primary 1; acme: eu_geocoder 1 | 100 / 1000      | yes (1)  | ok        | pass",
        "  eu_geocoder forced open | globex: primary 1; acme: nothing sent  | 100 / 1000      | NO (0/1) | UNSERVED  | FAIL",
        "  eu_geocoder forced open: replay not idempotent: globex: the second answer was not a replay");
    assertThat(t).contains("  eu_geocoder forced open: no in-region rung answers strict tenant acme (region eu; its ladder: eu_geocoder)");
    assertThat(t.get(t.size() - 1)).isEqualTo("simulation: FAIL, 1 of 2 case(s) broke the budget, idempotency or residency");
    assertThat(SimulationReport.json("m.yaml", "abc", p, 2, List.of(pass, fail)).getBoolean("passed")).isFalse();
  }
}
