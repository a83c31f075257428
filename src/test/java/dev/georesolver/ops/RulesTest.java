package dev.georesolver.ops;

import dev.georesolver.support.Tools;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** The alert rules are valid Prometheus rules, and each alert fires on its synthetic series and stays silent on the others. */
class RulesTest {

  private static String promtool;

  @BeforeAll
  static void findPromtool() {
    promtool = Tools.find("promtool", "PROMTOOL", Path.of("target/tools/prometheus/usr/bin/promtool"));
  }

  private static Tools.Result promtool(String... args) throws Exception {
    List<String> cmd = new ArrayList<>(List.of(promtool));
    cmd.addAll(List.of(args));
    return Tools.run(cmd, Map.of(), 60);
  }

  @Test
  @DisplayName("promtool check rules accepts conf/prometheus/alerts.yml")
  void rulesAreValid() throws Exception {
    Tools.Result r = promtool("check", "rules", "conf/prometheus/alerts.yml");
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS: 11 rules found");
  }

  @Test
  @DisplayName("promtool test rules: every alert fires when it should and not otherwise")
  void alertUnitTests() throws Exception {
    Tools.Result r = promtool("test", "rules", "conf/prometheus/alerts_test.yml");
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("SUCCESS");
  }

  @Test
  @DisplayName("every alert has a firing case and a silent case in the unit tests")
  void everyAlertIsTestedBothWays() throws Exception {
    String rules = Files.readString(Path.of("conf/prometheus/alerts.yml"));
    String tests = Files.readString(Path.of("conf/prometheus/alerts_test.yml"));
    List<String> alerts = Pattern.compile("- alert: (\\w+)").matcher(rules).results().map(m -> m.group(1)).toList();
    assertThat(alerts).containsExactlyInAnyOrder("GeoresolverServedBelowFirstRung", "GeoresolverRefusalsRisingErrorsFlat",
        "GeoresolverBreakerOpenTooLong", "GeoresolverBreakerForcedLong", "GeoresolverReconcileBacklogOld");
    for (String a : alerts) {
      assertThat(tests).as(a + " fires somewhere").containsPattern("alertname: " + a + "\\n\\s+exp_alerts:\\n\\s+- exp_labels");
      assertThat(tests).as(a + " is silent somewhere").containsPattern("alertname: " + a + "\\n\\s+exp_alerts: \\[\\]");
    }
  }

  @Test
  @DisplayName("promtool check config accepts the stack's prometheus.yml and the rule file it loads")
  void prometheusConfigIsValid() throws Exception {
    Tools.Result r = promtool("check", "config", "conf/prometheus/prometheus.yml");
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output()).contains("1 rule files found");
  }
}
