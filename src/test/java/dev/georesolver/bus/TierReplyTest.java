package dev.georesolver.bus;

import dev.georesolver.geo.FailureClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.georesolver.bus.Samples.overTheWire;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/** {@link TierReply}'s JSON form and the outcome name it gives the result's attempts. */
class TierReplyTest {

  static Stream<Arguments> replies() {
    return Stream.of(
        arguments(TierReply.hit(Samples.HIT, 2), "hit"),
        arguments(TierReply.hit(Samples.CACHED_HIT, 1), "hit"),
        arguments(TierReply.failed(FailureClass.TRANSIENT, "HTTP 503; no retry: admission", 3), "transient"),
        arguments(TierReply.failed(FailureClass.NO_MATCH, null, 1), "no_match"),
        arguments(TierReply.failed(FailureClass.OUT_OF_BBOX, "outside bbox", 1), "out_of_bbox"),
        arguments(TierReply.skipped("breaker_open", null, 0), "skipped_breaker_open"),
        arguments(TierReply.skipped("admission", "only 40 ms usable", 0), "skipped_admission"),
        arguments(TierReply.skipped("rate_limited", null, 0), "skipped_rate_limited"),
        arguments(TierReply.skipped("deadline", "the tier did not answer in time", 0), "deadline"),
        arguments(TierReply.skipped("unavailable", "tier not deployed", 0), "unavailable"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("replies")
  void shouldRoundTrip(TierReply reply, String outcome) {
    assertThat(TierReply.fromJson(reply.toJson())).isEqualTo(reply);
    assertThat(TierReply.fromJson(overTheWire(reply.toJson()))).isEqualTo(reply);
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("replies")
  void shouldNameTheOutcome(TierReply reply, String outcome) {
    assertThat(reply.outcome()).isEqualTo(outcome);
  }
}
