package dev.georesolver.bus;

import org.junit.jupiter.api.Test;

import static dev.georesolver.bus.Samples.overTheWire;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link DedupeComplete}'s JSON form. */
class DedupeCompleteTest {

  @Test
  void shouldRoundTripAResolvedOutcome() {
    DedupeComplete c = new DedupeComplete("ab12cd34", "ab12cd34|describe|FORWARD", Samples.RESOLVED, 3_600_000L);

    assertThat(DedupeComplete.fromJson(c.toJson())).isEqualTo(c);
    assertThat(DedupeComplete.fromJson(overTheWire(c.toJson()))).isEqualTo(c);
  }

  @Test
  void shouldRoundTripARefusalThatIsNotStored() {
    DedupeComplete c = new DedupeComplete("ab12cd34", "ab12cd34|contain|FORWARD", Samples.REFUSED, 0);

    assertThat(DedupeComplete.fromJson(overTheWire(c.toJson()))).isEqualTo(c);
  }

  @Test
  void shouldRoundTripAFailedWalkWithoutAResult() {
    DedupeComplete c = new DedupeComplete("ab12cd34", "ab12cd34|describe|FORWARD", null, 0);

    assertThat(DedupeComplete.fromJson(overTheWire(c.toJson()))).isEqualTo(c);
  }
}
