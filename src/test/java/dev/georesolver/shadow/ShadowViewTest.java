package dev.georesolver.shadow;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

/** The GET /v1/shadow shape: its fields, and reading it back. */
class ShadowViewTest {

  private static ShadowTable standIns() {
    ShadowTable t = new ShadowTable();
    SplittableRandom r = new SplittableRandom(11);
    for (int i = 0; i < 400; i++) {
      LonLat p = Samples.anywhere(r);
      t.record(Samples.sample(i, "primary_commercial", "osm_nominatim", i % 2 == 0 ? "describe" : "measure", p,
          r.nextDouble() < 0.1 ? null : Samples.east(p, 120), 300, 120));
    }
    return t;
  }

  @Test
  @DisplayName("each pair carries the design's fields in order, plus the counts that explain them")
  @SuppressWarnings("unchecked")
  void shouldCarryTheDesignedFields() {
    Map<String, Object> view = standIns().view();

    assertThat(view).containsOnlyKeys("pairs", "samples", "window");
    assertThat(view.get("samples")).isEqualTo(400L);
    List<Map<String, Object>> pairs = (List<Map<String, Object>>) view.get("pairs");
    assertThat(pairs).hasSize(2);
    Map<String, Object> first = pairs.get(0);
    assertThat(first.keySet()).containsExactly("served", "shadow", "intent", "samples", "both_found", "served_only",
        "shadow_only", "neither_found", "found_disagreement", "distance_m", "within_m", "within_count", "latency_ratio",
        "latency_ms", "label_similarity", "label_samples", "window");
    assertThat(first).containsEntry("served", "primary_commercial").containsEntry("shadow", "osm_nominatim")
        .containsEntry("intent", "describe");
    assertThat((Map<String, Object>) first.get("distance_m")).containsOnlyKeys("p50", "p90", "p99");
    assertThat((Map<String, Object>) first.get("within_m")).containsOnlyKeys("50", "250", "1000", "5000");
    assertThat((Double) ((Map<String, Object>) first.get("distance_m")).get("p50")).isCloseTo(120, within(1.0));
    assertThat((Double) first.get("latency_ratio")).isCloseTo(0.4, within(0.004));
    assertThat((Map<String, Object>) view.get("window")).containsOnlyKeys("first_ms", "last_ms");
  }

  @Test
  @DisplayName("a pair without samples both found has null distances and shares, and the same keys")
  @SuppressWarnings("unchecked")
  void shouldKeepTheShapeWhenFiguresAreAbsent() {
    ShadowTable t = new ShadowTable();
    LonLat p = new LonLat(0, 0);
    t.record(Samples.sample(1, "a", "b", "describe", p, null, 1, 1));
    Map<String, Object> pair = ((List<Map<String, Object>>) t.view().get("pairs")).get(0);

    assertThat(pair.get("distance_m")).isNull();
    assertThat((Map<String, Object>) pair.get("within_m")).containsEntry("250", null);
    assertThat(pair.get("found_disagreement")).isEqualTo(1.0);
    assertThat(pair.get("label_similarity")).isNull();

    Map<String, Object> empty = new ShadowTable().view();
    assertThat((List<?>) empty.get("pairs")).isEmpty();
    assertThat((Map<String, Object>) empty.get("window")).containsEntry("first_ms", null).containsEntry("last_ms", null);
  }

  @Test
  @DisplayName("fromMap(toMap()) gives the same summary, so no field is written and not read")
  void shouldReadBackEveryField() {
    SplittableRandom r = new SplittableRandom(12);
    ShadowTable t = new ShadowTable();
    for (int i = 0; i < 300; i++) {
      t.record(Samples.random(i, r));
    }
    for (PairSummary s : t.summaries()) {
      assertThat(PairSummary.fromMap(s.toMap(), "pair")).isEqualTo(s);
    }
    assertThat(ShadowView.parse(t.view())).isEqualTo(t.summaries());
  }

  @Test
  @DisplayName("the view goes through Vert.x's JSON and back unchanged, as the server and the command line will use it")
  void shouldSurviveJsonText() {
    ShadowTable t = standIns();
    String text = new JsonObject(t.view()).encode();

    assertThat(text).contains("\"distance_m\":{\"p50\":").contains("\"within_m\":{\"50\":");
    JsonObject back = new JsonObject(text);
    assertThat(ShadowView.parse(back.getMap())).isEqualTo(t.summaries());
    // The JsonObject itself (an iterable of entries) reads too.
    assertThat(ShadowView.parse(back)).isEqualTo(t.summaries());
  }

  @Test
  @DisplayName("a received view that is wrong is refused, naming the field")
  @SuppressWarnings("unchecked")
  void shouldRefuseAWrongViewNamingTheField() {
    Map<String, Object> view = standIns().view();
    List<Map<String, Object>> pairs = (List<Map<String, Object>>) view.get("pairs");

    Map<String, Object> negative = new LinkedHashMap<>(pairs.get(0));
    negative.put("samples", -1);
    assertThatThrownBy(() -> ShadowView.parse(Map.of("pairs", List.of(negative))))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("pairs[0].samples");

    Map<String, Object> fractional = new LinkedHashMap<>(pairs.get(0));
    ((Map<String, Object>) (fractional.computeIfPresent("within_count", (k, v) -> new LinkedHashMap<>((Map<String, Object>) v))))
        .put("250", 1.5);
    assertThatThrownBy(() -> ShadowView.parse(Map.of("pairs", List.of(fractional))))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("pairs[0].within_count.250");

    Map<String, Object> badName = new LinkedHashMap<>(pairs.get(1));
    badName.put("served", "a\nb");
    assertThatThrownBy(() -> ShadowView.parse(Map.of("pairs", List.of(pairs.get(0), badName))))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("pairs[1].served");

    Map<String, Object> contradiction = new LinkedHashMap<>(pairs.get(0));
    contradiction.put("both_found", 0L);
    assertThatThrownBy(() -> ShadowView.parse(Map.of("pairs", List.of(contradiction))))
        .isInstanceOf(ShadowFormatException.class).hasMessageContaining("pairs[0]");

    assertThatThrownBy(() -> ShadowView.parse(Map.of("pairs", "nope"))).isInstanceOf(ShadowFormatException.class)
        .hasMessageContaining("pairs: must be an array");
    assertThatThrownBy(() -> ShadowView.parse(List.of())).isInstanceOf(ShadowFormatException.class);
    List<Object> tooMany = new ArrayList<>();
    for (int i = 0; i <= ShadowTable.MAX_PAIRS; i++) {
      tooMany.add(pairs.get(0));
    }
    assertThatThrownBy(() -> ShadowView.parse(Map.of("pairs", tooMany))).isInstanceOf(ShadowFormatException.class)
        .hasMessageContaining("more than 512");
  }
}
