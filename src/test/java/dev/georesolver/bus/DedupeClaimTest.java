package dev.georesolver.bus;

import org.junit.jupiter.api.Test;

import static dev.georesolver.bus.Samples.overTheWire;
import static org.assertj.core.api.Assertions.assertThat;

/** {@link DedupeClaim}'s JSON form. */
class DedupeClaimTest {

  @Test
  void shouldRoundTrip() {
    DedupeClaim c = new DedupeClaim("ab12cd34", "ab12cd34|describe|FORWARD", 604_800_000L, "exact,open_data");

    assertThat(DedupeClaim.fromJson(c.toJson())).isEqualTo(c);
    assertThat(DedupeClaim.fromJson(overTheWire(c.toJson()))).isEqualTo(c);
  }

  @Test
  void shouldRoundTripAClaimThatAcceptsNoReplay() {
    DedupeClaim c = new DedupeClaim("k", "k|contain|FORWARD", 0, "");

    assertThat(DedupeClaim.fromJson(overTheWire(c.toJson()))).isEqualTo(c);
  }
}
