package dev.georesolver.ops;

import dev.georesolver.support.ManifestBuilder;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The operator's ladder: seeded from the manifest, kept from the tiers' announcements. */
class LadderBoardTest {

  private final LadderBoard board = new LadderBoard(List.of(
      ManifestBuilder.tierConfig("name: primary", "typical_ms: 300"),
      ManifestBuilder.tierConfig("name: secondary", "claim: open_data")));

  @Test
  @DisplayName("seeded in ladder order, every breaker closed, typical latency as configured")
  void seededFromTheManifest() {
    assertThat(board.tiers().stream().map(o -> ((JsonObject) o).getString("tier"))).containsExactly("primary", "secondary");
    assertThat(board.tiers().getJsonObject(0).getString("state")).isEqualTo("closed");
    assertThat(board.tiers().getJsonObject(0).getLong("typical_ms")).isEqualTo(300);
    assertThat(board.tiers().getJsonObject(1).getString("claim")).isEqualTo("open_data");
  }

  @Test
  @DisplayName("a transition sets the tier's state and is kept, relayed with its type")
  void transitionsAreAppliedAndKept() {
    JsonObject relayed = board.onTransition(new JsonObject().put("tier", "primary").put("from", "closed").put("to", "forced_open")
        .put("reason", "force_open"));
    assertThat(relayed.getString("type")).isEqualTo("breaker");
    assertThat(board.tiers().getJsonObject(0).getString("state")).isEqualTo("forced_open");
    assertThat(board.transitions()).hasSize(1);
    assertThat(board.onTransition(new JsonObject().put("to", "open"))).as("no tier named").isNull();
    for (int i = 0; i < LadderBoard.TRANSITIONS_KEPT + 5; i++) {
      board.onTransition(new JsonObject().put("tier", "secondary").put("to", i % 2 == 0 ? "open" : "closed"));
    }
    assertThat(board.transitions()).hasSize(LadderBoard.TRANSITIONS_KEPT);
  }

  @Test
  @DisplayName("a status updates the known fields; a tier first heard of is added at the bottom")
  void statusesUpdate() {
    board.onStatus(new JsonObject().put("tier", "secondary").put("typical_ms", 42).put("state", "half_open").put("secret", "x"));
    board.onStatus(new JsonObject().put("tier", "newcomer").put("state", "closed"));
    assertThat(board.tiers().getJsonObject(1).getLong("typical_ms")).isEqualTo(42);
    assertThat(board.tiers().getJsonObject(1).getString("state")).isEqualTo("half_open");
    assertThat(board.tiers().getJsonObject(1).containsKey("secret")).isFalse();
    assertThat(board.tiers().getJsonObject(2).getString("tier")).isEqualTo("newcomer");
  }
}
