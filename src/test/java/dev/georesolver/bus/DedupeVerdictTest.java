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
        DedupeVerdict.replay(StoredAnswer.of(Samples.RESOLVED), 4_500),
        DedupeVerdict.replay(StoredAnswer.of(Samples.REPLAYED_REVERSE), 0),
        DedupeVerdict.joined(StoredAnswer.of(Samples.REFUSED)));
  }

  @ParameterizedTest
  @MethodSource("verdicts")
  void shouldRoundTrip(DedupeVerdict v) {
    assertThat(DedupeVerdict.fromJson(v.toJson())).isEqualTo(v);
    assertThat(DedupeVerdict.fromJson(overTheWire(v.toJson()))).isEqualTo(v);
  }
}
