package dev.georesolver.ops;

import dev.georesolver.support.ResolverProcess;
import dev.georesolver.support.TestState;
import dev.georesolver.support.Tools;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code scripts/drill-reconcile.sh} run as an operator would, short: the primary hangs, recovers,
 * the resolver is killed (SIGKILL) in the middle of the drain and restarted, and the report says
 * every check passed.
 */
class DrillScriptTest {

  @Test
  @DisplayName("drill-reconcile.sh --outage-s 4 --kill on SQLite passes and reports each check")
  void quickDrillWithKill() throws Exception {
    Tools.Result r = Tools.run(List.of("scripts/drill-reconcile.sh", "--outage-s", "4", "--kill", "--rps", "8"), Map.of(
        "GEO_DRILL_CLASSPATH", ResolverProcess.mainClasspath(),
        "GEO_DRILL_DIR", TestState.freshDir().toString()), 240);
    assertThat(r.exit()).as(r.output()).isZero();
    assertThat(r.output())
        .contains("reconcile drill report (sqlite, kill -9 mid-drain)")
        .contains("killed the resolver (SIGKILL)")
        .containsPattern("corrections +\\d+ in the feed, \\d+ keys, 0 keys twice, 0 lost")
        .containsPattern("replays afterwards +(\\d+) of \\1 from primary")
        .contains("drill: PASS");
  }
}
