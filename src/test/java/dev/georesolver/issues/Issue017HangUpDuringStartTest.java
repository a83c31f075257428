package dev.georesolver.issues;

import dev.georesolver.reload.HeldUntilStarted;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/** A SIGHUP that arrives while the resolver is still deploying is not lost: it reloads once, when start-up is done. */
class Issue017HangUpDuringStartTest {

  @Test
  @DisplayName("signals before start are held and run once at start; after start each runs at once; start is idempotent")
  void heldUntilStarted() {
    AtomicInteger reloads = new AtomicInteger();
    HeldUntilStarted h = new HeldUntilStarted(reloads::incrementAndGet);
    h.fire();
    h.fire();
    assertThat(reloads).as("nothing runs before start").hasValue(0);
    h.started();
    assertThat(reloads).as("the held signals reload once").hasValue(1);
    h.started();
    assertThat(reloads).hasValue(1);
    h.fire();
    assertThat(reloads).hasValue(2);
  }

  @Test
  @DisplayName("no signal before start: starting runs nothing")
  void nothingHeld() {
    AtomicInteger reloads = new AtomicInteger();
    HeldUntilStarted h = new HeldUntilStarted(reloads::incrementAndGet);
    h.started();
    assertThat(reloads).hasValue(0);
  }
}
