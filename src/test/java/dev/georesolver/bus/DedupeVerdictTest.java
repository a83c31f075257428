package dev.georesolver.bus;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.stream.Stream;

import static dev.georesolver.bus.Samples.overTheWire;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link DedupeVerdict}'s JSON form for every kind. */
class DedupeVerdictTest {

  static Stream<DedupeVerdict> verdicts() {
    return Stream.of(
        DedupeVerdict.LEAD,
        DedupeVerdict.BYPASS,
        new DedupeVerdict(DedupeVerdict.Kind.REPLAY, Samples.RESOLVED, 4_500),
        new DedupeVerdict(DedupeVerdict.Kind.JOINED, Samples.REFUSED, 0));
  }

  @ParameterizedTest
  @MethodSource("verdicts")
  void shouldRoundTrip(DedupeVerdict v) {
    assertThat(DedupeVerdict.fromJson(v.toJson())).isEqualTo(v);
    assertThat(DedupeVerdict.fromJson(overTheWire(v.toJson()))).isEqualTo(v);
  }
}
