package dev.georesolver.bus;

import io.vertx.core.json.JsonObject;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.georesolver.bus.Samples.REFUSED;
import static dev.georesolver.bus.Samples.REPLAYED_REVERSE;
import static dev.georesolver.bus.Samples.RESOLVED;
import static dev.georesolver.bus.Samples.overTheWire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The result JSON, as built and as read back. */
class ResolveResultTest {

  static Stream<ResolveResult> results() {
    return Stream.of(RESOLVED, REFUSED, REPLAYED_REVERSE,
        RESOLVED.toBuilder().traceId("trace-9").elapsedMs(3).coalesced(true).build());
  }

  @ParameterizedTest
  @MethodSource("results")
  void shouldRoundTrip(ResolveResult r) {
    assertThat(ResolveResult.fromJson(r.toJson())).isEqualTo(r);
    assertThat(ResolveResult.fromJson(overTheWire(r.toJson()))).isEqualTo(r);
  }

  @ParameterizedTest
  @MethodSource("results")
  void shouldCopyEveryFieldThroughItsBuilder(ResolveResult r) {
    assertThat(r.toBuilder().build()).isEqualTo(r);
  }

  @Test
  void shouldWriteAResolvedResult() {
    JsonObject j = RESOLVED.toJson();

    assertThat(j.getString("status")).isEqualTo("resolved");
    assertThat(j.getDouble("lon")).isEqualTo(2.3376);
    assertThat(j.getDouble("lat")).isEqualTo(48.8606);
    assertThat(j.getString("crs")).isEqualTo("EPSG:4326");
    assertThat(j.getString("resolution_source")).isEqualTo("cache");
    assertThat(j.getString("claim")).isEqualTo("cached");
    assertThat(j.getBoolean("degraded")).isTrue();
    assertThat(j.getString("manifest_revision")).isEqualTo("0123456789ab-g3f9c2ab");
    assertThat(j.getJsonArray("attempts")).hasSize(3);
    assertThat(j.getJsonArray("attempts").getJsonObject(2).containsKey("detail")).isFalse();
    assertThat(j.getJsonObject("transform").getString("source_crs")).isEqualTo("EPSG:3857");
    assertThat(j.containsKey("direction")).as("forward is the default").isFalse();
    assertThat(j.containsKey("reason")).isFalse();
    assertThat(j.containsKey("replayed")).isFalse();
    assertThat(j.containsKey("coalesced")).isFalse();
  }

  @Test
  @DisplayName("a refusal carries its reason and notice, and no point, CRS or claim")
  void shouldWriteARefusal() {
    JsonObject j = REFUSED.toJson();

    assertThat(j.getString("status")).isEqualTo("refused");
    assertThat(j.getString("reason")).isEqualTo("budget_exhausted");
    assertThat(j.getString("notice")).isEqualTo("No rung could answer within the time budget.");
    assertThat(j.getBoolean("degraded")).isFalse();
    assertThat(j.fieldNames()).doesNotContain("lon", "lat", "crs", "claim", "confidence", "resolution_source", "transform");
    assertThat(REFUSED.resolved()).isFalse();
    assertThat(RESOLVED.resolved()).isTrue();
  }

  @Test
  void shouldMarkAReplayWithItsAge() {
    JsonObject j = REPLAYED_REVERSE.toJson();

    assertThat(j.getBoolean("replayed")).isTrue();
    assertThat(j.getLong("replay_age_s")).isEqualTo(600);
    assertThat(j.getBoolean("coalesced")).isTrue();
    assertThat(j.getString("direction")).isEqualTo("reverse");
    assertThat(j.getDouble("distance_m")).isEqualTo(12.5);
  }

  @Test
  void shouldChangeOnlyWhatTheCopySets() {
    ResolveResult r = RESOLVED.toBuilder().intent("measure").build();

    assertThat(r.intent()).isEqualTo("measure");
    assertThat(r).usingRecursiveComparison().ignoringFields("intent").isEqualTo(RESOLVED);
  }

  @Test
  @DisplayName("a builder starts forward, with no attempts and every other field absent")
  void shouldStartEmpty() {
    ResolveResult r = ResolveResult.builder().status(ResolveResult.REFUSED).build();

    assertThat(r.toBuffer().toString()).isEqualTo(
        "{\"status\":\"refused\",\"degraded\":false,\"attempts\":[],\"resolved_at_ms\":0,\"elapsed_ms\":0}");
    assertThat(r.direction()).isEqualTo(dev.georesolver.geo.Direction.FORWARD);
  }

  @Test
  void shouldRequireAStatus() {
    assertThatThrownBy(() -> ResolveResult.builder().build()).isInstanceOf(NullPointerException.class)
        .hasMessageContaining("status");
  }

  @Test
  @DisplayName("the attempts of a result cannot be changed through it or through the list it was built from")
  void shouldKeepItsOwnAttempts() {
    java.util.List<Attempt> list = new java.util.ArrayList<>(Samples.ATTEMPTS);
    ResolveResult r = RESOLVED.toBuilder().attempts(list).build();
    list.clear();

    assertThat(r.attempts()).hasSize(3);
    assertThatThrownBy(() -> r.attempts().clear()).isInstanceOf(UnsupportedOperationException.class);
  }
}
