package dev.georesolver.jobs;

import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The upload pace rule: a minimum rate over every whole window, backpressure not counted. */
class UploadPaceTest {

  @Test
  @DisplayName("a steady upload at twice the minimum is never too slow, however long it takes")
  void steadyIsFine() {
    UploadPace p = new UploadPace(1000, 4000, 0);
    for (long t = 1000; t <= 600_000; t += 1000) {
      p.received(2000);
      assertThat(p.tooSlow(t)).as("at %d ms", t).isFalse();
    }
  }

  @Test
  @DisplayName("nothing is judged before a whole window; a stall is too slow once a whole window has passed")
  void stallIsCutAfterAWindow() {
    UploadPace p = new UploadPace(1000, 4000, 0);
    p.received(100);
    assertThat(p.tooSlow(1000)).isFalse();
    assertThat(p.tooSlow(3999)).isFalse();
    assertThat(p.tooSlow(4000)).isTrue();
  }

  @Test
  @DisplayName("a fast start does not excuse a later stall: each window is judged on its own")
  void laterStall() {
    UploadPace p = new UploadPace(1000, 4000, 0);
    p.received(1_000_000);
    for (long t = 1000; t <= 4000; t += 1000) {
      assertThat(p.tooSlow(t)).isFalse();
    }
    boolean cut = false;
    for (long t = 5000; t <= 9000 && !cut; t += 1000) {
      cut = p.tooSlow(t);
    }
    assertThat(cut).as("a window of nothing after the burst").isTrue();
  }

  @Test
  @DisplayName("time the receiver held the sender back starts the window again")
  void heldIsNotTheClients() {
    UploadPace p = new UploadPace(1000, 4000, 0);
    p.received(5000);
    p.held(10_000);
    assertThat(p.tooSlow(11_000)).isFalse();
    p.received(4000);
    assertThat(p.tooSlow(14_000)).isFalse();
    assertThat(p.tooSlow(18_000)).isTrue();
  }
}
