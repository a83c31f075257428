package dev.georesolver.chain;

import dev.georesolver.config.MarginsConfig;
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

  /** Default margins: floor 25 ms, tier reply 2 ms, hop 2 ms, so each rung below costs max(typical, 25) + 6. */
  private static final MarginsConfig MARGINS = MarginsConfig.SECTION.defaults();

  /** What one rung below of this median is kept with the default margins. */
  private static long share(long typical) {
    return Math.max(typical, 25) + 2 + 2 * 2;
  }

  /** The reserve for these rungs below, plus the two hops of the rung being admitted. */
  private static long reserve(long... typicalsBelow) {
    long sum = 4;
    for (long t : typicalsBelow) {
      sum += share(t);
    }
    return sum;
  }

  private static TierConfig tier(String name, long typicalMs) {
    return ManifestBuilder.tierConfig("name: " + name, "timeout_ms: 2000", "typical_ms: " + typicalMs);
  }

  private final TierConfig primary = tier("primary", 300);
  private final TierConfig osm = tier("osm", 200);
  private final TierConfig cache = tier("cache", 20);
  private final TierConfig gazetteer = tier("gazetteer", 5);
  private final List<TierConfig> ladder = List.of(primary, osm, cache, gazetteer);
  private final LadderView view = new LadderView(ladder, MARGINS);

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
  @DisplayName("every rung below is kept its typical latency (at least the floor), its tier's reply margin and its hops")
  void shouldReserveTheTypicalLatencyOfEveryRungBelow() {
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(4 + 206 + 31 + 31).isEqualTo(reserve(200, 20, 5));
    assertThat(view.reserveBelow(ladder, 1)).isEqualTo(reserve(20, 5));
    assertThat(view.reserveBelow(ladder, 2)).as("the floor, not the 5 ms median").isEqualTo(4 + 25 + 2 + 4);
    assertThat(view.reserveBelow(ladder, 3)).as("nothing below the bottom rung").isZero();
  }

  @Test
  @DisplayName("the floor, the reply margin and the hop cost come from routing.margins")
  void shouldTakeTheFiguresFromTheMargins() {
    MarginsConfig m = MarginsConfig.SECTION.parse("{ rung_floor_ms: 30, tier_reply_ms: 1, hop_ms: 5 }");
    LadderView v = new LadderView(ladder, m);
    assertThat(v.reserveBelow(ladder, 2)).isEqualTo(10 + 30 + 1 + 10);
    assertThat(v.reserveBelow(ladder, 1)).isEqualTo(10 + (30 + 1 + 10) + (30 + 1 + 10));
    MarginsConfig none = MarginsConfig.SECTION.parse("{ rung_floor_ms: 0, tier_reply_ms: 0, hop_ms: 0 }");
    assertThat(new LadderView(ladder, none).reserveBelow(ladder, 0)).as("the medians alone").isEqualTo(200 + 20 + 5);
  }

  @Test
  @DisplayName("the default ladder's figures: a hung Nominatim above the cached index and the gazetteer leaves them 66 ms")
  void shouldKeepTheDefaultLadderItsLocalRungs() {
    TierConfig nominatim = tier("osm_nominatim", 600);
    TierConfig cachedIndex = ManifestBuilder.tierConfig("name: cached_index", "timeout_ms: 200", "typical_ms: 5");
    TierConfig gaz = ManifestBuilder.tierConfig("name: world_gazetteer", "timeout_ms: 200", "typical_ms: 2");
    List<TierConfig> defaults = List.of(nominatim, cachedIndex, gaz);
    LadderView v = new LadderView(defaults, MARGINS);
    assertThat(v.reserveBelow(defaults, 0)).isEqualTo(4 + 31 + 31);
    assertThat(v.reserveBelow(defaults, 1)).isEqualTo(4 + 31);
    assertThat(v.reserveBelow(defaults, 2)).isZero();
  }

  @Test
  void shouldReserveOnlyForTheRungsOfTheTrimmedLadder() {
    assertThat(view.reserveBelow(List.of(primary, gazetteer), 0)).isEqualTo(reserve(5));
  }

  @Test
  @DisplayName("a rung whose breaker is open is not reserved for: it will not be called")
  void shouldNotReserveForAnOpenRung() {
    view.onBreaker(transition("osm", "open"));

    assertThat(view.state(osm)).isEqualTo(TierBreaker.State.OPEN);
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(reserve(20, 5));
  }

  @Test
  @DisplayName("what the rungs below need to be admitted: factor x median + reply margin + hops each, open ones left out")
  void shouldSumWhatTheRungsBelowNeed() {
    assertThat(view.neededBelow(ladder, 0, 0.5)).isEqualTo((100 + 6) + (10 + 6) + (3 + 6));
    assertThat(view.neededBelow(ladder, 3, 0.5)).isZero();
    view.onBreaker(transition("cache", "open"));
    assertThat(view.neededBelow(ladder, 1, 0.5)).isEqualTo(3 + 6);
    assertThat(view.neededBelow(ladder, 1, 0.5)).as("never more than the reserve").isLessThan(view.reserveBelow(ladder, 1));
  }

  @Test
  @DisplayName("nothing is reserved when every rung below is open: not even the hops")
  void shouldReserveNothingWhenEveryRungBelowIsOpen() {
    view.onBreaker(transition("cache", "open"));
    view.onBreaker(transition("gazetteer", "open"));

    assertThat(view.reserveBelow(ladder, 1)).isZero();
  }

  @Test
  void shouldReserveAgainOnceTheBreakerIsHalfOpen() {
    view.onBreaker(transition("osm", "open"));
    view.onBreaker(transition("osm", "half_open"));

    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(reserve(200, 20, 5));
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
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(reserve(200, 40, 5));
  }

  @Test
  void shouldTakeTheAnnouncedBreakerState() {
    view.onStats(stats("osm", 250L, "open"));

    assertThat(view.state(osm)).isEqualTo(TierBreaker.State.OPEN);
    assertThat(view.typical(osm)).isEqualTo(250);
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(reserve(20, 5));
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
    assertThat(view.reserveBelow(List.of(primary, stranger), 0)).isEqualTo(reserve(700));
    assertThat(view.reserveBelow(ladder, 0)).isEqualTo(reserve(200, 20, 5));
  }
  @Test
  @DisplayName("a chain with tiers of its own follows its own node's breakers only: another node's open breaker is not its own")
  void shouldFollowItsOwnNodesBreakersWhenItRunsTiers() {
    LadderView own = new LadderView(ladder, MARGINS, "node-a");
    own.onBreaker(transition("primary", "open").put("node", "node-b"));
    assertThat(own.state(primary)).isEqualTo(TierBreaker.State.CLOSED);
    own.onBreaker(transition("primary", "open").put("node", "node-a"));
    assertThat(own.state(primary)).isEqualTo(TierBreaker.State.OPEN);
    own.onStats(stats("osm", 80L, null).put("node", "node-b"));
    assertThat(own.typical(osm)).isEqualTo(200);
  }

  @Test
  @DisplayName("a chain without tiers of its own counts a tier as refusing only when every tier node heard from refuses it")
  void shouldCombineEveryTierNodeWithoutTiersOfItsOwn() {
    LadderView any = new LadderView(ladder, MARGINS, null);
    any.onBreaker(transition("primary", "open").put("node", "node-b"));
    assertThat(any.state(primary)).as("its only node is open").isEqualTo(TierBreaker.State.OPEN);
    any.onStats(stats("primary", 250L, "closed").put("node", "node-c"));
    assertThat(any.state(primary)).as("another node takes calls").isEqualTo(TierBreaker.State.CLOSED);
    assertThat(any.typical(primary)).isEqualTo(250);
    any.onStats(stats("primary", 40L, "open").put("node", "node-b"));
    assertThat(any.typical(primary)).as("the typical latency of a node that takes calls").isEqualTo(250);
    any.onBreaker(transition("primary", "open").put("node", "node-c"));
    assertThat(any.state(primary).refusesCalls()).isTrue();
    assertThat(any.reserveBelow(List.of(osm, primary), 0)).as("no rung below takes calls: nothing kept").isZero();
  }
}
