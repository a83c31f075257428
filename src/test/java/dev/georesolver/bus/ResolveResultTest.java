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

/** The result JSON of DESIGN §9, as built and as read back. */
class ResolveResultTest {

  static Stream<ResolveResult> results() {
    return Stream.of(RESOLVED, REFUSED, REPLAYED_REVERSE, RESOLVED.redelivered("trace-9", 3, null, true));
  }

  @ParameterizedTest
  @MethodSource("results")
  void shouldRoundTrip(ResolveResult r) {
    assertThat(ResolveResult.fromJson(r.toJson())).isEqualTo(r);
    assertThat(ResolveResult.fromJson(overTheWire(r.toJson()))).isEqualTo(r);
  }

  @ParameterizedTest
  @MethodSource("results")
  @DisplayName("a stored answer delivered again writes the same JSON from its pre-encoded stable fields")
  void shouldEncodeTheSameWithStableJson(ResolveResult r) {
    ResolveResult stored = r.stored();
    ResolveResult again = stored.forIntent("measure").redelivered("trace-77", 4, 120L, false);
    ResolveResult plain = r.forIntent("measure").redelivered("trace-77", 4, 120L, false);

    assertThat(stored.stableJson()).isNotNull();
    assertThat(again.stableJson()).as("carried to every delivery").isSameAs(stored.stableJson());
    assertThat(new JsonObject(again.toBuffer())).isEqualTo(new JsonObject(plain.toBuffer()));
    assertThat(new JsonObject(stored.stableJson()).containsKey("trace_id")).isFalse();
    assertThat(stored.stored()).isSameAs(stored);
    assertThat(stored.attempts()).as("kept only in the encoded bytes").isEmpty();
    assertThat(stored.claim()).isEqualTo(r.claim());
    assertThat(stored.resolved()).isEqualTo(r.resolved());
    assertThat(ResolveResult.fromJson(stored.toJson()).forIntent(r.intent()))
        .as("the whole result reads back from the stored form")
        .isEqualTo(r.redelivered(null, 0, null, false).forIntent(r.intent()));
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
  void shouldRedeliverWithItsOwnTraceTimeAndReplayAge() {
    ResolveResult r = RESOLVED.redelivered("trace-9", 3, 120L, false);

    assertThat(r.traceId()).isEqualTo("trace-9");
    assertThat(r.elapsedMs()).isEqualTo(3);
    assertThat(r.replayAgeS()).isEqualTo(120);
    assertThat(r).usingRecursiveComparison().ignoringFields("traceId", "elapsedMs", "replayAgeS").isEqualTo(RESOLVED);
  }

  @Test
  void shouldRelabelTheIntentOnly() {
    ResolveResult r = RESOLVED.forIntent("measure");

    assertThat(r.intent()).isEqualTo("measure");
    assertThat(r).usingRecursiveComparison().ignoringFields("intent").isEqualTo(RESOLVED);
  }
}
