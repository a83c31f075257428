package dev.georesolver.bus;

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

/** The stored form of an answer and its redeliveries: the same result JSON, from bytes encoded once. */
class StoredAnswerTest {

  static Stream<ResolveResult> results() {
    return Stream.of(RESOLVED, REFUSED, REPLAYED_REVERSE);
  }

  @ParameterizedTest
  @MethodSource("results")
  @DisplayName("a replay writes the whole result with its own intent, trace, time and age")
  void shouldReplayTheWholeResult(ResolveResult r) {
    Redelivery replay = StoredAnswer.of(r).replayed(null, 0, "measure", "trace-77", 4, 120);

    assertThat(replay.toJson()).isEqualTo(r.toBuilder().intent("measure").traceId("trace-77").elapsedMs(4)
        .replayAgeS(120L).coalesced(false).build().toJson());
  }

  @ParameterizedTest
  @MethodSource("results")
  @DisplayName("a coalesced delivery writes the whole result, marked coalesced and not replayed")
  void shouldJoinWithTheWholeResult(ResolveResult r) {
    Redelivery joined = StoredAnswer.of(r).joined(null, 0, "describe", "trace-78", 9);

    assertThat(joined.toJson()).isEqualTo(r.toBuilder().intent("describe").traceId("trace-78").elapsedMs(9)
        .replayAgeS(null).coalesced(true).build().toJson());
  }

  @ParameterizedTest
  @MethodSource("results")
  @DisplayName("the stored form keeps every stable field and no delivery field, and reads back equal")
  void shouldKeepOnlyTheStableFields(ResolveResult r) {
    StoredAnswer a = StoredAnswer.of(r);

    assertThat(a.toJson().fieldNames()).doesNotContain("intent", "trace_id", "elapsed_ms", "replayed", "replay_age_s",
        "coalesced");
    assertThat(ResolveResult.fromJson(a.toJson()))
        .isEqualTo(r.toBuilder().intent(null).traceId(null).elapsedMs(0).replayAgeS(null).coalesced(false).build());
    assertThat(StoredAnswer.fromJson(overTheWire(a.toJson()))).isEqualTo(a);
    assertThat(StoredAnswer.fromJson(r.toJson())).as("a whole result reads as its stored form").isEqualTo(a);
  }

  @ParameterizedTest
  @MethodSource("results")
  @DisplayName("what the store and the chain read without decoding is the result's own")
  void shouldTellItsSummaryWithoutDecoding(ResolveResult r) {
    StoredAnswer a = StoredAnswer.of(r);
    Redelivery d = a.replayed(null, 0, "describe", "t", 1, 2);

    assertThat(a.status()).isEqualTo(r.status());
    assertThat(a.resolved()).isEqualTo(r.resolved());
    assertThat(a.direction()).isEqualTo(r.direction());
    assertThat(a.resolutionSource()).isEqualTo(r.resolutionSource());
    assertThat(a.claim()).isEqualTo(r.claim());
    assertThat(a.degraded()).isEqualTo(r.degraded());
    assertThat(a.manifestRevision()).isEqualTo(r.manifestRevision());
    assertThat(a.observedAtMs()).isEqualTo(r.observedAtMs());
    assertThat(a.resolvedAtMs()).isEqualTo(r.resolvedAtMs());
    assertThat(d.status()).isEqualTo(r.status());
    assertThat(d.direction()).isEqualTo(r.direction());
    assertThat(d.resolutionSource()).isEqualTo(r.resolutionSource());
    assertThat(d.claim()).isEqualTo(r.claim());
    assertThat(d.degraded()).isEqualTo(r.degraded());
  }

  @Test
  void shouldMarkAReplayWithItsAgeAndAJoinAsCoalesced() {
    Redelivery replay = StoredAnswer.of(RESOLVED).replayed(null, 0, "describe", "trace-9", 3, 120);
    Redelivery joined = StoredAnswer.of(RESOLVED).joined(null, 0, "describe", "trace-9", 3);

    assertThat(replay.replayAgeS()).isEqualTo(120);
    assertThat(replay.coalesced()).isFalse();
    assertThat(joined.replayAgeS()).isNull();
    assertThat(joined.coalesced()).isTrue();
    assertThat(joined.traceId()).isEqualTo("trace-9");
    assertThat(joined.elapsedMs()).isEqualTo(3);
  }

  @Test
  void shouldRoundTripARedeliveryOverTheWire() {
    Redelivery replay = StoredAnswer.of(REPLAYED_REVERSE).replayed(null, REPLAYED_REVERSE.resolvedAtMs(), "measure", "trace-77", 4, 120);
    Redelivery joined = StoredAnswer.of(RESOLVED).joined(null, RESOLVED.resolvedAtMs(), "describe", "trace-78", 0);

    assertThat(Redelivery.fromJson(overTheWire(replay.toJson()))).isEqualTo(replay);
    assertThat(Redelivery.fromJson(overTheWire(joined.toJson()))).isEqualTo(joined);
  }

  @Test
  void shouldBeEqualWhenTheEncodedFieldsAre() {
    assertThat(StoredAnswer.of(RESOLVED)).isEqualTo(StoredAnswer.of(RESOLVED.toBuilder().traceId("other").build()))
        .hasSameHashCodeAs(StoredAnswer.of(RESOLVED));
    assertThat(StoredAnswer.of(RESOLVED)).isNotEqualTo(StoredAnswer.of(RESOLVED.toBuilder().label("other").build()));
  }
}
