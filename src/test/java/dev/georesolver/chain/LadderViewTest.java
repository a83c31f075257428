package dev.georesolver.chain;

import dev.georesolver.config.TierConfig;
import dev.georesolver.support.ManifestBuilder;
import dev.georesolver.tier.TierBreaker;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The chain's cache of tier latencies and breaker states, and the reserve it keeps for lower rungs. */
class LadderViewTest {

  private static TierConfig tier(String name, long typicalMs) {
    return ManifestBuilder.tierConfig("name: " + name, "timeout_ms: 2000", "typical_ms: " + typicalMs);
  }

  private final TierConfig primary = tier("primary", 300);
  private final TierConfig osm = tier("osm", 200);
  private final TierConfig cache = tier("cache", 20);
  private final TierConfig gazetteer = tier("gazetteer", 5);
  private final List<TierConfig> ladder = List.of(primary, osm, cache, gazetteer);
  private final LadderView view = new LadderView(ladder);

  private static JsonObject stats(String tier, Long typicalMs, String state) {
    JsonObject j = new JsonObject().put("tier", tier).put("adapter", "generic").put("claim", "exact");
    if (typicalMs != null) {
      j.put("typical_ms", typicalMs);
    }
    if (state != null) {
      j.put("state", state);
    }
    return j;
  }

  private static JsonObject transition(String tier, String to) {
    JsonObject j = new JsonObject().put("tier", tier).put("from", "closed").put("at", "2026-01-01T00:00:00Z");
    return to == null ? j : j.put("to", to);
  }

  @Test
  void shouldStartFromTheManifestWithEveryBreakerClosed() {
    assertThat(view.typical(primary)).isEqualTo(300);
    assertThat(view.typical(gazetteer)).isEqualTo(5);
    assertThat(view.state(osm)).isEqualTo(TierBreaker.State.CLOSED);
  }

  @Test
  void shouldReserveTheTypicalLatencyOfEveryRungBelow() {
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(200 + 20 + 5);
    assertThat(view.reserveBelow(ladder, 1)).isEqualTo(20 + 5);
    assertThat(view.reserveBelow(ladder, 2)).isEqualTo(5);
    assertThat(view.reserveBelow(ladder, 3)).as("nothing below the bottom rung").isZero();
  }

  @Test
  void shouldReserveOnlyForTheRungsOfTheTrimmedLadder() {
    assertThat(view.reserveBelow(List.of(primary, gazetteer), 0)).isEqualTo(5);
  }

  @Test
  @DisplayName("a rung whose breaker is open is not reserved for: it will not be called")
  void shouldNotReserveForAnOpenRung() {
    view.onBreaker(transition("osm", "open"));

    assertThat(view.state(osm)).isEqualTo(TierBreaker.State.OPEN);
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(20 + 5);
  }

  @Test
  void shouldReserveAgainOnceTheBreakerIsHalfOpen() {
    view.onBreaker(transition("osm", "open"));
    view.onBreaker(transition("osm", "half_open"));

    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(200 + 20 + 5);
  }

  @Test
  void shouldTreatATransitionWithoutATargetAsClosed() {
    view.onBreaker(transition("osm", "open"));
    view.onBreaker(transition("osm", null));

    assertThat(view.state(osm)).isEqualTo(TierBreaker.State.CLOSED);
  }

  @Test
  void shouldTakeTheAnnouncedMedianLatency() {
    view.onStats(stats("cache", 40L, "closed"));

    assertThat(view.typical(cache)).isEqualTo(40);
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(200 + 40 + 5);
  }

  @Test
  void shouldTakeTheAnnouncedBreakerState() {
    view.onStats(stats("osm", 250L, "open"));

    assertThat(view.state(osm)).isEqualTo(TierBreaker.State.OPEN);
    assertThat(view.typical(osm)).isEqualTo(250);
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(20 + 5);
  }

  @Test
  void shouldKeepWhatAnAnnouncementLeavesOut() {
    view.onStats(stats("osm", 250L, "open"));

    view.onStats(stats("osm", null, null));

    assertThat(view.typical(osm)).isEqualTo(250);
    assertThat(view.state(osm)).isEqualTo(TierBreaker.State.OPEN);
  }

  @Test
  void shouldIgnoreTiersItDoesNotKnow() {
    TierConfig stranger = tier("stranger", 700);

    view.onStats(stats("stranger", 1L, "open"));
    view.onBreaker(transition("stranger", "open"));
    view.onStats(stats(null, 1L, "open"));
    view.onBreaker(transition(null, "open"));

    assertThat(view.typical(stranger)).as("falls back to the manifest").isEqualTo(700);
    assertThat(view.state(stranger)).isEqualTo(TierBreaker.State.CLOSED);
    assertThat(view.reserveBelow(List.of(primary, stranger), 0)).isEqualTo(700);
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(200 + 20 + 5);
  }
}
