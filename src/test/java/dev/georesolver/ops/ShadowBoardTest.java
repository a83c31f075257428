package dev.georesolver.ops;

import dev.georesolver.geo.Claim;
import dev.georesolver.shadow.LonLat;
import dev.georesolver.shadow.ShadowSample;
import dev.georesolver.shadow.ShadowTable;
import dev.georesolver.shadow.ShadowView;
import io.vertx.core.eventbus.ReplyException;
import io.vertx.core.eventbus.ReplyFailure;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** The shadow view folded into the dashboard's matrix: one cell per ordered pair, intents added up exactly, bounded. */
class ShadowBoardTest {

  private static final List<String> LADDER = List.of("primary", "second", "third");

  /** A pair as the view lists it: {@code both} found of {@code samples}, {@code within} of them within 250 m. */
  private static JsonObject pair(String served, String shadow, String intent, long samples, long both, long servedOnly,
      long within, Double p50, Double p90) {
    return new JsonObject().put("served", served).put("shadow", shadow).put("intent", intent).put("samples", samples)
        .put("both_found", both).put("served_only", servedOnly).put("shadow_only", 0L)
        .put("within_count", new JsonObject().put("50", 0L).put("250", within).put("1000", within).put("5000", within))
        .put("distance_m", p50 == null ? null : new JsonObject().put("p50", p50).put("p90", p90).put("p99", p90))
        .put("label_samples", 0L)
        .put("latency_ms", samples == 0 ? null : new JsonObject().put("served_p50", 20.0).put("shadow_p50", 30.0))
        .put("latency_ratio", samples == 0 ? null : 1.5)
        .put("window", samples == 0 ? null : new JsonObject().put("first_ms", 1L).put("last_ms", 2L));
  }

  private static JsonObject view(JsonObject... pairs) {
    return new JsonObject().put("pairs", new JsonArray(List.of((Object[]) pairs))).put("samples", 0);
  }

  private static JsonObject cell(JsonObject event, String served, String shadow) {
    return event.getJsonArray("cells").stream().map(JsonObject.class::cast)
        .filter(c -> c.getString("served").equals(served) && c.getString("shadow").equals(shadow)).findFirst().orElseThrow();
  }

  @Test
  @DisplayName("off or waiting before any figure, and a state is relayed once, not again while it holds")
  void statesBeforeFigures() {
    assertThat(new ShadowBoard(false, 1).last().getString("state")).isEqualTo("off");
    ShadowBoard board = new ShadowBoard(true, 1);
    assertThat(board.last().getString("state")).isEqualTo("waiting");
    JsonObject off = board.off(2);
    assertThat(off.getString("state")).isEqualTo("off");
    assertThat(off.getJsonArray("cells")).isEmpty();
    assertThat(board.off(3)).as("still off: nothing new to relay").isNull();
    JsonObject gone = board.unavailable("no shadow sampler runs on this node", 4);
    assertThat(gone.getString("state")).isEqualTo("unavailable");
    assertThat(gone.getString("detail")).isEqualTo("no shadow sampler runs on this node");
    assertThat(board.unavailable("x".repeat(500), 5).getString("detail")).hasSize(ShadowBoard.MAX_DETAIL);
  }

  @Test
  @DisplayName("the operator reads why there are no figures: no sampler on the node, no answer in time, or the sampler's own reason")
  void whyNoFigures() {
    assertThat(OpsVerticle.whyNoShadow(new ReplyException(ReplyFailure.NO_HANDLERS, "No handlers for address geocode.shadow.view")))
        .isEqualTo("no shadow sampler runs on this node");
    assertThat(OpsVerticle.whyNoShadow(new ReplyException(ReplyFailure.TIMEOUT, "Timed out"))).isEqualTo("the shadow sampler did not answer within 4 s");
    assertThat(OpsVerticle.whyNoShadow(new ReplyException(ReplyFailure.RECIPIENT_FAILURE, 503, "the shadow figures could not be read: store down")))
        .isEqualTo("the shadow figures could not be read: store down");
  }

  @Test
  @DisplayName("a view without samples is 'empty', every ladder rung listed")
  void emptyView() {
    JsonObject e = new ShadowBoard(true, 0).onView(view(), LADDER, 10);
    assertThat(e.getString("state")).isEqualTo("empty");
    assertThat(e.getLong("samples")).isZero();
    assertThat(e.getJsonArray("rungs")).containsExactly("primary", "second", "third");
    assertThat(e.getJsonArray("cells")).isEmpty();
  }

  @Test
  @DisplayName("intents of one pair add up: counts summed, the within-250 m share over all samples both found, percentiles kept per intent")
  void intentsAddUp() {
    JsonObject e = new ShadowBoard(true, 0).onView(view(
        pair("primary", "second", "describe", 100, 90, 10, 90, 40.0, 120.0),
        pair("primary", "second", "navigate", 300, 300, 0, 240, 150.0, 900.0),
        pair("second", "third", "describe", 5, 0, 5, 0, null, null)), LADDER, 10);
    assertThat(e.getString("state")).isEqualTo("live");
    assertThat(e.getLong("samples")).isEqualTo(405);
    JsonObject c = cell(e, "primary", "second");
    assertThat(c.getLong("samples")).isEqualTo(400);
    assertThat(c.getLong("both_found")).isEqualTo(390);
    assertThat(c.getLong("within_250")).isEqualTo(330);
    // (90 + 240) / (90 + 300), not the mean of 1.0 and 0.8
    assertThat(c.getDouble("within_250_share")).isCloseTo(330.0 / 390, within(1e-4));
    assertThat(c.getDouble("found_disagreement")).isCloseTo(10.0 / 400, within(1e-4));
    assertThat(c.getJsonArray("intents")).hasSize(2);
    assertThat(c.getJsonArray("intents").getJsonObject(1).getMap()).containsEntry("intent", "navigate").containsEntry("p50_m", 150.0)
        .containsEntry("p90_m", 900.0);
    JsonObject none = cell(e, "second", "third");
    assertThat(none.getValue("within_250_share")).as("none both found: no share").isNull();
    assertThat(none.getDouble("found_disagreement")).isEqualTo(1.0);
    assertThat(none.getJsonArray("intents").getJsonObject(0).getValue("p50_m")).isNull();
  }

  @Test
  @DisplayName("rungs in ladder order, then the ones only the figures name, by name")
  void rungOrder() {
    JsonObject e = new ShadowBoard(true, 0).onView(view(
        pair("zeta_removed", "primary", "describe", 1, 1, 0, 1, 1.0, 1.0),
        pair("alpha_removed", "second", "describe", 1, 1, 0, 1, 1.0, 1.0)), LADDER, 0);
    assertThat(e.getJsonArray("rungs")).containsExactly("primary", "second", "third", "alpha_removed", "zeta_removed");
  }

  @Test
  @DisplayName("what is not a pair is left out: odd names, contradictory or non-integer counts, a rung paired with itself; and a non-view is unavailable")
  void untrustedInput() {
    ShadowBoard board = new ShadowBoard(true, 0);
    JsonObject e = board.onView(view(
        pair("<img src=x onerror=alert(1)>", "second", "describe", 1, 1, 0, 1, 1.0, 1.0),
        pair("primary", "second", "describe", 5, 6, 0, 1, 1.0, 1.0),
        pair("primary", "second", "describe", 5, 5, 0, 6, 1.0, 1.0),
        pair("primary", "primary", "describe", 5, 5, 0, 5, 1.0, 1.0),
        pair("primary", "second", "describe", -1, 0, 0, 0, null, null),
        pair("primary", "second", "describe", 1, 1, 0, 1, 1.0, 1.0).put("samples", 1.5),
        pair("primary", "second", "describe", 1, 1, 0, 1, 1.0, 1.0).put("within_count", "lots")), LADDER, 0);
    assertThat(e.getString("state")).isEqualTo("empty");
    assertThat(e.getJsonArray("rungs")).containsExactly("primary", "second", "third");
    assertThat(board.onView("not a view", LADDER, 0).getString("state")).isEqualTo("unavailable");
    assertThat(board.onView(new JsonObject().put("pairs", "none"), LADDER, 0)).as("unavailable still").isNull();
  }

  @Test
  @DisplayName("at most 512 pairs are read")
  void bounded() {
    JsonObject[] many = new JsonObject[ShadowBoard.MAX_PAIRS + 10];
    for (int i = 0; i < many.length; i++) {
      many[i] = pair("s" + i, "t" + i, "describe", 1, 1, 0, 1, 1.0, 1.0);
    }
    assertThat(new ShadowBoard(true, 0).onView(view(many), List.of(), 0).getJsonArray("cells")).hasSize(ShadowBoard.MAX_PAIRS);
  }

  @Test
  @DisplayName("the figures change: relayed; the same figures asked again: not relayed")
  void relayedOnChange() {
    ShadowBoard board = new ShadowBoard(true, 0);
    JsonObject v = view(pair("primary", "second", "describe", 3, 3, 0, 3, 40.0, 40.0));
    assertThat(board.onView(v, LADDER, 1)).isNotNull();
    assertThat(board.onView(v.copy(), LADDER, 2)).isNull();
    assertThat(board.last().getLong("at_ms")).as("the last one kept is the latest").isEqualTo(2);
    assertThat(board.onView(view(pair("primary", "second", "describe", 4, 4, 0, 3, 40.0, 400.0)), LADDER, 3)).isNotNull();
  }

  @Test
  @DisplayName("reads what the shadow core writes: a ShadowView of real samples 40 m apart")
  void readsTheRealView() {
    ShadowTable t = new ShadowTable();
    for (int i = 0; i < 7; i++) {
      ShadowSample.Side served = ShadowSample.Side.found("primary", new LonLat(2.35, 48.85), null, Claim.EXACT, 20, null);
      ShadowSample.Side shadow = ShadowSample.Side.found("second", new LonLat(2.3505, 48.85), null, Claim.OPEN_DATA, 30, null);
      t.record(new ShadowSample(String.format("%032x", i), "describe", 1_000 + i, served, shadow));
    }
    JsonObject e = new ShadowBoard(true, 0).onView(new JsonObject(ShadowView.toMap(t.summaries())), LADDER, 0);
    JsonObject c = cell(e, "primary", "second");
    assertThat(c.getLong("samples")).isEqualTo(7);
    assertThat(c.getDouble("within_250_share")).isEqualTo(1.0);
    assertThat(c.getJsonArray("intents").getJsonObject(0).getDouble("p50_m")).isCloseTo(36.6, within(1.0));
  }
}
