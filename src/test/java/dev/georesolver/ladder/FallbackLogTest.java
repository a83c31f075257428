package dev.georesolver.ladder;

import dev.georesolver.bus.ResolveResult;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** A fallback activation is one walk that answered below its first rung or refused after a rung failed, and its record says so. */
class FallbackLogTest {

  private static JsonObject attempt(String tier, String outcome, int tries, long ms) {
    return new JsonObject().put("tier", tier).put("outcome", outcome).put("tries", tries).put("ms", ms).put("detail", "HTTP 503 key=x");
  }

  private static JsonObject degraded() {
    return new JsonObject()
        .put("status", "resolved").put("lon", 7.42).put("lat", 43.73).put("resolution_source", "secondary")
        .put("claim", "open_data").put("confidence", 0.8).put("degraded", true).put("intent", "describe")
        .put("idempotency_key", "ab12").put("manifest_revision", "0123456789ab").put("trace_id", "4bf92f3577b34da6")
        .put("elapsed_ms", 412)
        .put("attempts", new JsonArray().add(attempt("primary", "transient", 2, 400)).add(attempt("secondary", "hit", 1, 12)))
        .put("transform", new JsonObject().put("source_crs", "EPSG:3857").put("definition", "+proj=merc").put("definition_hash", "3f9c2ab01d4e"))
        .put("resolved_at_ms", 1_767_225_600_000L);
  }

  private static JsonObject refused(String... outcomes) {
    JsonArray attempts = new JsonArray();
    for (int i = 0; i < outcomes.length; i++) {
      attempts.add(attempt("t" + i, outcomes[i], 1, 5));
    }
    return new JsonObject().put("status", "refused").put("degraded", false).put("reason", "not_found_where_asked")
        .put("intent", "describe").put("idempotency_key", "cd34").put("trace_id", "t-2").put("attempts", attempts)
        .put("resolved_at_ms", 1L);
  }

  private static ResolveResult r(JsonObject j) {
    return ResolveResult.fromJson(j);
  }

  @Test
  @DisplayName("a degraded answer from a walk is an activation; the first rung's own answer is not")
  void degradedAnswers() {
    assertThat(FallbackLog.activated(r(degraded()))).isTrue();
    JsonObject first = degraded().put("degraded", false).put("resolution_source", "primary")
        .put("attempts", new JsonArray().add(attempt("primary", "hit", 1, 20)));
    assertThat(FallbackLog.activated(r(first))).isFalse();
  }

  @Test
  @DisplayName("a refusal is an activation when a rung failed or was skipped, not when every rung found nothing")
  void refusals() {
    assertThat(FallbackLog.activated(r(refused("transient", "no_match")))).isTrue();
    assertThat(FallbackLog.activated(r(refused("skipped_breaker_open", "no_match")))).isTrue();
    assertThat(FallbackLog.activated(r(refused("no_match", "out_of_bbox", "rejected")))).isFalse();
  }

  @Test
  @DisplayName("replays and coalesced deliveries share a walk already recorded, so they are not recorded again")
  void sharedDeliveries() {
    assertThat(FallbackLog.activated(r(degraded().put("replayed", true).put("replay_age_s", 3)))).isFalse();
    assertThat(FallbackLog.activated(r(degraded().put("coalesced", true)))).isFalse();
    assertThat(FallbackLog.activated(r(refused("transient").put("coalesced", true)))).isFalse();
  }

  @Test
  @DisplayName("the record of a degraded answer: rung, claim, confidence, transform, idempotency key, trace id, attempts")
  void degradedFields() {
    Map<String, Object> f = asMap(FallbackLog.fields(r(degraded())));

    assertThat(f).containsExactly(
        Map.entry("event", "fallback"),
        Map.entry("fallback_chain_activated", true),
        Map.entry("status", "resolved"),
        Map.entry("degraded", true),
        Map.entry("rung", "secondary"),
        Map.entry("rung_index", 1),
        Map.entry("first_rung", "primary"),
        Map.entry("claim", "open_data"),
        Map.entry("confidence", 0.8),
        Map.entry("transform", "EPSG:3857"),
        Map.entry("transform_definition_hash", "3f9c2ab01d4e"),
        Map.entry("idempotency_key", "ab12"),
        Map.entry("trace_id", "4bf92f3577b34da6"),
        Map.entry("intent", "describe"),
        Map.entry("direction", "forward"),
        Map.entry("manifest_revision", "0123456789ab"),
        Map.entry("elapsed_ms", 412L),
        Map.entry("attempts", "primary:transient:2:400 > secondary:hit:1:12"));
  }

  @Test
  @DisplayName("the record of a refusal: its reason and the rungs it went through, no answer fields, no provider text")
  void refusalFields() {
    Map<String, Object> f = asMap(FallbackLog.fields(r(refused("transient", "no_match"))));

    assertThat(f).containsEntry("status", "refused").containsEntry("reason", "not_found_where_asked")
        .containsEntry("rung_index", 2).containsEntry("attempts", "t0:transient:1:5 > t1:no_match:1:5")
        .doesNotContainKeys("rung", "claim", "confidence", "transform");
    assertThat(f.values().toString()).doesNotContain("key=x");
  }

  private static Map<String, Object> asMap(Iterable<Map.Entry<String, Object>> fields) {
    Map<String, Object> m = new LinkedHashMap<>();
    fields.forEach(e -> m.put(e.getKey(), e.getValue()));
    return m;
  }
}
