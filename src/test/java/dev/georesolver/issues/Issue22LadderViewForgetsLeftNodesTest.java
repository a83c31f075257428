package dev.georesolver.issues;

import dev.georesolver.chain.LadderView;
import dev.georesolver.config.MarginsConfig;
import dev.georesolver.config.TierConfig;
import dev.georesolver.support.FakeClock;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.tier.TierBreaker;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A chain forgets a tier node that left the cluster: its last "closed" breaker and low median stop steering admission. */
class Issue22LadderViewForgetsLeftNodesTest {

  @Test
  @DisplayName("a node not heard from for three heartbeats no longer speaks for its tier; a node still heard from does")
  void aQuietNodeIsForgotten() {
    TierConfig primary = ManifestBuilder.tierConfig("name: primary", "adapter: generic", "endpoint: http://p.invalid/x",
        "claim: exact", "timeout_ms: 1000", "typical_ms: 300");
    FakeClock clock = new FakeClock();
    LadderView view = new LadderView(List.of(primary), MarginsConfig.SECTION.defaults(), null, clock);
    // Node "gone" said closed and fast; node "live" says open.
    view.onStats(new JsonObject().put("tier", "primary").put("node", "gone").put("state", "closed").put("typical_ms", 5));
    view.onStats(new JsonObject().put("tier", "primary").put("node", "live").put("state", "open").put("typical_ms", 400));
    assertThat(view.state(primary)).isEqualTo(TierBreaker.State.CLOSED);
    assertThat(view.typical(primary)).isEqualTo(5);
    for (int i = 0; i < 4; i++) {
      clock.advanceMs(5_000);
      view.onStats(new JsonObject().put("tier", "primary").put("node", "live").put("state", "open").put("typical_ms", 400));
    }
    assertThat(view.state(primary)).as("only the node still heard from counts").isEqualTo(TierBreaker.State.OPEN);
    assertThat(view.typical(primary)).isEqualTo(400);
    clock.advanceMs(LadderView.STALE_MS + 1);
    assertThat(view.state(primary)).as("no node heard from: the manifest's seed").isEqualTo(TierBreaker.State.CLOSED);
    assertThat(view.typical(primary)).isEqualTo(300);
  }
}
