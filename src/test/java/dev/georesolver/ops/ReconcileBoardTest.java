package dev.georesolver.ops;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** What the reconciler says reaches the operator in its documented shape, bounded. */
class ReconcileBoardTest {

  private final ReconcileBoard board = new ReconcileBoard();

  @Test
  @DisplayName("no status until the reconciler speaks")
  void silentUntilItSpeaks() {
    assertThat(board.status()).isNull();
    assertThat(board.corrections()).isEmpty();
    assertThat(board.on(new JsonObject().put("type", "gossip"), 1)).isNull();
  }

  @Test
  @DisplayName("a status keeps its documented fields and the time it arrived, nothing else")
  void statusKeptToItsFields() {
    JsonObject relayed = board.on(new JsonObject().put("type", "reconcile").put("pending", 7).put("oldest_pending_age_s", 42.5)
        .put("extra", "dropped").put("done", 3), 1_000);
    assertThat(relayed.getMap()).containsOnlyKeys("type", "received_at_ms", "pending", "oldest_pending_age_s", "done");
    assertThat(board.status().getInteger("pending")).isEqualTo(7);
    assertThat(board.status().getLong("received_at_ms")).isEqualTo(1_000);
  }

  @Test
  @DisplayName("corrections are kept, the latest ones only, with their strings cut short")
  void correctionsBounded() {
    String longLabel = "x".repeat(ReconcileBoard.MAX_TEXT + 50);
    for (int i = 0; i < ReconcileBoard.CORRECTIONS_KEPT + 3; i++) {
      board.on(new JsonObject().put("type", "correction").put("served_by", "secondary").put("corrected_by", "primary")
          .put("moved_m", i).put("label", longLabel), i);
    }
    assertThat(board.corrections()).hasSize(ReconcileBoard.CORRECTIONS_KEPT);
    assertThat(board.corrections().getJsonObject(0).getInteger("moved_m")).isEqualTo(3);
    assertThat(board.corrections().getJsonObject(0).getString("label")).hasSize(ReconcileBoard.MAX_TEXT);
  }
}
