package dev.georesolver.state.rules;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Outbox cursors of both stores compare in outbox order; anything else is not a cursor. */
class CursorsTest {

  @Test
  @DisplayName("SQLite sequence numbers and Redis stream ids are cursors and compare numerically")
  void compare() {
    assertThat(Cursors.valid("42")).isTrue();
    assertThat(Cursors.valid("1767225600000-3")).isTrue();
    assertThat(Cursors.valid("abc")).isFalse();
    assertThat(Cursors.valid("1-2-3")).isFalse();
    assertThat(Cursors.valid("")).isFalse();
    assertThat(Cursors.compare("9", "10")).isNegative();
    assertThat(Cursors.compare("1767225600000-10", "1767225600000-9")).isPositive();
    assertThat(Cursors.compare("1767225600001-0", "1767225600000-9")).isPositive();
    assertThat(Cursors.compare(null, "1")).isNegative();
    assertThat(Cursors.compare("5", "5")).isZero();
  }
}
